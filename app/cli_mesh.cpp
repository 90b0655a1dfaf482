// flexim-cli mass-properties: the mass, centre of mass and inertia of the solid a closed
// triangle mesh bounds (core/geometry/mass_properties.h, read by io/mesh/mesh_file.h).
#include "app/cli_common.h"
#include "io/mesh/mesh_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace flexim::cli {

namespace {

std::string vec(const Eigen::Vector3d& v) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%.10g, %.10g, %.10g]", v.x(), v.y(), v.z());
  return buf;
}

nlohmann::ordered_json jsonVec(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

nlohmann::ordered_json jsonRows(const Eigen::Matrix3d& m) {
  return {jsonVec(m.row(0).transpose()), jsonVec(m.row(1).transpose()), jsonVec(m.row(2).transpose())};
}

}  // namespace

int massPropertiesCommand(const std::vector<std::string>& args) {
  std::string input;
  geometry::MassPropertiesOptions options;
  bool densityGiven = false, json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& o = args[i];
    const bool hasValue = i + 1 < args.size();
    double x = 0;
    if (o == "--density" && hasValue) {
      if (!parseNumber(args[++i], x) || !(x > 0)) return fail("--density needs a positive density in kg/m^3, e.g. 7850");
      options.density = x;
      densityGiven = true;
    } else if (o == "--scale" && hasValue) {
      if (!parseNumber(args[++i], x) || !(x > 0))
        return fail("--scale needs a positive factor from mesh units to metres, e.g. 0.001 for a mesh in mm");
      options.scale = x;
    } else if (o == "--json") {
      json = true;
    } else if (!o.empty() && o[0] == '-') {
      return fail("mass-properties: unknown option '" + o + "' (or missing value)");
    } else if (input.empty()) {
      input = o;
    } else {
      return fail("mass-properties: unexpected argument '" + o + "'");
    }
  }
  if (input.empty()) return fail("mass-properties needs a mesh file (STL, OBJ, PLY, glTF, ...)");
  if (!densityGiven) return fail("mass-properties needs --density RHO in kg/m^3, e.g. --density 7850");

  const geometry::MassPropertiesReport r = io::meshFileMassProperties(input, options);
  if (!r.ok) return fail(r.error);
  for (const std::string& w : r.warnings) std::fprintf(stderr, "flexim-cli: warning: %s\n", w.c_str());
  const geometry::MassProperties& p = r.properties;

  if (json) {
    nlohmann::ordered_json axes = nlohmann::ordered_json::array();
    for (int k = 0; k < 3; ++k) axes.push_back(jsonVec(p.principal_axes.col(k)));
    const nlohmann::ordered_json out = {
        {"file", input},
        {"density", options.density},
        {"scale", options.scale},
        {"volume", p.volume},
        {"mass", p.mass},
        {"centre_of_mass", jsonVec(p.centre)},
        {"inertia", jsonRows(p.inertia)},
        {"principal_moments", jsonVec(p.principal_moments)},
        {"principal_axes", axes},
        {"mesh",
         {{"triangles", r.triangles},
          {"vertices", r.vertices},
          {"vertices_read", r.vertices_read},
          {"degenerate_triangles", r.degenerate_triangles},
          {"weld_distance", r.weld_distance},
          {"shells", r.shells},
          {"inside_out", r.inside_out},
          {"flipped_shells", r.flipped_shells}}},
        {"warnings", r.warnings},
        {"body",
         {{"mass", p.mass},
          {"inertia", jsonRows(p.inertia)},
          {"visual", {{"file", input}, {"scale", options.scale}, {"position", jsonVec(-p.centre)}}}}},
    };
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }

  std::printf("mesh: %s: %ld triangles, %ld vertices (%ld read, welded within %.3g file units), %d shell%s\n",
              input.c_str(), r.triangles, r.vertices, r.vertices_read, r.weld_distance, r.shells, r.shells == 1 ? "" : "s");
  std::printf("scale: %.10g (file units -> m), density: %.10g kg/m^3\n", options.scale, options.density);
  std::printf("volume: %.10g m^3\n", p.volume);
  std::printf("mass: %.10g kg\n", p.mass);
  std::printf("centre of mass: %s m\n", vec(p.centre).c_str());
  std::printf("inertia about the centre of mass, mesh axes [kg m^2]:\n");
  for (int i = 0; i < 3; ++i) std::printf("  %s\n", vec(p.inertia.row(i).transpose()).c_str());
  std::printf("principal moments [kg m^2]: %s\n", vec(p.principal_moments).c_str());
  std::printf("principal axes (mesh axes):\n");
  for (int k = 0; k < 3; ++k) std::printf("  %d: %s\n", k + 1, vec(p.principal_axes.col(k)).c_str());
  // what a rigid body of the model format needs, its axes those of the mesh
  std::printf("as a model body (body axes = mesh axes, body frame at the centre of mass):\n");
  std::printf("  \"mass\": %.10g, \"inertia\": [%s, %s, %s],\n", p.mass, vec(p.inertia.row(0).transpose()).c_str(),
              vec(p.inertia.row(1).transpose()).c_str(), vec(p.inertia.row(2).transpose()).c_str());
  std::printf("  \"visual\": {\"file\": \"%s\", \"scale\": %.10g, \"position\": %s}\n", input.c_str(), options.scale,
              vec(-p.centre).c_str());
  return 0;
}

}  // namespace flexim::cli
