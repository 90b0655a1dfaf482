// The actors that move with one body. Each keeps its fixed placement in the body frame, so a
// new body pose only rewrites user matrices (no geometry is rebuilt).
#pragma once

#include "render/geometry.h"

#include <vtkActor.h>
#include <vtkSmartPointer.h>

#include <vector>

namespace flexim::render {

class BodyVisual {
 public:
  /// `inBody`: the actor's geometry frame expressed in the body frame.
  void attach(vtkSmartPointer<vtkActor> actor, const Pose& inBody = Pose::Identity());
  /// Stops moving an actor with the body (it stays in whatever renderer shows it).
  void detach(const vtkActor* actor);
  /// X_WB: body frame -> global.
  void setPose(const Pose& bodyToWorld);
  const Pose& pose() const { return m_bodyToWorld; }
  std::vector<vtkActor*> actors() const;
  bool owns(const vtkProp* prop) const;

 private:
  struct Part {
    vtkSmartPointer<vtkActor> actor;
    Pose inBody;
  };
  std::vector<Part> m_parts;
  Pose m_bodyToWorld = Pose::Identity();
};

}  // namespace flexim::render
