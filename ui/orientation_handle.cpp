#include "ui/orientation_handle.h"

#include "core/model/body_table.h"
#include "render/model_scene.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace flexim::ui {

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

/// The lists whose items have a pose of their own that an orientation field sets.
bool isBodyList(const std::string& listKey) { return findBodyKind(listKey) != nullptr; }

}  // namespace

OrientationHandle::OrientationHandle(ModelDocument& document, render::ModelScene& scene, VtkViewport& viewport,
                                     QObject* parent)
    : QObject(parent), m_document(document), m_scene(scene), m_viewport(viewport) {
  m_viewport.setDragTarget(this);
}

OrientationHandle::~OrientationHandle() { m_viewport.setDragTarget(nullptr); }

void OrientationHandle::setEnabled(bool enabled) {
  m_enabled = enabled;
  if (!enabled) m_viewport.cancelDrag();
  refresh();
}

void OrientationHandle::refresh() {
  if (m_axis >= 0) return;  // a drag owns the handle until it ends
  const ItemId id = m_document.selected();
  const ItemDescription* d = m_document.description(id);
  const std::string item = m_document.itemPath(id);
  const int body = d && isBodyList(d->listKey) ? m_scene.bodyIndexOf(item) : -1;
  if (!m_enabled || body < 0 || !m_document.applies(id, "orientation")) {
    m_handle.hide();
    return;
  }
  m_handle.show(m_scene.renderer(), m_scene.bodyPose(std::size_t(body)));
}

bool OrientationHandle::beginDrag(double x, double y) {
  if (!m_enabled || !m_handle.isVisible()) return false;
  const int axis = m_handle.ringAt(x, y);
  if (axis < 0) return false;
  const FieldValue orientation = m_document.value(m_document.selected(), "orientation");
  if (!std::holds_alternative<Quat>(orientation)) return false;
  m_item = m_document.selected();
  m_axis = axis;
  m_startOrientation = std::get<Quat>(orientation);
  m_startFrame = m_handle.frame();
  m_body = m_scene.bodyIndexOf(m_document.itemPath(m_item));
  m_startPoses.assign(m_scene.bodyCount(), {});
  for (std::size_t i = 0; i < m_startPoses.size(); ++i) {
    m_startPoses[i].position = m_scene.bodyPose(i).translation();
    m_startPoses[i].orientation = Quat(m_scene.bodyPose(i).linear());
  }
  m_lastAngle = m_handle.screenAngle(axis, x, y);
  m_swept = m_turn = 0.0;
  m_handle.setActive(axis);
  drag(x, y, {});
  return true;
}

void OrientationHandle::drag(double x, double y, Qt::KeyboardModifiers modifiers) {
  if (m_axis < 0) return;
  // the screen angle wraps at ±180°: its changes are added up, so a drag may go round
  const double angle = m_handle.screenAngle(m_axis, x, y);
  m_swept += std::remainder(angle - m_lastAngle, 2 * std::numbers::pi);
  m_lastAngle = angle;
  const double step = (modifiers & Qt::ControlModifier) ? 15 * kDegree : kDegree;
  m_turn = std::round(m_swept / step) * step;
  const render::Pose frame = m_startFrame * Eigen::AngleAxisd(m_turn, Vec3::Unit(m_axis));
  m_handle.setFrame(frame);
  // the body turns with the rings (its drawing only, until the edit is made)
  std::vector<BodyPose> poses = m_startPoses;
  poses[std::size_t(m_body)] = {frame.translation(), Quat(frame.linear())};
  m_scene.setPoses(poses);
  emit status(tr("Turning %1 about its %2 axis: %3° (Ctrl: 15° steps, Esc: cancel)")
                  .arg(m_document.itemLabel(m_item))
                  .arg(QChar('x' + m_axis))
                  .arg(m_turn / kDegree, 0, 'f', 0));
}

void OrientationHandle::endDrag(bool cancelled) {
  if (m_axis < 0) return;
  const int axis = m_axis;
  const ItemId item = m_item;
  m_axis = -1;
  m_item = ModelDocument::kNoItem;
  m_handle.setActive(-1);
  QString error;
  const bool turned = !cancelled && std::abs(m_turn) > 0.5 * kDegree;
  if (turned) {
    const Quat orientation = (m_startOrientation * Quat(Eigen::AngleAxisd(m_turn, Vec3::Unit(axis)))).normalized();
    const QString text = tr("Turn %1 %2° about %3").arg(m_document.itemLabel(item)).arg(m_turn / kDegree, 0, 'f', 0).arg(QChar('x' + axis));
    if (m_document.setFields(item, {{"orientation", orientation}}, text, error)) {
      emit status(text);
      return;  // the document's change redraws the scene, and the handle with it
    }
  }
  // nothing changes: the body and the rings back where they were
  m_scene.setPoses(m_startPoses);
  m_handle.setFrame(m_startFrame);
  m_viewport.update();
  emit status(!error.isEmpty() ? tr("The turn was refused: %1").arg(error) : tr("Turn cancelled"));
}

}  // namespace flexim::ui
