// Creating, duplicating and deleting items: the Add menu, made from the
// model's item descriptions (one entry per list of the model, and "Marker" for the selected
// body), and Edit → Duplicate / Delete. A new item is filled in an ItemDialog; a delete names
// what depends on the item (joints on a body, drivers of those joints, …) and removes it all as
// one undoable command, or nothing.
#pragma once

#include "core/base/diagnostics.h"
#include "ui/model_document.h"
#include "ui/virtual_body_placement.h"

#include <optional>

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace flexim::ui {

class ItemActions : public QObject {
  Q_OBJECT

 public:
  ItemActions(ModelDocument* document, QWidget* window);

  /// The Add menu (owned by the window).
  QMenu* addMenu() const { return m_addMenu; }
  QAction* addMarkerAction() const { return m_addMarker; }
  QAction* duplicateAction() const { return m_duplicate; }
  QAction* deleteAction() const { return m_delete; }
  /// Edit → Copy / Paste: the selected item (with its markers) as text on the clipboard, to be
  /// pasted into this model or another one (also in another Flexim window).
  QAction* copyAction() const { return m_copy; }
  QAction* pasteAction() const { return m_paste; }
  static constexpr const char* kClipboardMime = "application/x-flexim-items+json";
  /// Off while a run uses the model.
  void setEditable(bool editable);

  /// Opens the dialog for a new item of holder's list; the item added, or kNoItem.
  ItemId addWithDialog(ItemId holder, const std::string& listKey);

  /// A rigid body from a closed CAD mesh (Add → Rigid body from a mesh…, after the file dialog):
  /// asks the density and the mesh's unit, computes mass, centre of mass and inertia from the
  /// surface, and opens the new body's dialog with them and the mesh as its visual. A mesh that is
  /// not closed says why and offers the dialog with the mass properties to enter by hand.
  ItemId addRigidBodyFromMesh(const QString& file);
  /// A rigid body drawn as a box, cylinder or sphere, its mass properties those of the solid of
  /// a density (a dialog asks for the shape, its dimensions and the density; then the body's).
  ItemId addRigidBodyShape();

  /// File → Import FE body…: the import wizard (FE file → reduced body file beside the model),
  /// then the new flexible body's dialog to place it (position, orientation, reference frame).
  /// The body added, or kNoItem (the wizard or the dialog cancelled).
  ItemId importFeBody();
  QAction* importFeAction() const { return m_importFe; }

  /// The last pick in the view: a joint added at a point starts at its point, a sensor added at
  /// the pick observes its FE node or marker.
  void setLastPick(const render::PickResult& pick) { m_lastPick = pick; }
  /// Add → Sensor at the picked node or marker…: a node sensor on the FE node last clicked on a
  /// flexible body, or a marker sensor on the marker last clicked, in a dialog to choose its
  /// quantities; its channels are plotted on the next run (plotOnNextRun). The sensor, or kNoItem.
  ItemId addSensorAtPick();
  /// Add → Joint at a point…: the dialog, starting at the last picked point, between the two
  /// bodies selected last (or the ground and the selected body); the joint added, or kNoItem.
  ItemId addJointAtPoint();
  /// Add → Contact at points…: the ContactDialog with the last pick; the contact added, or none.
  ItemId addContactAtPoints();
  /// Add → Beam member…: the BeamMemberDialog, starting at the last pick; its first node, or none.
  ItemId addBeamMember();

  /// Placing a virtual body by a click (Add → Virtual body on the mesh): what the next click in
  /// the view places, if anything.
  std::optional<PlaceOn> placing() const { return m_placing; }
  void cancelPlacing();
  /// The click while placing: adds the virtual body (one undoable command, selected) and ends
  /// placing; false with the reason in message (placing goes on: click again or Esc), true with
  /// what was placed.
  bool placeAt(const render::PickResult& pick, QString& message);

 signals:
  /// A sensor made by picking: plot its channels when the next run starts.
  void plotOnNextRun(const QString& sensor);
  /// Placing started or ended: the view shows a cross cursor and the status bar what to click.
  void placingChanged(bool placing, const QString& prompt);
  /// What an import said (the importer's and the reduction's messages), for the Messages panel.
  void diagnostics(const Diagnostics& diagnostics, const QString& file);
  /// The import wizard's body was placed in the model (and selected).
  void flexibleBodyImported(flexim::ui::ItemId id);

 private:
  void deleteSelected();
  void copySelected();
  void paste();
  void duplicateSelected();
  /// The item that takes a new marker: the selected body (or ground), or the holder of a selected marker.
  ItemId markerHolder() const;
  void updateEnabled();

  ModelDocument* m_document;
  QWidget* m_window;
  QMenu* m_addMenu = nullptr;
  QAction* m_addMarker = nullptr;
  QAction* m_importFe = nullptr;
  QAction* m_copy = nullptr;
  QAction* m_paste = nullptr;
  QAction* m_duplicate = nullptr;
  QAction* m_delete = nullptr;
  QList<QAction*> m_placeActions;
  std::optional<PlaceOn> m_placing;
  render::PickResult m_lastPick;
  /// The body (rigid, virtual or the ground) that joints would use for an item: itself, a
  /// marker's body; "" for other items.
  std::string jointBody(ItemId id) const;
  std::vector<std::string> m_selectedBodies;  ///< the last two bodies selected, the latest last
  bool m_editable = true;
};

}  // namespace flexim::ui
