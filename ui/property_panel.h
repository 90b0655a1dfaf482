// The property panel: the selected item's fields, each with a typed editor
// made from its field description (core/model/description.h) — numbers with their SI unit,
// vectors, tensors, choices, references to other items — so a kind registered there is editable
// here without widgets of its own. Every edit goes through ModelDocument::setField (one undoable
// command); an edit that validation refuses is not made, and the field shows validation's
// message in place.
#pragma once

#include "core/base/diagnostics.h"
#include "ui/model_document.h"

#include <QWidget>

#include <functional>
#include <map>
#include <string>

class QFormLayout;
class QLabel;

namespace flexim::ui {

class PropertyPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PropertyPanel(ModelDocument* document, QWidget* parent = nullptr);

  /// The item shown (the document's selection), kNoItem when none.
  ItemId item() const { return m_item; }
  /// The message under a field after a refused edit ("" when its last edit was accepted).
  QString fieldError(const QString& key) const;
  /// What compiling the model said, shown under the title for the item it is about (a virtual
  /// body's node triangle k, m, n and its near-singularity warning, …).
  /// A line about what the view shows of the item (the marks of a virtual body's nodes k, m, n),
  /// shown under its notes; empty for none.
  void setViewNote(const QString& html);
  void setNotes(const Diagnostics& notes);
  /// The notes shown for the current item ("" for none).
  QString notesText() const;

 private:
  struct Row {
    std::function<void(const FieldValue&)> show;  ///< puts the document's value into the editor
    QLabel* error = nullptr;
  };
  void rebuild();
  void scheduleRebuild();
  void showNotes();
  void onFieldChanged(ItemId id, const QString& key);
  /// The rows of a description's fields; keys get the prefix ("visual." for a nested object).
  /// The rows of d's fields (keys prefix + key); valueUnit: what "{value}" in their units is.
  void addRows(const ItemDescription& d, const std::string& prefix, const std::string& valueUnit = {});
  /// The editor of one field (key: its path in the item), wired to commit its edits; null for
  /// kinds not edited here.
  QWidget* makeEditor(const FieldDescription& f, const std::string& key, Row& row);
  /// A list field whose values are offered (FieldDescription::options): one check box each.
  QWidget* choiceList(const std::string& key, Row& row);
  void commit(const std::string& key, const FieldValue& value);
  /// Shows why an edit was not made under its field, and the model's value in the editor.
  void refuse(const std::string& key, const QString& message);

  ModelDocument* m_document;
  ItemId m_item = ModelDocument::kNoItem;
  QLabel* m_title = nullptr;
  QLabel* m_notes = nullptr;
  Diagnostics m_compileNotes;
  QString m_viewNote;
  QLabel* m_help = nullptr;
  QWidget* m_form = nullptr;
  QFormLayout* m_layout = nullptr;
  std::map<std::string, Row> m_rows;
  bool m_rebuildPending = false;
};

}  // namespace flexim::ui
