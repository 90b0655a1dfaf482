#include "core/model/model.h"

#include <array>
#include <utility>

namespace flexim {

namespace {
template <class E, std::size_t N>
const char* nameOf(const std::array<std::pair<E, const char*>, N>& table, E e) {
  for (const auto& [v, n] : table)
    if (v == e) return n;
  return "?";
}
template <class E, std::size_t N>
bool valueOf(const std::array<std::pair<E, const char*>, N>& table, const std::string& s, E& out) {
  for (const auto& [v, n] : table)
    if (s == n) {
      out = v;
      return true;
    }
  return false;
}

constexpr std::array<std::pair<JointType, const char*>, 7> kJointNames{{
    {JointType::Fixed, "fixed"},
    {JointType::Revolute, "revolute"},
    {JointType::Prismatic, "prismatic"},
    {JointType::Cylindrical, "cylindrical"},
    {JointType::Spherical, "spherical"},
    {JointType::Universal, "universal"},
    {JointType::Planar, "planar"},
}};
using TF = TimeFunctionSpec::Type;
constexpr std::array<std::pair<TF, const char*>, 6> kFunctionNames{{
    {TF::Constant, "constant"},
    {TF::ConstantSpeed, "constant_speed"},
    {TF::Ramp, "ramp"},
    {TF::SmoothStep, "smooth_step"},
    {TF::Harmonic, "harmonic"},
    {TF::Table, "table"},
}};
using FT = ForceSpec::Type;
constexpr std::array<std::pair<FT, const char*>, 4> kForceNames{{
    {FT::PointForce, "point_force"},
    {FT::PointTorque, "point_torque"},
    {FT::SpringDamper, "spring_damper"},
    {FT::Bushing, "bushing"},
}};
using ST = SensorSpec::Type;
constexpr std::array<std::pair<ST, const char*>, 6> kSensorNames{{
    {ST::Marker, "marker"},
    {ST::Joint, "joint"},
    {ST::Energy, "energy"},
    {ST::Node, "node"},
    {ST::Deflection, "deflection"},
    {ST::Modal, "modal"},
}};
constexpr std::array<std::pair<ReferenceFrame, const char*>, 3> kReferenceNames{{
    {ReferenceFrame::MeanAxis, "mean_axis"},
    {ReferenceFrame::PrincipalAxis, "principal_axis"},
    {ReferenceFrame::Interface, "interface"},
}};
constexpr std::array<std::pair<IntegratorType, const char*>, 2> kIntegratorNames{{
    {IntegratorType::Ida, "ida"},
    {IntegratorType::GeneralizedAlpha, "gen-alpha"},
}};
}  // namespace

const char* toString(JointType t) { return nameOf(kJointNames, t); }
const char* toString(TimeFunctionSpec::Type t) { return nameOf(kFunctionNames, t); }
const char* toString(ForceSpec::Type t) { return nameOf(kForceNames, t); }
const char* toString(SensorSpec::Type t) { return nameOf(kSensorNames, t); }
const char* toString(IntegratorType t) { return nameOf(kIntegratorNames, t); }
const char* toString(ReferenceFrame t) { return nameOf(kReferenceNames, t); }
bool fromString(const std::string& s, JointType& out) { return valueOf(kJointNames, s, out); }
bool fromString(const std::string& s, TimeFunctionSpec::Type& out) { return valueOf(kFunctionNames, s, out); }
bool fromString(const std::string& s, ForceSpec::Type& out) { return valueOf(kForceNames, s, out); }
bool fromString(const std::string& s, SensorSpec::Type& out) { return valueOf(kSensorNames, s, out); }
bool fromString(const std::string& s, IntegratorType& out) { return valueOf(kIntegratorNames, s, out); }
bool fromString(const std::string& s, ReferenceFrame& out) { return valueOf(kReferenceNames, s, out); }

int constraintCount(JointType t) {
  switch (t) {
    case JointType::Fixed: return 6;
    case JointType::Revolute: return 5;
    case JointType::Prismatic: return 5;
    case JointType::Cylindrical: return 4;
    case JointType::Spherical: return 3;
    case JointType::Universal: return 4;
    case JointType::Planar: return 3;
  }
  return 0;
}

}  // namespace flexim
