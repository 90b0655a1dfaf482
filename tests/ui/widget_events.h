// Driving the application's widgets as a user does, for the UI tests: clicks on model-tree rows
// and check boxes, typing into fields.
#pragma once

#include "ui/model_tree.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QTimer>
#include <QScrollArea>
#include <QSpinBox>
#include <QtTest>

#include <functional>

namespace flexim::test {

/// The share of pixels in which two images of the same size differ (1 when the sizes differ).
inline double differingFraction(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.isNull()) return 1.0;
  long differing = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (a.pixel(x, y) != b.pixel(x, y)) ++differing;
  return double(differing) / (double(a.width()) * a.height());
}

/// Clicks a row of the model tree (scrolled into view first).
inline void clickTreeRow(ui::ModelTree* tree, QTreeWidgetItem* row) {
  QVERIFY(tree && row);
  tree->scrollToItem(row);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(row).center());
  QApplication::processEvents();
}

/// The model tree's row named text (under the group row `group` when given: "Sensors"); null
/// when there is none.
inline QTreeWidgetItem* treeRow(const ui::ModelTree* tree, const QString& text, const QString& group = {}) {
  for (QTreeWidgetItem* row : tree->findItems(text, Qt::MatchExactly | Qt::MatchRecursive))
    if (group.isEmpty() || (row->parent() && row->parent()->text(0) == group)) return row;
  return nullptr;
}

/// Replaces an editor's text (a line edit, a spin box) by typing, then Return.
template <class Editor>
inline void typeAndReturn(Editor* edit, const QString& text) {
  QVERIFY(edit);
  edit->setFocus();
  edit->selectAll();
  QTest::keyClicks(edit, text);
  QTest::keyClick(edit, Qt::Key_Return);
  QApplication::processEvents();
}

/// Clicks the check box `name` of a panel (a property panel, a dialog's), scrolled into view
/// first; on the box itself, since a short label leaves the middle of a wide check box outside
/// what takes clicks.
inline void clickCheckBox(QWidget* panel, const QString& name) {
  QTest::qWait(50);  // the panel's rows are rebuilt after an edit, and a click is not a double click
  auto* box = panel->findChild<QCheckBox*>(name);
  QVERIFY2(box, qPrintable(name));
  if (auto* scroll = panel->findChild<QScrollArea*>()) scroll->ensureWidgetVisible(box);
  QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
  QApplication::processEvents();
}

/// Chooses the entry of a combo box whose data (else text) is `value` with the arrow keys, as
/// a user does with the box focused (each key press activates the entry it lands on).
inline void chooseInCombo(QComboBox* box, const QString& value) {
  QVERIFY(box);
  int target = box->findData(value);
  if (target < 0) target = box->findText(value);
  QVERIFY2(target >= 0, qPrintable(value));
  box->setFocus();
  for (int guard = 0; box->currentIndex() != target && guard < 200; ++guard)
    QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
  QCOMPARE(box->currentIndex(), target);
  QApplication::processEvents();
}

/// Acts on the dialog once it is the active modal widget (looked for every 10 ms, at most `tries`
/// times): a dialog opened after another one closes is reached too.
template <class Dialog>
void whenModal(QObject* context, std::function<void(Dialog*)> act, int tries = 6000) {
  QTimer::singleShot(10, context, [context, act, tries] {
    if (auto* d = qobject_cast<Dialog*>(QApplication::activeModalWidget())) act(d);
    else if (tries > 0) whenModal<Dialog>(context, act, tries - 1);
  });
}

/// Replaces an editor's text by typing (no Return).
inline void typeInto(QLineEdit* edit, const QString& text) {
  QVERIFY(edit);
  edit->setFocus();
  edit->selectAll();
  QTest::keyClicks(edit, text);
}

/// Once the event loop runs again, clicks "Open recovered" in the recovery box (it must be the
/// active modal widget) and keeps its text in *text.
inline void acceptRecoveryBoxWhenShown(QObject* context, QString* text) {
  QTimer::singleShot(0, context, [text] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    QVERIFY(box && box->objectName() == "recoveryBox");
    *text = box->text();
    for (QAbstractButton* b : box->buttons())
      if (box->buttonRole(b) == QMessageBox::AcceptRole) QTest::mouseClick(b, Qt::LeftButton);
  });
}

}  // namespace flexim::test

