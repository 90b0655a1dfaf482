// The naming rules of model editing (io/editing_rules.h), shared by the model editor and copy
// and paste: numbered free names, a copy's name without its trailing digits, the scopes names
// are unique in, and which references name an item.
#include "core/model/description.h"
#include "io/editing_rules.h"

#include <QtTest>

using namespace flexim;

class EditingRulesTest : public QObject {
  Q_OBJECT

 private slots:
  /// A new item: its base numbered from 1, skipping used names; the base is kept whole.
  void numberedNames() {
    QCOMPARE(io::numberedName({}, "body"), std::string("body1"));
    QCOMPARE(io::numberedName({"body1"}, "body"), std::string("body2"));
    QCOMPARE(io::numberedName({"body1", "body2", "body4"}, "body"), std::string("body3"));
    QCOMPARE(io::numberedName({}, "rod2"), std::string("rod21"));  // a file's stem stays as it is
    QCOMPARE(io::numberedName({}, "crank_pin_"), std::string("crank_pin_1"));
  }

  /// A copy: name, name1, name2 — a name ending in digits is numbered anew, not extended.
  void copyNames() {
    std::set<std::string> used = {"crank"};
    for (const char* expected : {"crank1", "crank2", "crank3"}) {
      const std::string name = io::freeName(used, "crank", "body");
      QCOMPARE(name, std::string(expected));
      used.insert(name);
    }
    QCOMPARE(io::freeName(used, "crank2", "body"), std::string("crank4"));
    QCOMPARE(io::freeName({"rod10"}, "rod10", "body"), std::string("rod1"));
    QCOMPARE(io::freeName({"rod1"}, "rod1", "body"), std::string("rod2"));
    QCOMPARE(io::freeName({"12"}, "12", "marker"), std::string("marker1"));  // nothing left: the kind
  }

  /// Markers are named within their body, everything else model-wide; a reference names the
  /// items of its kind or its name scope.
  void scopesAndReferences() {
    const ItemDescription* marker = findItemDescription("marker");
    const ItemDescription* body = findItemDescription("body");
    const ItemDescription* flexible = findItemDescription("flexible_body");
    const ItemDescription* joint = findItemDescription("joint");
    QVERIFY(marker && body && flexible && joint);
    QVERIFY(io::holderScoped(*marker));
    QVERIFY(!io::holderScoped(*body));
    QVERIFY(!io::holderScoped(*joint));
    QVERIFY(io::refersToKind("body", *body));
    QVERIFY(io::refersToKind("body", *flexible));  // the "body" name scope
    QVERIFY(io::refersToKind("flexible_body", *flexible));
    QVERIFY(!io::refersToKind("flexible_body", *body));
    QVERIFY(!io::refersToKind("body", *joint));
  }
};

QTEST_GUILESS_MAIN(EditingRulesTest)
#include "editing_rules_test.moc"
