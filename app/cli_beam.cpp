// flexim-cli beam: meshes a straight or curved member into beam elements and adds its nodes and
// elements to a model file (meshBeamMember, core/system/beam_elements.h), optionally clamped to
// the ground at its start and held in its plane.
#include "app/cli_common.h"
#include "core/base/cardan_angles.h"
#include "core/system/beam_elements.h"
#include "io/model_json.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <numbers>

namespace flexim::cli {

namespace {

/// "a,b,c" -> three numbers.
bool parseVector(const std::string& text, Vec3& out) {
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = text.find(',', start);
    if ((i < 2) == (comma == std::string::npos)) return false;
    double x = 0;
    if (!parseNumber(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start), x)) return false;
    out(i) = x;
    start = comma + 1;
  }
  return true;
}

/// An element's fields given as a JSON object, read as the model reader reads a beam element
/// (defaults, limits, messages naming the key).
bool parseElement(const std::string& json, BeamElementSpec& out) {
  nlohmann::ordered_json element;
  try {
    element = nlohmann::ordered_json::parse(json);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "--element: %s\n", e.what());
    return false;
  }
  if (!element.is_object()) return false;
  element["name"] = "e";
  element["node1"] = "a";
  element["node2"] = "b";
  nlohmann::ordered_json model = {{"schema_version", 1}};
  model["beam_nodes"] = {{{"name", "a"}}, {{"name", "b"}, {"position", {1, 0, 0}}}};
  model["beam_elements"] = nlohmann::ordered_json::array({element});
  ModelSpec m;
  Diagnostics diag;
  const bool ok = io::loadModelString(model.dump(), m, diag);
  printDiagnostics(diag);
  if (!ok || m.beam_elements.size() != 1) return false;
  out = m.beam_elements.front();
  return true;
}

}  // namespace

int beamCommand(const std::vector<std::string>& args) {
  std::string modelPath, outPath, like, elementJson;
  BeamMemberSpec member;
  member.name = "beam";
  Vec3 angles = Vec3::Zero(), curvature = Vec3::Zero();
  double radius = 0, sweep = 0;
  bool clamp = false, planar = false, haveCurvature = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool flag = a == "--clamp" || a == "--planar";
    if (!flag && a.rfind("--", 0) == 0 && i + 1 >= args.size()) return fail(a + " needs a value");
    if (a == "--out") outPath = args[++i];
    else if (a == "--name") member.name = args[++i];
    else if (a == "--like") like = args[++i];
    else if (a == "--element") elementJson = args[++i];
    else if (a == "--clamp") clamp = true;
    else if (a == "--planar") planar = true;
    else if (a == "--length") {
      if (!parseNumber(args[++i], member.length) || !(member.length > 0)) return fail("--length: a positive length in m");
    } else if (a == "--elements") {
      double n = 0;
      if (!parseNumber(args[++i], n) || n < 1 || n != std::floor(n) || n > 100000)
        return fail("--elements: a whole number from 1 to 100000");
      member.elements = int(n);
    } else if (a == "--start") {
      if (!parseVector(args[++i], member.start)) return fail("--start: x,y,z in m");
    } else if (a == "--angles-xyz-deg") {
      if (!parseVector(args[++i], angles)) return fail("--angles-xyz-deg: three Cardan angles in degrees");
    } else if (a == "--curvature") {
      if (!parseVector(args[++i], curvature)) return fail("--curvature: kx,ky,kz in 1/m");
      haveCurvature = true;
    } else if (a == "--arc") {
      // RADIUS,SWEEP_DEG: bent about the section's z axis (in its x-y plane)
      const std::string& v = args[++i];
      const std::size_t comma = v.find(',');
      if (comma == std::string::npos || !parseNumber(v.substr(0, comma), radius) ||
          !parseNumber(v.substr(comma + 1), sweep) || !(radius > 0) || sweep == 0)
        return fail("--arc: RADIUS,SWEEP_DEG (radius in m, the sweep in degrees; negative turns the other way)");
    } else if (const int error = takeModelArgument(a, modelPath)) {
      return error;
    }
  }
  if (modelPath.empty()) return fail("beam needs a model file");
  ModelSpec model;
  if (!loadModel(modelPath, model)) return fail("cannot load model '" + modelPath + "'");

  if (!like.empty()) {
    const BeamElementSpec* found = nullptr;
    for (const BeamElementSpec& e : model.beam_elements)
      if (e.name == like) found = &e;
    if (!found) return fail("--like: no beam element '" + like + "' in the model");
    member.element = *found;
  } else if (!elementJson.empty()) {
    if (!parseElement(elementJson, member.element)) return fail("--element: not a beam element's fields");
  } else {
    return fail("give the section and material: --element '{\"youngs_modulus\": ..., \"area\": ..., \"iy\": ..., "
                "\"iz\": ...}' or --like ELEMENT");
  }
  if (radius > 0) bendBeamMember(member, radius, sweep);
  else if (haveCurvature) member.element.curvature = curvature;
  member.orientation = fromXyzAngles(angles * std::numbers::pi / 180);
  member.clamp = clamp;
  member.planar = planar;
  const std::size_t firstNode = model.beam_nodes.size();
  if (const std::string why = addBeamMember(model, member); !why.empty()) return fail(why);
  const std::string tip = model.beam_nodes.back().name;
  const std::string target = outPath.empty() ? modelPath : outPath;
  std::string error;
  if (!io::saveModelFile(model, target, &error)) return fail(error);
  std::printf("%s: %d elements, nodes %s … %s (markers 'm'), %.6g m%s%s -> %s\n", member.name.c_str(),
              member.elements, model.beam_nodes[firstNode].name.c_str(), tip.c_str(), member.length,
              clamp ? ", clamped at its start" : "", planar ? ", held in its plane" : "", target.c_str());
  return 0;
}

}  // namespace flexim::cli
