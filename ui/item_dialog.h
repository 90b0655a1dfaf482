// A dialog for one item: its fields with the property
// panel's editors, made from the item description, working on a copy of the model so that each
// value is checked as it is typed. For an existing item (Simulation → Solver settings…) OK
// applies every change as one undoable command; for a new one (Add → Joint…) OK adds the item,
// one undoable command. Cancel changes nothing.
#pragma once

#include "ui/model_document.h"

#include <QDialog>

namespace flexim::ui {

class PropertyPanel;

class ItemDialog : public QDialog {
  Q_OBJECT

 public:
  /// Edits item id; OK makes one command named commandText.
  ItemDialog(ModelDocument& document, ItemId id, const QString& commandText, QWidget* parent = nullptr);
  /// A new item for holder's list listKey, starting from initial (a spec struct of the list's
  /// kind; its defaults when null) with a free name; OK adds it.
  ItemDialog(ModelDocument& document, ItemId holder, const std::string& listKey, const void* initial,
             QWidget* parent = nullptr);

  /// The editors (on the copy), for tests and for focus.
  PropertyPanel* panel() const { return m_panel; }
  /// The item added by OK (a new item's dialog), kNoItem before or when cancelled.
  ItemId created() const { return m_created; }

  /// Applies the edit or adds the item; stays open with the reason if the document refuses it.
  void accept() override;

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void build();
  /// The copy's id of a document item.
  ItemId copyOf(ItemId id) const;

  ModelDocument& m_document;
  ModelDocument m_copy;
  ItemId m_item = ModelDocument::kNoItem;    ///< the item edited, in the document
  ItemId m_draft = ModelDocument::kNoItem;   ///< the item in the copy (edited or new)
  ItemId m_holder = ModelDocument::kNoItem;  ///< new item: the item whose list gets it
  std::string m_listKey;
  QString m_commandText;
  ItemId m_created = ModelDocument::kNoItem;
  PropertyPanel* m_panel = nullptr;
};

}  // namespace flexim::ui
