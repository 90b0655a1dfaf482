// Hostile and broken model files: the loader must answer with an error (never crash, hang or
// throw) for truncated text, garbage bytes, absurd nesting, overflowing numbers, wrong types in
// every position, and random mutations of a real model; for flexible bodies also hostile
// reduced-body file names (folders, devices, FIFOs, huge names, other kinds of files).
#include "io/model_json.h"
#include "tiny_reduced_body.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <sys/stat.h>

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

/// Loads text; every diagnostic must be well-formed (something to show the user). Reduced-body
/// files are resolved against baseDir.
bool loads(const std::string& text, Diagnostics* out = nullptr, const std::string& baseDir = "") {
  ModelSpec m;
  Diagnostics diag;
  const bool ok = io::loadModelString(text, m, diag, "in.json", baseDir);
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

/// A model using flexible and virtual bodies and the flexible sensors; valid beside rod.frb
/// (test::tinyRod()).
json flexibleDoc() {
  return json::parse(R"({
    "schema_version": 1,
    "ground": {"markers": [{"name": "O"}]},
    "bodies": [{"name": "link", "mass": 1, "inertia": [1, 1, 1], "markers": [{"name": "A"}]}],
    "flexible_bodies": [{"name": "beam", "file": "rod.frb", "modes": 3, "reference": "interface",
      "reference_interface": "END_A", "modal_coordinates": [0, 0, 0],
      "damping": {"ratio": [0.02], "alpha": 0, "beta": 0}, "stiffness_scale": 2}],
    "virtual_bodies": [
      {"name": "beam_A", "flexible_body": "beam", "point": [0, 0, 0], "nodes": [101, 102, 103],
       "z_axis": [0, 0, 1], "markers": [{"name": "pin"}]},
      {"name": "beam_B", "flexible_body": "beam", "interface": "END_B", "markers": [{"name": "pin"}]}
    ],
    "joints": [
      {"name": "pivot", "type": "revolute", "body1": "ground", "marker1": "O", "body2": "beam_A", "marker2": "pin"},
      {"name": "hinge", "type": "spherical", "body1": "beam_B", "marker1": "pin", "body2": "link", "marker2": "A"}
    ],
    "sensors": [
      {"name": "tip", "type": "node", "body": "beam", "node": 108, "frame": "body", "quantities": ["position"]},
      {"name": "mid", "type": "deflection", "body": "beam", "node": 104, "chord": [101, 108],
       "quantities": ["deflection"]},
      {"name": "q", "type": "modal", "body": "beam", "quantities": ["coordinate"]}
    ]
  })");
}

}  // namespace

class ModelJsonMalformedTest : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;  ///< holds rod.frb (test::tinyRod())
  std::string m_base;

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

  // ---- flexible bodies ------------------------------------------------------------------

  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_base = m_dir.path().toStdString();
    const std::string error = test::writeTinyRod(m_base + "/rod.frb");
    QVERIFY2(error.empty(), error.c_str());
    Diagnostics diag;
    QVERIFY2(loads(flexibleDoc().dump(), &diag, m_base) && diag.items().empty(), diag.str().c_str());
  }

  void wrongTypeInEveryPositionOfAFlexibleModel() {
    const json doc = flexibleDoc();
    std::vector<json::json_pointer> pointers;
    collectPointers(doc, json::json_pointer(), pointers);
    const std::vector<json> replacements{nullptr, true, "text", "rod.frb", -1.5, 0, 101, 2147483648.0,
                                         json::array(), json::object(), json::array({101, 101, 101}),
                                         json::array({1e308, -1e308}), std::string(5000, '/')};
    int failures = 0;
    for (const auto& ptr : pointers) {
      if (ptr.empty()) continue;
      for (const json& r : replacements) {
        json broken = doc;
        broken[ptr] = r;
        failures += loads(broken.dump(), nullptr, m_base) ? 0 : 1;
      }
    }
    QVERIFY(failures > static_cast<int>(pointers.size()));
  }

  void hostileBodyFileNames() {
    // each must be refused with a reason on the file key, quickly: no hang on a FIFO or a
    // device, no huge read
    const std::string fifo = m_base + "/fifo.frb";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string sparse = m_base + "/huge.frb";
    std::ofstream(sparse).close();
    std::filesystem::resize_file(sparse, std::uintmax_t(1) << 36);  // 64 GiB of zeros, sparse
    std::ofstream(m_base + "/model.json") << flexibleDoc().dump();
    const std::vector<std::string> names{"/", ".", "..", "/dev/zero", "/dev/null", "/dev/urandom", "/proc/self/mem",
                                         "/proc/self/status", fifo, "fifo.frb", "huge.frb", "model.json",
                                         "missing/../../rod.frb", std::string(5000, 'x') + ".frb",
                                         std::string(300, 'y') + "/" + std::string(300, 'z'), "rod.frb/"};
    for (const std::string& name : names) {
      json doc = flexibleDoc();
      doc["flexible_bodies"][0]["file"] = name;
      Diagnostics diag;
      QVERIFY2(!loads(doc.dump(), &diag, m_base), name.substr(0, 100).c_str());
      bool onFile = false;
      for (const auto& d : diag.items())
        onFile = onFile || (d.where == "flexible_bodies[0].file" && d.message.size() > 10);
      QVERIFY2(onFile, (name.substr(0, 100) + "\n" + diag.str()).c_str());
    }
  }

  void manyBodiesShareOneFile() {
    json doc = flexibleDoc();
    json& flex = doc["flexible_bodies"];
    for (int i = 0; i < 20000; ++i) flex.push_back({{"name", std::to_string(i) + "b"}, {"file", "./rod.frb"}});
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelString(doc.dump(), m, diag, "in.json", m_base), diag.str().c_str());
    QCOMPARE(m.flexible_bodies.size(), size_t(20001));
    QVERIFY(m.flexible_bodies.back().data);
    QCOMPARE(m.flexible_bodies.back().data.get(), m.flexible_bodies.front().data.get());
    QCOMPARE(m.flexible_bodies.back().data.use_count(), long(20001));

    // many missing files: bounded messages
    json missing = flexibleDoc();
    for (int i = 0; i < 5000; ++i)
      missing["flexible_bodies"].push_back({{"name", std::to_string(i) + "m"}, {"file", std::to_string(i) + ".frb"}});
    Diagnostics missingDiag;
    QVERIFY(!loads(missing.dump(), &missingDiag, m_base));
    QCOMPARE(missingDiag.items().size(), size_t(201));
  }

  void randomMutationsOfAFlexibleModel() {
    const std::string text = flexibleDoc().dump(2);
    const std::string alphabet = "{}[]\",:0123456789.-+eE truefalsnul\\/\n\t\x01\xff";
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
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
      loads(t, nullptr, m_base);  // any answer, as long as it is an answer
    }
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
