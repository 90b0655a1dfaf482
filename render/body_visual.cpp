#include "render/body_visual.h"

#include <vtkMatrix4x4.h>

namespace flexim::render {

void BodyVisual::attach(vtkSmartPointer<vtkActor> actor, const Pose& inBody) {
  actor->SetUserMatrix(toVtkMatrix(m_bodyToWorld * inBody));
  m_parts.push_back({std::move(actor), inBody});
}

void BodyVisual::detach(const vtkActor* actor) {
  std::erase_if(m_parts, [actor](const Part& part) { return part.actor.GetPointer() == actor; });
}

void BodyVisual::setPose(const Pose& bodyToWorld) {
  m_bodyToWorld = bodyToWorld;
  for (Part& part : m_parts) part.actor->SetUserMatrix(toVtkMatrix(bodyToWorld * part.inBody));
}

std::vector<vtkActor*> BodyVisual::actors() const {
  std::vector<vtkActor*> list;
  list.reserve(m_parts.size());
  for (const Part& part : m_parts) list.push_back(part.actor);
  return list;
}

bool BodyVisual::owns(const vtkProp* prop) const {
  for (const Part& part : m_parts)
    if (part.actor.GetPointer() == prop) return true;
  return false;
}

}  // namespace flexim::render
