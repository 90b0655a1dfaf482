// The static load cases of geometric stiffening (reduced_body.h, kInertiaLoadCases): unit
// inertia loads and unit interface loads on the free FE model, balanced by inertia relief.
#pragma once

#include "core/fe/active_dofs.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/reduced_body.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <string>
#include <vector>

namespace flexim::fe {

/// The loads of the stiffening load cases (3n x (kInertiaLoadCases + 6 * interfaces)), balanced
/// by inertia relief (see stiffeningLoadCases). False with a message when the mesh has no mass.
bool stiffeningLoads(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& M,
                     const std::vector<Interface>& interfaces, Eigen::MatrixXd& F, std::string& error);

/// Static displacements of the stiffening load cases (reduced_body.h), one column each
/// (3n x (kInertiaLoadCases + 6 * interfaces)). The loads are the consistent nodal loads of the
/// unit inertia fields (-M times the acceleration field, exact for these linear fields) and the
/// unit interface loads; each is balanced by the rigid-body inertia it causes (inertia relief:
/// f - M Phi_r (Phi_r^T M Phi_r)^-1 Phi_r^T f with the exact rigid modes Phi_r) and solved with a
/// statically determinate support of 6 dofs, which then carries nothing. Only the active dofs
/// take part (left-out dofs stay zero). False with a message when no support is found (all
/// nodes on a line) or the supported stiffness is singular (the mesh is not one piece). With
/// `constraints` (the mesh's linear constraints eliminated) the solve is on the independent dofs.
/// Only the lower triangles of K and M are read (they may be stored so).
bool stiffeningLoadCases(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& K,
                         const Eigen::SparseMatrix<double>& M, const ActiveDofs& active,
                         const std::vector<Interface>& interfaces, Eigen::MatrixXd& U, std::string& error,
                         const Elimination* constraints = nullptr);

/// Load factors of the inertia cases 0..11 for a frame with translational acceleration a,
/// angular acceleration alpha and angular velocity omega (all in FE axes), and gravity g (FE
/// axes): the factors of the unit cases whose weighted sum is the body's load per unit mass
/// g - a - alpha x x - omega x (omega x x).
Eigen::Matrix<double, kInertiaLoadCases, 1> inertiaLoadFactors(const Eigen::Vector3d& a, const Eigen::Vector3d& alpha,
                                                               const Eigen::Vector3d& omega, const Eigen::Vector3d& g);

/// The acceleration field of inertia case c per unit factor, f0 + B x (the load per unit mass is
/// minus it): translational f0 = e_i; angular B = e_i~; products B = d(omega~ omega~) / d(product).
void inertiaCaseField(int c, Eigen::Vector3d& f0, Eigen::Matrix3d& B);

/// The resultant of inertia case c's load (force, then moment about p), from the body's mass I1,
/// first moment I2 and inertia J0 about the FE origin (ModalInvariants, FE axes, undeformed).
Eigen::Matrix<double, 6, 1> inertiaCaseResultant(int c, double I1, const Eigen::Vector3d& I2, const Eigen::Matrix3d& J0,
                                                const Eigen::Vector3d& p);

/// The 12 inertia cases of `body` (which carries geometric_stiffness) for its first m modes,
/// each with the reaction that balances its load at interface `balance` folded in (index into
/// body.interfaces; -1 = none: the free body's inertia relief alone). For a body held at that
/// interface this is its stress state clamped there. FE axes, undeformed invariants.
std::array<Eigen::MatrixXd, kInertiaLoadCases> balancedInertiaCases(const ReducedBody& body, int m, int balance);

}  // namespace flexim::fe
