// Constraint elements of flexible bodies (after the floating-frame solid-element paper, Multibody Syst. Dyn.
// 2023, doi:10.1007/s11044-023-09875-y): the reference conditions that define the
// floating frame (mean-axis, principal-axis, or attached to an interface) and the rigid-flexible
// joint between a virtual body and three (pseudo-)nodes. Each wraps a standalone evaluator
// (reference_conditions.h, rigid_flexible_joint.h) into the System's ConstraintElement interface.
#pragma once

#include "core/system/reference_conditions.h"
#include "core/system/rigid_flexible_joint.h"
#include "core/system/system.h"

namespace flexim {

/// Mean-axis (rows 3-5 velocity level only) or principal-axis conditions on one flexible body.
std::unique_ptr<ConstraintElement> makeReferenceConditions(ReferenceFrame kind, int body,
                                                           const fe::ModalInvariants& inv);

/// Frame attached to an interface: the interface's rigid motion u, theta (6 x m rows of
/// `interfaceModes`, translation then rotation of its reference point) is held at zero.
/// Linear and holonomic: Phi = [Phi_u; Phi_theta] w.
std::unique_ptr<ConstraintElement> makeInterfaceFrame(int body, const MatX& interfaceModes);

/// Rigid-flexible joint between flexible body `flexBody` and virtual body `virtualBody`.
std::unique_ptr<ConstraintElement> makeRigidFlexibleJoint(int flexBody, int virtualBody, RigidFlexibleJoint joint);

/// Point force on FE node index `node` of a flexible body, scaled by f(t).
/// vector: internal body axes when bodyAxes (it turns with the body), else the global vector
/// expressed in the internal frame (R^T F).
std::unique_ptr<ForceElement> makeNodePointForce(const FlexibleBody& body, int node, const Vec3& vector, bool bodyAxes,
                                                 const TimeFunctionSpec& f);

/// Least-squares rigid motion [u; theta] of the points x (body frame) about p per mode:
/// Phi_points ~= [I, -(x - p)~] [u; theta]. Exact when the points move rigidly (rigid interface).
/// Returns 6 x m.
MatX interfaceRigidModes(const std::vector<Vec3>& x, const MatX& pointModes, const Vec3& p);

}  // namespace flexim
