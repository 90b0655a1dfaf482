// flexim-cli mass-properties: the mass, centre of mass and inertia of the solid a closed
// triangle mesh bounds (core/geometry/mass_properties.h, read by io/mesh/mesh_file.h), or of a
// box, cylinder or sphere (closed forms: what a body drawn as that shape gets in the GUI).
#include "app/cli_common.h"
#include "io/mesh/mesh_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace flexim::cli {

namespace {

std::string vec(const Eigen::Vector3d& v) {
  char buf[128];
  // + 0.0: no "-0" for a zero component
  std::snprintf(buf, sizeof buf, "[%.10g, %.10g, %.10g]", v.x() + 0.0, v.y() + 0.0, v.z() + 0.0);
  return buf;
}

nlohmann::ordered_json jsonVec(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

nlohmann::ordered_json jsonRows(const Eigen::Matrix3d& m) {
  return {jsonVec(m.row(0).transpose()), jsonVec(m.row(1).transpose()), jsonVec(m.row(2).transpose())};
}

/// "a,b,c" -> count positive numbers; false if it is not that.
bool parseDimensions(const std::string& text, std::size_t count, std::vector<double>& out) {
  out.clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    double x = 0;
    if (!parseNumber(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start), x) || !(x > 0))
      return false;
    out.push_back(x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out.size() == count;
}

/// Adds the solid's volume, mass, centre, inertia and principal moments and axes to out.
void addSolid(nlohmann::ordered_json& out, const geometry::MassProperties& p) {
  nlohmann::ordered_json axes = nlohmann::ordered_json::array();
  for (int k = 0; k < 3; ++k) axes.push_back(jsonVec(p.principal_axes.col(k)));
  out["volume"] = p.volume;
  out["mass"] = p.mass;
  out["centre_of_mass"] = jsonVec(p.centre);
  out["inertia"] = jsonRows(p.inertia);
  out["principal_moments"] = jsonVec(p.principal_moments);
  out["principal_axes"] = axes;
}

void printSolid(const geometry::MassProperties& p, const char* axes) {
  std::printf("volume: %.10g m^3\n", p.volume);
  std::printf("mass: %.10g kg\n", p.mass);
  std::printf("centre of mass: %s m\n", vec(p.centre).c_str());
  std::printf("inertia about the centre of mass, %s axes [kg m^2]:\n", axes);
  for (int i = 0; i < 3; ++i) std::printf("  %s\n", vec(p.inertia.row(i).transpose()).c_str());
  std::printf("principal moments [kg m^2]: %s\n", vec(p.principal_moments).c_str());
  std::printf("principal axes (%s axes):\n", axes);
  for (int k = 0; k < 3; ++k) std::printf("  %d: %s\n", k + 1, vec(p.principal_axes.col(k)).c_str());
}

/// The closed forms of a primitive, printed like a mesh's, with the body it makes.
int primitiveMassProperties(const std::string& shape, const std::vector<double>& d, double density, bool json) {
  geometry::MassProperties p;
  nlohmann::ordered_json visual{{"shape", shape}};
  if (shape == "box") {
    p = geometry::boxMassProperties(Eigen::Vector3d(d[0], d[1], d[2]), density);
    visual["size"] = {d[0], d[1], d[2]};
  } else if (shape == "cylinder") {
    p = geometry::cylinderMassProperties(d[0], d[1], density);
    visual["radius"] = d[0];
    visual["length"] = d[1];
  } else {
    p = geometry::sphereMassProperties(d[0], density);
    visual["radius"] = d[0];
  }
  if (json) {
    nlohmann::ordered_json out = {{"shape", visual}, {"density", density}};
    addSolid(out, p);
    out["body"] = {{"mass", p.mass}, {"inertia", jsonRows(p.inertia)}, {"visual", visual}};
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  std::printf("shape: %s, density: %.10g kg/m^3 (homogeneous, centred at the origin; a cylinder along z)\n",
              visual.dump().c_str(), density);
  printSolid(p, "shape");
  std::printf("as a model body (body axes = shape axes, body frame at the centre of mass):\n");
  std::printf("  \"mass\": %.10g, \"inertia\": [%s, %s, %s],\n", p.mass, vec(p.inertia.row(0).transpose()).c_str(),
              vec(p.inertia.row(1).transpose()).c_str(), vec(p.inertia.row(2).transpose()).c_str());
  std::printf("  \"visual\": %s\n", visual.dump().c_str());
  return 0;
}

}  // namespace

int massPropertiesCommand(const std::vector<std::string>& args) {
  std::string input;
  geometry::MassPropertiesOptions options;
  bool densityGiven = false, json = false;
  std::string shape;  ///< a primitive instead of a mesh: box, cylinder, sphere
  std::vector<double> dimensions;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& o = args[i];
    const bool hasValue = i + 1 < args.size();
    double x = 0;
    if ((o == "--box" || o == "--cylinder" || o == "--sphere") && hasValue) {
      shape = o.substr(2);
      const std::size_t count = shape == "box" ? 3 : shape == "cylinder" ? 2 : 1;
      if (!parseDimensions(args[++i], count, dimensions))
        return fail(o + (shape == "box"    ? " needs the edge lengths A,B,C in m, e.g. 0.2,0.1,0.05"
                         : shape == "cylinder" ? " needs the radius and the length R,L in m, e.g. 0.02,0.1"
                                               : " needs the radius R in m, e.g. 0.05"));
    } else if (o == "--density" && hasValue) {
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
  if (input.empty() == shape.empty())
    return fail("mass-properties needs a mesh file (STL, OBJ, PLY, glTF, ...) or one of --box, --cylinder, --sphere");
  if (!densityGiven) return fail("mass-properties needs --density RHO in kg/m^3, e.g. --density 7850");
  if (!shape.empty()) return primitiveMassProperties(shape, dimensions, options.density, json);

  const geometry::MassPropertiesReport r = io::meshFileMassProperties(input, options);
  if (!r.ok) return fail(r.error);
  for (const std::string& w : r.warnings) std::fprintf(stderr, "flexim-cli: warning: %s\n", w.c_str());
  const geometry::MassProperties& p = r.properties;

  if (json) {
    nlohmann::ordered_json out = {{"file", input}, {"density", options.density}, {"scale", options.scale}};
    addSolid(out, p);
    out.update(nlohmann::ordered_json{
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
    });
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }

  std::printf("mesh: %s: %ld triangles, %ld vertices (%ld read, welded within %.3g file units), %d shell%s\n",
              input.c_str(), r.triangles, r.vertices, r.vertices_read, r.weld_distance, r.shells, r.shells == 1 ? "" : "s");
  std::printf("scale: %.10g (file units -> m), density: %.10g kg/m^3\n", options.scale, options.density);
  printSolid(p, "mesh");
  // what a rigid body of the model format needs, its axes those of the mesh
  std::printf("as a model body (body axes = mesh axes, body frame at the centre of mass):\n");
  std::printf("  \"mass\": %.10g, \"inertia\": [%s, %s, %s],\n", p.mass, vec(p.inertia.row(0).transpose()).c_str(),
              vec(p.inertia.row(1).transpose()).c_str(), vec(p.inertia.row(2).transpose()).c_str());
  std::printf("  \"visual\": {\"file\": \"%s\", \"scale\": %.10g, \"position\": %s}\n", input.c_str(), options.scale,
              vec(-p.centre).c_str());
  return 0;
}

}  // namespace flexim::cli
