// The compiled system: coordinate blocks with their formulations, constraint and force elements
// (the contract in core/system/contract.h), marker index and the initial state. Built once from
// a ModelSpec before a run and immutable during it.
//
// Blocks, in this order: the bodies in the order of the body table (core/model/body_table.h:
// block b is the body of pose b), then the coordinates that joints own. Coordinates of block b
// start at q offset block(b).q0 / v offset block(b).v0.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/body_table.h"
#include "core/model/model.h"
#include "core/model/time_function.h"

#include "core/system/contacts.h"
#include "core/system/contract.h"
#include "core/system/formulations.h"

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace flexim {

/// One coordinate block of the System.
struct Block {
  std::string name;
  int q0 = 0, v0 = 0;
  std::unique_ptr<Formulation> formulation;
  int nq() const { return m_nq; }
  int nv() const { return m_nv; }
  bool hasFrame() const { return formulation->frameSize() > 0; }  ///< a body (with a pose), not a coordinate

 private:
  friend class System;
  int m_nq = 0, m_nv = 0;
};

class System {
 public:
  /// Compiles the model; errors name the item (e.g. "joints[1] 'pin': unknown marker 'B'").
  static std::unique_ptr<System> compile(const ModelSpec& model, Diagnostics& diag);

  int nblocks() const { return static_cast<int>(m_blocks.size()); }
  int nq() const { return m_nq; }
  int nv() const { return m_nv; }
  int nc() const { return m_rows; }  ///< total constraint rows

  const std::vector<Block>& blocks() const { return m_blocks; }
  /// The bodies: body pose p is block p.
  const BodyTable& bodyTable() const { return m_bodies; }
  const Block& block(int b) const { return m_blocks[b]; }
  /// Velocity coordinates of block b (6 for ground, so Jacobian blocks of ground have a size).
  int blockNv(int b) const { return b < 0 ? 6 : m_blocks[b].nv(); }
  /// The flexible body owning block b, or nullptr when block b is not a flexible body.
  const FlexibleBody* flexibleBody(int b) const;
  const std::deque<FlexibleBody>& flexibleBodies() const { return m_flex; }

  /// Per-row kind of the stacked constraint vector.
  const std::vector<RowKind>& rowKinds() const { return m_rowKinds; }
  bool hasUnilateralRows() const { return m_unilateral; }
  const std::vector<std::unique_ptr<ConstraintElement>>& constraints() const { return m_constraints; }
  const std::vector<int>& constraintOffsets() const { return m_offsets; }
  const std::vector<std::unique_ptr<ForceElement>>& forces() const { return m_forces; }
  /// Contact points (core/system/contacts.h); not constraint rows.
  const std::vector<std::unique_ptr<ContactElement>>& contacts() const { return m_contacts; }
  void addContact(std::unique_ptr<ContactElement> element) { m_contacts.push_back(std::move(element)); }
  /// Evaluates contact point k.
  void contact(int k, const std::vector<BodyKinematics>& kin, ContactPoint& out) const;
  const Vec3& gravity() const { return m_gravity; }
  const ModelSpec& model() const { return m_model; }

  /// Adds an element after compilation (tests, and units that build elements of their own).
  void addConstraint(std::unique_ptr<ConstraintElement> element);
  void addForce(std::unique_ptr<ForceElement> element) { m_forces.push_back(std::move(element)); }
  /// Adds a coordinate block; returns its index. `q`, `v` are its initial coordinates.
  int addBlock(std::string name, std::unique_ptr<Formulation> formulation, const VecX& q, const VecX& v);
  /// Adds the markers of the body of block `block` (-1: ground), named "bodyName.marker" in messages.
  void addMarkers(int block, const std::string& bodyName, const std::vector<MarkerSpec>& markers);
  /// The units of the flexible and the virtual bodies (core/system/body_units.h): their blocks,
  /// reference conditions and rigid-flexible joints (flexible_compile.cpp).
  void compileFlexibleBodies(const ModelSpec& model, Diagnostics& diag);
  void compileVirtualBodies(const ModelSpec& model, Diagnostics& diag);

  /// The coordinate block a model joint owns (its angle or translation), -1 when it has none.
  int jointCoordinate(int joint) const {
    const auto it = m_jointCoordinates.find(joint);
    return it == m_jointCoordinates.end() ? -1 : it->second;
  }
  void setJointCoordinate(int joint, int block) { m_jointCoordinates[joint] = block; }

  /// Marker lookup by body name + marker name; nullptr when absent.
  const MarkerRef* marker(const std::string& body, const std::string& name) const;
  int bodyIndex(const std::string& name) const;  ///< -1 for ground, -2 when unknown

  /// Initial state from the model (before assembly).
  State initialState() const { return m_initial; }
  /// Kinematics of every block; index 0 is ground, block b is at b + 1.
  void kinematics(const State& s, std::vector<BodyKinematics>& kin) const;
  BodyKinematics bodyKinematics(const VecX& q, const VecX& v, int b) const;
  /// withAxes = false leaves `axes` unset (point-only users).
  MarkerKinematics markerKinematics(const std::vector<BodyKinematics>& kin, const MarkerRef& m, bool withAxes = true) const;

  /// Generalized forces of the formulations and the force elements (size nv).
  void forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const;
  /// Mass matrix of block b (nv_b x nv_b).
  void massMatrix(const std::vector<BodyKinematics>& kin, int b, MatX& M) const;
  /// Evaluates every constraint element into per-element rows.
  void constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const;
  /// Evaluates constraint element c alone.
  void constraint(int c, const std::vector<BodyKinematics>& kin, double t, ConstraintRows& out) const;
  /// Evaluates force element e alone (out sized for its blocks).
  void force(int e, const std::vector<BodyKinematics>& kin, double t, ForceRows& out) const;
  /// Total kinetic and potential energy (potential: gravity, springs and strain).
  double kineticEnergy(const std::vector<BodyKinematics>& kin) const;
  double potentialEnergy(const std::vector<BodyKinematics>& kin) const;
  /// The potential energy in disjoint parts [J]: of gravity (the bodies' own potential less their
  /// strain), of the force elements (springs, bushings), and the flexible bodies' strain; their
  /// sum is potentialEnergy().
  struct PotentialParts {
    double gravity = 0, spring = 0, strain = 0;
  };
  PotentialParts potentialParts(const std::vector<BodyKinematics>& kin) const;
  double strainEnergy(const std::vector<BodyKinematics>& kin) const;

  /// Moves q by a tangent increment dx (per block, Formulation::retract).
  void retract(VecX& q, const VecX& dx) const;
  /// Tangent difference q1 "minus" q0 (inverse of retract, per block).
  VecX tangentDifference(const VecX& q1, const VecX& q0) const;
  /// Post-step update of every block (Euler-parameter normalisation).
  void normalize(VecX& q) const;
  /// q_dot = B(q) v over all blocks.
  void coordinateRate(const VecX& q, const VecX& v, Eigen::Ref<VecX> qdot) const;
  /// Pose of block b's user frame (for flexible bodies the FE frame) from q.
  void bodyPose(const VecX& q, int b, Vec3& position, Quat& orientation) const;
  /// The FE node ids k, m, n each virtual body's rigid–flexible joint rides on, by virtual-body
  /// name (none for one at an interface's reference point), for the front ends to show.
  const std::unordered_map<std::string, std::array<int, 3>>& virtualBodyNodes() const { return m_virtualNodes; }

 private:
  ModelSpec m_model;
  BodyTable m_bodies;
  std::vector<Block> m_blocks;
  std::deque<FlexibleBody> m_flex;  ///< stable addresses: formulations refer to them
  int m_nq = 0, m_nv = 0;
  std::vector<RowKind> m_rowKinds;
  bool m_unilateral = false;
  State m_initial;
  /// Velocity sizes of the touched blocks (valid until the next call on this thread).
  const std::vector<int>& blockSizes(const std::vector<int>& blocks) const;
  std::vector<std::vector<MarkerRef>> m_markers;  ///< [body+1][marker], index 0 = ground
  std::unordered_map<std::string, int> m_bodyIndex;                 ///< name -> block index
  std::vector<std::unordered_map<std::string, int>> m_markerIndex;  ///< [body+1]: name -> marker
  std::vector<std::unique_ptr<ConstraintElement>> m_constraints;
  std::vector<int> m_offsets;  ///< first row of each constraint element
  int m_rows = 0;
  std::vector<std::unique_ptr<ForceElement>> m_forces;
  std::vector<std::unique_ptr<ContactElement>> m_contacts;
  std::unordered_map<int, int> m_jointCoordinates;  ///< model joint -> its coordinate block
  Vec3 m_gravity = Vec3::Zero();
  std::unordered_map<std::string, std::array<int, 3>> m_virtualNodes;
};

/// out = G v + Phi_t of constraint element c (rows evaluated by System::constraints).
void constraintVelocity(const System& sys, int c, const ConstraintRows& rows, const VecX& v, Eigen::Ref<VecX> out);
/// out (size nv) += G^T lambda over all constraint elements.
void addConstraintForces(const System& sys, const std::vector<ConstraintRows>& rows, const VecX& lambda, VecX& out);

}  // namespace flexim
