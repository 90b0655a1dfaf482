// Hostile and broken model files: the loader must answer with an error (never crash, hang or
// throw) for truncated text, garbage bytes, absurd nesting, overflowing numbers, wrong types in
// every position, and random mutations of a real model.
#include "io/model_json.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace flexim;
using nlohmann::json;

namespace {

const std::string kExample = FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Loads text; every diagnostic must be well-formed (something to show the user).
bool loads(const std::string& text, Diagnostics* out = nullptr) {
  ModelSpec m;
  Diagnostics diag;
  const bool ok = io::loadModelString(text, m, diag, "in.json");
  for (const auto& d : diag.items())
    if (d.message.empty()) qFatal("empty diagnostic message for input of %zu bytes", text.size());
  if (!ok && !diag.hasErrors()) qFatal("load failed without an error");
  if (out) *out = diag;
  return ok;
}

std::string firstError(const std::string& text) {
  Diagnostics diag;
  loads(text, &diag);
  for (const auto& d : diag.items())
    if (d.severity == Severity::Error) return d.where + ": " + d.message;
  return {};
}

/// JSON pointers of every value in doc (containers included).
void collectPointers(const json& doc, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (doc.is_object())
    for (auto it = doc.begin(); it != doc.end(); ++it) collectPointers(it.value(), at / it.key(), out);
  else if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i) collectPointers(doc[i], at / i, out);
}

}  // namespace

class ModelJsonMalformedTest : public QObject {
  Q_OBJECT
 private slots:
  void emptyInput() {
    QCOMPARE(firstError(""), std::string("in.json: the file is empty"));
    QCOMPARE(firstError(" \n\t\r\n"), std::string("in.json: the file is empty"));
  }

  void zeroByteAndOversizedFiles() {
    QTemporaryDir dir;
    const std::string empty = dir.filePath("empty.json").toStdString();
    std::ofstream(empty).close();
    ModelSpec m;
    Diagnostics diag;
    QVERIFY(!io::loadModelFile(empty, m, diag));
    QCOMPARE(diag.items().at(0).where + ": " + diag.items().at(0).message, empty + ": the file is empty");

    const std::string big = dir.filePath("big.json").toStdString();
    std::ofstream(big).close();
    std::filesystem::resize_file(big, (16u << 20) + 1);  // sparse: instant, no disk use
    Diagnostics bigDiag;
    QVERIFY(!io::loadModelFile(big, m, bigDiag));
    QCOMPARE(bigDiag.items().at(0).message,
             std::string("too large for a model (16777217 bytes; the limit is 16 MiB)"));
  }

  void topLevelMustBeAnObject() {
    for (const char* text : {"[]", "3", "\"model\"", "null", "true"})
      QCOMPARE(firstError(text), std::string("in.json: expected a JSON object at the top level"));
  }

  void deepNestingIsRefused() {
    const std::size_t n = 100000;
    const std::string expected = "in.json: nesting deeper than 100 levels";
    QCOMPARE(firstError(std::string(n, '[')), expected);
    QCOMPARE(firstError(std::string(n, '[') + std::string(n, ']')), expected);
    std::string objects;
    for (std::size_t i = 0; i < n; ++i) objects += "{\"a\":";
    QCOMPARE(firstError(objects + "1" + std::string(n, '}')), expected);
    // inside the limit it is just an unknown key
    Diagnostics diag;
    QVERIFY(loads("{\"schema_version\": 1, \"x\": " + std::string(90, '[') + std::string(90, ']') + "}", &diag));
  }

  void overflowingAndOddNumbers() {
    for (const char* number : {"1e999", "-1e999", "1e400", "123456789012345678901234567890e300"})
      QVERIFY(!loads(std::string("{\"schema_version\": 1, \"gravity\": [0, ") + number + ", 0]}"));
    for (const char* number : {"NaN", "Infinity", "-Infinity", "0x10", "+1", ".5", "01"})
      QVERIFY(!loads(std::string("{\"schema_version\": 1, \"gravity\": [0, ") + number + ", 0]}"));
    QVERIFY(!loads("{\"schema_version\": 1e999}"));
    QVERIFY(!loads("{\"schema_version\": 18446744073709551616}"));
    QVERIFY(!loads("{\"schema_version\": -9223372036854775809}"));
    QVERIFY(loads("{\"schema_version\": 1.0}"));
  }

  void garbageBytes() {
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> byte(0, 255), length(1, 3000);
    for (int i = 0; i < 500; ++i) {
      std::string text(static_cast<std::size_t>(length(rng)), '\0');
      for (char& c : text) c = static_cast<char>(byte(rng));
      QVERIFY(!loads(text));
    }
    QVERIFY(!loads(std::string("{\"schema_version\": 1,\0 \"name\": \"x\"}", 36)));
    QVERIFY(!loads("{\"schema_version\": 1, \"name\": \"\xff\xfe\"}"));  // ill-formed UTF-8
    QVERIFY(loads("{\"schema_version\": 1, \"name\": \"\xce\xbc-\xe6\x9c\xba\"}"));
  }

  void everyTruncationFails() {
    const std::string text = readFile(kExample);
    QVERIFY(text.size() > 1000);
    const std::size_t closing = text.rfind('}');
    for (std::size_t n = 0; n <= closing; ++n) QVERIFY2(!loads(text.substr(0, n)), std::to_string(n).c_str());
    QVERIFY(loads(text.substr(0, closing + 1)));
  }

  void wrongTypeInEveryPosition() {
    const json doc = json::parse(readFile(kExample));
    std::vector<json::json_pointer> pointers;
    collectPointers(doc, json::json_pointer(), pointers);
    const std::vector<json> replacements{nullptr, true, "text", -1.5, 0, json::array(), json::object(),
                                         json::array({1, 2, 3}), 1e308, std::string(10000, 'x')};
    int failures = 0;
    for (const auto& ptr : pointers) {
      if (ptr.empty()) continue;
      for (const json& r : replacements) {
        json broken = doc;
        broken[ptr] = r;
        failures += loads(broken.dump()) ? 0 : 1;
      }
    }
    QVERIFY(failures > static_cast<int>(pointers.size()));  // most replacements are errors
  }

  void randomMutations() {
    const std::string text = readFile(kExample);
    const std::string alphabet = "{}[]\",:0123456789.-+eE truefalsnul\\/\n\t\x01\xff";
    std::mt19937 rng(2026);
    for (int i = 0; i < 3000; ++i) {
      std::string t = text;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !t.empty(); ++e) {
        const std::size_t at = rng() % t.size();
        switch (rng() % 3) {
          case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
          case 1: t.erase(at, 1 + rng() % 8); break;
          default: t.insert(at, t.substr(rng() % t.size(), rng() % 40)); break;
        }
      }
      loads(t);  // any answer, as long as it is an answer
    }
  }

  void bigButHarmlessValues() {
    QVERIFY(!loads("{\"schema_version\": 1, \"gravity\": [" + std::string(200000, '1').insert(1, ",") + "]}"));
    std::string many = "[0";
    for (int i = 0; i < 100000; ++i) many += ",1";
    QVERIFY(!loads("{\"schema_version\": 1, \"gravity\": " + many + "]}"));
    QVERIFY(loads("{\"schema_version\": 1, \"name\": \"" + std::string(1 << 20, 'n') + "\"}"));
  }

  void floodsStayBounded() {
    // a million junk keys, a million bad list items: quick, and a bounded number of messages
    std::string keys = "{\"schema_version\": 1";
    for (int i = 0; i < 1000000; ++i) keys += ",\"k" + std::to_string(i) + "\":0";
    Diagnostics diag;
    QVERIFY(loads(keys + "}", &diag));
    QCOMPARE(diag.items().size(), size_t(21));
    QCOMPARE(diag.items().back().message, std::string("999980 more unknown keys (ignored)"));

    std::string items = "{\"schema_version\": 1, \"bodies\": [0";
    for (int i = 0; i < 99999; ++i) items += ",0";
    Diagnostics itemDiag;
    QVERIFY(!loads(items + "]}", &itemDiag));
    QCOMPARE(itemDiag.items().size(), size_t(201));
    QCOMPARE(itemDiag.items().back().message, std::string("99800 more problems not listed"));
    QCOMPARE(firstError(items + ",0]}"), std::string("bodies: more than 100000 items"));
  }

  void duplicateKeysKeepTheLastValue() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY(io::loadModelString("{\"schema_version\": 1, \"name\": \"a\", \"name\": \"b\"}", m, diag));
    QCOMPARE(m.name, std::string("b"));
  }
};

QTEST_APPLESS_MAIN(ModelJsonMalformedTest)
#include "model_json_malformed_test.moc"
