// The registered sensor kinds, in the order the docs and messages list them. A new kind adds its
// description here and its unit in core/run (core/run/sensor_probes.h); nothing else names it.
#include "core/model/sensor_quantities.h"

namespace flexim {

std::vector<SensorKindDescription> registeredSensorKinds() {
  using Q = SensorQuantity;
  const std::vector<const char*> xyz{"x", "y", "z"}, value{"value"};
  std::vector<SensorKindDescription> kinds;

  SensorKindDescription marker{"marker", "a marker's motion: position, orientation and their rates", {}};
  marker.quantities = {{"position", Q::Position, "m", xyz, "marker origin"},
                       {"orientation", Q::Orientation, "-", {"w", "x", "y", "z"},
                        "unit quaternion of the marker axes → global axes, sign chosen with w ≥ 0 (not affected by `frame`)"},
                       {"velocity", Q::Velocity, "m/s", xyz, "velocity of the marker origin"},
                       {"angular_velocity", Q::AngularVelocity, "rad/s", xyz, "of the body carrying the marker"},
                       {"acceleration", Q::Acceleration, "m/s^2", xyz, "of the marker origin"},
                       {"angular_acceleration", Q::AngularAcceleration, "rad/s^2", xyz, "of the body"}};
  marker.marker = marker.frame = marker.components = marker.lengths = marker.angles = true;
  kinds.push_back(marker);

  SensorKindDescription joint{"joint", "a joint's coordinates and its reaction", {}};
  joint.quantities = {{"coordinate", Q::Coordinate, "", {},
                       "joint coordinate of [§7](#7-joints); rotations are unwrapped (continuous over full turns)",
                       "rotation and/or translation", "rad, m"},
                      {"velocity", Q::CoordinateRate, "", {}, "its rate", "rotation and/or translation", "rad/s, m/s"},
                      {"reaction_force", Q::ReactionForce, "N", xyz,
                       "force exerted by body1 on body2 through the joint (and any driver on it)"},
                      {"reaction_torque", Q::ReactionTorque, "N m", xyz, "torque of that reaction about marker2's origin"}};
  joint.frame = joint.components = joint.lengths = joint.angles = true;
  kinds.push_back(joint);

  SensorKindDescription energy{"energy", "the model's energies (kinetic, gravity, springs, strain)", {}};
  energy.quantities = {
      {"kinetic", Q::Kinetic, "J", value, "total kinetic energy"},
      {"gravity", Q::Gravity, "J", value,
       "potential of gravity, −m g·r per body (r its centre of mass, deformation included; zero at the global origin)"},
      {"spring", Q::Spring, "J", value, "potential of the springs and bushings"},
      {"strain", Q::Strain, "J", value, "elastic strain energy of the flexible bodies"},
      {"potential", Q::Potential, "J", value, "gravity + spring + strain"},
      {"total", Q::Total, "J", value, "kinetic + gravity + spring + strain"}};
  kinds.push_back(energy);

  SensorKindDescription node{"node", "an FE node of a flexible body", {}};
  node.quantities = {{"position", Q::NodePosition, "m", xyz, "the node's deformed position"},
                     {"velocity", Q::NodeVelocity, "m/s", xyz, "of the node"},
                     {"acceleration", Q::NodeAcceleration, "m/s^2", xyz, "of the node"},
                     {"displacement", Q::NodeDisplacement, "m", xyz,
                      "elastic displacement from the undeformed position, in the flexible body's axes (not affected by "
                      "`frame`)"}};
  node.frame = node.components = node.lengths = true;
  kinds.push_back(node);

  SensorKindDescription deflection{"deflection", "an FE node's offset from the chord through two others", {}};
  deflection.quantities = {{"deflection", Q::Deflection, "m", xyz,
                            "the node's deflection from the chord through nodes a and b (the chord's own motion "
                            "removed), in the flexible body's axes"},
                           {"normalized", Q::NormalizedDeflection, "-", xyz, "`deflection` divided by the chord length"}};
  deflection.components = deflection.lengths = true;
  kinds.push_back(deflection);

  SensorKindDescription modal{"modal", "a flexible body's modal coordinates", {}};
  modal.quantities = {{"coordinate", Q::ModalCoordinate, "", {}, "modal coordinates (of mass-normalised modes)",
                       "one per mode used", "kg^0.5 m"},
                      {"velocity", Q::ModalVelocity, "", {}, "their rates", "one per mode used", "kg^0.5 m/s"}};
  kinds.push_back(modal);

  SensorKindDescription stress{"stress", "the stress at an FE node of a flexible body", {}};
  stress.quantities = {{"stress", Q::Stress, "Pa", {"xx", "yy", "zz", "xy", "yz", "zx"},
                        "the node's stress tensor in the flexible body's FE axes: σ = S w, the stress modes of the "
                        "`.frb` times the modal coordinates"},
                       {"von_mises", Q::VonMises, "Pa", value, "von Mises equivalent stress √(3 J₂)"},
                       {"max_principal", Q::MaxPrincipal, "Pa", value, "largest principal stress σ₁"},
                       {"min_principal", Q::MinPrincipal, "Pa", value, "smallest principal stress σ₃"}};
  stress.components = true;
  kinds.push_back(stress);

  SensorKindDescription relative{
      "relative",
      "the motion of marker2 relative to the reference marker (`body`.`marker`): their distance, the vector between "
      "them, its rate, the angle between their axes and the difference of their angular velocities",
      {}};
  relative.quantities = {
      {"distance", Q::OfProbe, "m", value, "distance between the two marker origins"},
      {"position", Q::OfProbe, "m", xyz, "marker2's origin less the reference marker's"},
      {"velocity", Q::OfProbe, "m/s", xyz, "marker2's origin velocity less the reference marker's"},
      {"angle", Q::OfProbe, "rad", value, "angle of the rotation from the reference marker's axes to marker2's, in [0, π]"},
      {"angular_velocity", Q::OfProbe, "rad/s", xyz, "angular velocity of marker2's body less the reference marker's"}};
  relative.marker = relative.secondMarker = relative.frame = relative.components = relative.lengths = relative.angles =
      true;
  kinds.push_back(relative);

  SensorKindDescription beam{"beam",
                             "a beam element's strains and stress resultants, in its section axes (x along the beam)",
                             {}};
  beam.quantities = {
      {"axial_strain", Q::OfProbe, "-", value, "the axial strain ε (constant along the element)"},
      {"force", Q::OfProbe, "N", xyz, "axial force N and shear forces Q_y, Q_z"},
      {"moment_start", Q::OfProbe, "N m", xyz, "torque T and bending moments M_y, M_z at node1"},
      {"moment_end", Q::OfProbe, "N m", xyz, "torque T and bending moments M_y, M_z at node2"},
      {"curvature_start", Q::OfProbe, "1/m", xyz, "torsion rate and curvatures κ_y, κ_z at node1"},
      {"curvature_end", Q::OfProbe, "1/m", xyz, "torsion rate and curvatures κ_y, κ_z at node2"}};
  beam.element = beam.components = true;
  kinds.push_back(beam);
  return kinds;
}

}  // namespace flexim
