#include "core/model/model.h"

#include "core/model/description.h"
#include "core/model/sensor_quantities.h"

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

using TF = TimeFunctionSpec::Type;
constexpr std::array<std::pair<TF, const char*>, 6> kFunctionNames{{
    {TF::Constant, "constant"},
    {TF::ConstantSpeed, "constant_speed"},
    {TF::Ramp, "ramp"},
    {TF::SmoothStep, "smooth_step"},
    {TF::Harmonic, "harmonic"},
    {TF::Table, "table"},
}};
constexpr std::array<std::pair<ReferenceFrame, const char*>, 3> kReferenceNames{{
    {ReferenceFrame::MeanAxis, "mean_axis"},
    {ReferenceFrame::PrincipalAxis, "principal_axis"},
    {ReferenceFrame::Interface, "interface"},
}};
constexpr std::array<std::pair<IntegratorType, const char*>, 7> kIntegratorNames{{
    {IntegratorType::Ida, "ida"},
    {IntegratorType::GeneralizedAlpha, "gen-alpha"},
    {IntegratorType::MixedGenAlpha, "mixed-gen-alpha"},
    {IntegratorType::MixedBathe, "mixed-bathe"},
    {IntegratorType::MixedEdAlpha, "mixed-ed-alpha"},
    {IntegratorType::Moreau, "moreau"},
    {IntegratorType::Hets, "hets"},
}};
constexpr std::array<std::pair<ProxScaling, const char*>, 2> kProxScalingNames{{
    {ProxScaling::Constant, "constant"},
    {ProxScaling::PerContact, "per_contact"},
}};
constexpr std::array<std::pair<RunStart, const char*>, 2> kRunStartNames{{
    {RunStart::InitialConditions, "initial_conditions"},
    {RunStart::StaticEquilibrium, "static_equilibrium"},
}};
constexpr std::array<std::pair<StepControl, const char*>, 2> kStepControlNames{{
    {StepControl::Fixed, "fixed"},
    {StepControl::Adaptive, "adaptive"},
}};
constexpr std::array<std::pair<DriverSpec::Coordinate, const char*>, 2> kCoordinateNames{{
    {DriverSpec::Coordinate::Rotation, "rotation"},
    {DriverSpec::Coordinate::Translation, "translation"},
}};
constexpr std::array<std::pair<ForceSpec::Frame, const char*>, 2> kForceFrameNames{{
    {ForceSpec::Frame::Global, "global"},
    {ForceSpec::Frame::Marker, "marker"},
}};
constexpr std::array<std::pair<SensorSpec::Frame, const char*>, 2> kSensorFrameNames{{
    {SensorSpec::Frame::Global, "global"},
    {SensorSpec::Frame::Body, "body"},
}};
constexpr std::array<std::pair<SensorSpec::LengthUnit, const char*>, 2> kLengthUnitNames{{
    {SensorSpec::LengthUnit::Metre, "m"},
    {SensorSpec::LengthUnit::Millimetre, "mm"},
}};
constexpr std::array<std::pair<SensorSpec::AngleUnit, const char*>, 2> kAngleUnitNames{{
    {SensorSpec::AngleUnit::Radian, "rad"},
    {SensorSpec::AngleUnit::Degree, "deg"},
}};
constexpr std::array<std::pair<VisualSpec::Shape, const char*>, 4> kShapeNames{{
    {VisualSpec::Shape::Mesh, "mesh"},
    {VisualSpec::Shape::Box, "box"},
    {VisualSpec::Shape::Cylinder, "cylinder"},
    {VisualSpec::Shape::Sphere, "sphere"},
}};
}  // namespace

const char* toString(TimeFunctionSpec::Type t) { return nameOf(kFunctionNames, t); }
const char* toString(IntegratorType t) { return nameOf(kIntegratorNames, t); }
const char* toString(StepControl t) { return nameOf(kStepControlNames, t); }
const char* toString(ReferenceFrame t) { return nameOf(kReferenceNames, t); }
const char* toString(DriverSpec::Coordinate c) { return nameOf(kCoordinateNames, c); }
const char* toString(ForceSpec::Frame f) { return nameOf(kForceFrameNames, f); }
const char* toString(SensorSpec::Frame f) { return nameOf(kSensorFrameNames, f); }
const char* toString(SensorSpec::LengthUnit u) { return nameOf(kLengthUnitNames, u); }
const char* toString(SensorSpec::AngleUnit u) { return nameOf(kAngleUnitNames, u); }
const char* toString(VisualSpec::Shape s) { return nameOf(kShapeNames, s); }
bool fromString(const std::string& s, DriverSpec::Coordinate& out) { return valueOf(kCoordinateNames, s, out); }
bool fromString(const std::string& s, ForceSpec::Frame& out) { return valueOf(kForceFrameNames, s, out); }
bool fromString(const std::string& s, SensorSpec::Frame& out) { return valueOf(kSensorFrameNames, s, out); }
bool fromString(const std::string& s, SensorSpec::LengthUnit& out) { return valueOf(kLengthUnitNames, s, out); }
bool fromString(const std::string& s, SensorSpec::AngleUnit& out) { return valueOf(kAngleUnitNames, s, out); }
bool fromString(const std::string& s, VisualSpec::Shape& out) { return valueOf(kShapeNames, s, out); }
bool fromString(const std::string& s, TimeFunctionSpec::Type& out) { return valueOf(kFunctionNames, s, out); }
bool fromString(const std::string& s, IntegratorType& out) { return valueOf(kIntegratorNames, s, out); }
std::string integratorNames(bool contacts) {
  std::vector<const char*> names;
  for (const auto& [type, name] : kIntegratorNames)
    if (!contacts || isMixedTimestepping(type)) names.push_back(name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}
const char* toString(ProxScaling t) { return nameOf(kProxScalingNames, t); }
const char* toString(RunStart t) { return nameOf(kRunStartNames, t); }
bool fromString(const std::string& s, RunStart& out) { return valueOf(kRunStartNames, s, out); }
bool fromString(const std::string& s, ProxScaling& out) { return valueOf(kProxScalingNames, s, out); }
bool fromString(const std::string& s, StepControl& out) { return valueOf(kStepControlNames, s, out); }
bool fromString(const std::string& s, ReferenceFrame& out) { return valueOf(kReferenceNames, s, out); }

const char* toString(const JointType& t) { return t.key().c_str(); }

bool fromString(const std::string& s, JointType& out) {
  if (!findJointKind(s)) return false;
  out = JointType(s);
  return true;
}

const char* toString(const SensorType& t) { return t.key().c_str(); }

bool fromString(const std::string& s, SensorType& out) {
  if (!findSensorKind(s)) return false;
  out = SensorType(s);
  return true;
}

const char* toString(const ForceType& t) { return t.key().c_str(); }

bool fromString(const std::string& s, ForceType& out) {
  if (!findForceKind(s)) return false;
  out = ForceType(s);
  return true;
}

const char* toString(const ContactType& t) { return t.key().c_str(); }

bool fromString(const std::string& s, ContactType& out) {
  if (!findContactKind(s)) return false;
  out = ContactType(s);
  return true;
}

int constraintCount(const JointType& t) {
  const JointKindDescription* kind = findJointKind(t.key());
  return kind ? kind->constraints : 0;
}

}  // namespace flexim
