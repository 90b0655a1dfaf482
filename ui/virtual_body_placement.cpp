#include "ui/virtual_body_placement.h"

#include "core/fe/surface_regions.h"

#include <cstdio>

#include <cmath>

namespace flexim::ui {

bool virtualBodyAt(const ModelSpec& model, const render::PickResult& pick, PlaceOn on, VirtualBodyPlacement& out,
                   std::string& error) {
  // the picked item must be a flexible body: "flexible_bodies[i]"
  const std::string prefix = "flexible_bodies[";
  if (pick.item.compare(0, prefix.size(), prefix) != 0 || pick.surface_point < 0) {
    error = "click on a flexible body's surface to place a virtual body";
    return false;
  }
  const std::size_t index = std::stoul(pick.item.substr(prefix.size()));
  if (index >= model.flexible_bodies.size()) {
    error = "no such flexible body";
    return false;
  }
  const FlexibleBodySpec& flexible = model.flexible_bodies[index];
  if (!flexible.data) {
    error = "flexible body '" + flexible.name + "' has no reduced-body data loaded";
    return false;
  }
  out = {};
  out.body.flexible_body = flexible.name;
  // the drawn body's frame is its FE frame (the surface is drawn from the FE coordinates)
  out.body.point = pick.point_in_body;
  if (on == PlaceOn::Point) return true;

  const fe::ReducedBody& data = *flexible.data;
  const fe::TriangleSurface surface{data.coords, data.surface};
  const int seed = fe::nearestFacet(surface, pick.point_in_body);
  if (seed < 0) {
    error = "flexible body '" + flexible.name + "' has no surface triangles to fit";
    return false;
  }
  const fe::SurfaceFeature feature = on == PlaceOn::Bore ? fe::fitBore(surface, seed) : fe::fitFace(surface, seed);
  if (!feature.ok()) {
    error = std::string(on == PlaceOn::Bore ? "no bore" : "no flat face") + " at the clicked point: " + feature.message;
    return false;
  }
  // round-off of the fit (1e-20 m beside 0.3 m) is not a coordinate anyone means: a picometre is zero
  out.body.point = feature.centre.unaryExpr([](double v) { return std::abs(v) < 1e-12 ? 0.0 : v; });
  out.body.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), feature.axis).normalized();
  out.fit = feature.message;
  return true;
}

}  // namespace flexim::ui
