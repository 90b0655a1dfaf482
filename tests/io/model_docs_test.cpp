// docs/model-format.md holds the field tables generated from the item descriptions, unchanged.
#include "io/model_docs.h"

#include <QtTest>

using namespace flexim;

class ModelDocsTest : public QObject {
  Q_OBJECT

 private slots:
  void docTablesAreGenerated() {
    const std::string path = FLEXIM_SOURCE_DIR "/docs/model-format.md";
    std::string doc, error;
    QVERIFY2(io::readDocument(path, doc, error), error.c_str());
    std::vector<std::string> missing;
    const std::string generated = io::withGeneratedTables(doc, &missing);
    std::string names;
    for (const auto& s : missing) names += " " + s;
    QVERIFY2(missing.empty(), ("docs/model-format.md has no generated section for:" + names).c_str());
    QVERIFY2(generated == doc,
             "the tables in docs/model-format.md differ from the item descriptions; regenerate them with\n"
             "  flexim-cli docs model-format-tables --update docs/model-format.md");
  }

  void everySectionHasATable() {
    for (const auto& s : io::generatedSections()) {
      const std::string table = io::generatedTable(s);
      QVERIFY2(table.rfind("| ", 0) == 0 && table.find("\n|---") != std::string::npos, s.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(ModelDocsTest)
#include "model_docs_test.moc"
