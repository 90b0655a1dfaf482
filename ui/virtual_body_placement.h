// Placing a virtual body by clicking on a flexible body: at the clicked
// point, or on a bore (a cylindrical face region grown from the clicked facet, its axis and
// centre fitted by least squares) or on a face (a flat region, its centroid and normal), using
// core/fe/surface_regions.h. The new body's z axis is the bore axis or the face normal.
#pragma once

#include "core/model/model.h"
#include "render/model_scene.h"

#include <string>

namespace flexim::ui {

enum class PlaceOn { Point, Bore, Face };

struct VirtualBodyPlacement {
  VirtualBodySpec body;  ///< flexible_body, point (FE frame) and orientation set; name left to the caller
  std::string fit;       ///< what was found ("bore r = 3.000 mm, axis ..."), "" for a point
};

/// The virtual body for a click on a flexible body of model (pick from ModelScene::pick while the
/// model is shown undeformed or at any frame: the point is taken in the body's FE frame). False
/// with the reason (not a flexible body, no reduced-body data, a face that is not flat, ...).
bool virtualBodyAt(const ModelSpec& model, const render::PickResult& pick, PlaceOn on, VirtualBodyPlacement& out,
                   std::string& error);

}  // namespace flexim::ui
