// SHA-256 against the FIPS 180-2 / NIST example vectors, incremental hashing and files.
#include "io/sha256.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace flexim;

class Sha256Test : public QObject {
  Q_OBJECT
 private slots:
  void standardVectors_data() {
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray("") << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("448 bits") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                              << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("896 bits")
        << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                      "mnopqrstnopqrstu")
        << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
    QTest::newRow("million a") << QByteArray(1000000, 'a')
                               << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
  }
  void standardVectors() {
    QFETCH(QByteArray, message);
    QFETCH(QString, digest);
    QCOMPARE(QString::fromStdString(io::sha256Hex(std::string_view(message.constData(), message.size()))), digest);
  }

  void paddingBoundaries() {
    // lengths around the 55/56/64-byte padding edges must agree between one-shot and chunked input
    for (std::size_t n : {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000}) {
      const std::string msg(n, 'x');
      io::Sha256 h;
      for (std::size_t i = 0; i < n; i += 7) h.update(std::string_view(msg).substr(i, 7));
      QCOMPARE(io::toHex(h.digest()), io::sha256Hex(msg));
    }
    QCOMPARE(io::sha256Hex(std::string(56, 'a')), std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
  }

  void fileDigest() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("f.bin").toStdString();
    std::string content(200000, '\0');
    for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 31 + 7);
    std::ofstream(path, std::ios::binary) << content;
    std::string hex, error;
    QVERIFY(io::sha256FileHex(path, hex, &error));
    QCOMPARE(hex, io::sha256Hex(content));
    QVERIFY(!io::sha256FileHex(dir.filePath("none").toStdString(), hex, &error));
    QVERIFY(!error.empty());
  }
};

QTEST_APPLESS_MAIN(Sha256Test)
#include "sha256_test.moc"
