// Linear-elastic stress recovery of solid meshes (fe_model.h): nodal stresses of displacement
// fields (static solutions, mode shapes), von Mises and principal stresses.
//
// Nodal stresses are computed as CalculiX 2.20 writes them to the .frd (extrapolate.f): the
// stress is evaluated at integration points, extrapolated to the element's nodes with a
// lower-order field fitted to the point values, and the element values at a node are averaged
// (plain mean over the elements sharing it, no weighting). Per element type:
//   type            points                 fitted field (evaluated at the nodes)
//   C3D4            1 (centroid)           constant
//   C3D10           4 (degree 2 rule)      linear (C3D4 functions): corners, mid-edge = mean of its corners
//   C3D8, C3D8I     2x2x2                  trilinear (C3D8 functions)
//   C3D8R           2x2x2                  trilinear (ccx: 1 point, constant; see below)
//   C3D20R          2x2x2                  trilinear (C3D8 functions): mid-edge = mean of its corners
//   C3D20           3x3x3                  least-squares fit of the 20 serendipity functions
//   C3D6            2 (centroid x 2)       linear in zeta (ccx differs, see below)
//   C3D15           3 x 3 (triangle x 3)   least-squares fit of the C3D6 functions
//   C3D5            collapsed 2x2x2        least-squares fit of the C3D5 functions
//   C3D13           collapsed 3x3x3        least-squares fit of the C3D5 functions
// The points are the stiffness rule's (element_library.h), which for every type but C3D8R are
// CalculiX's. ccx's tabulated extrapolation matrices (a4, a8, a9, a27 of extrapolate.f) are these
// fits rounded to 4-5 digits; here they are computed exactly, so a constant stress comes out
// exact. Two deliberate differences from ccx:
//  * C3D8R: ccx integrates it with one point and writes that (centroid) stress to all 8 nodes;
//    our C3D8R stiffness is fully integrated (element_library.h), so its stresses are recovered
//    like C3D8's (trilinear from 2x2x2), which keeps the bending stress at the surface;
//  * C3D6: ccx's a2 weights the two points 1.1455 / -0.1455, which would be the linear
//    extrapolation from zeta = +-sqrt(3/5), but its points are at +-1/sqrt(3) (where the
//    weights are 1.3660 / -0.3660): ccx under-extrapolates a stress that varies along the prism
//    axis. Here the extrapolation is the exact linear one.
// Incompatible modes (C3D8I): the condensed bubble amplitudes are recovered per element
// (element_library.h, incompatibleModeRecovery) and their strains added at the points, as
// CalculiX does with its bubble dofs (identical on undistorted bricks; on distorted ones our
// element has the det J0 / det J factor that ccx omits).
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/assembly.h"
#include "core/fe/fe_model.h"

#include <Eigen/Core>

#include <array>
#include <vector>

namespace flexim::fe {

/// Voigt order used everywhere: xx, yy, zz, xy, yz, zx [Pa].
using Stress6 = Eigen::Matrix<double, 6, 1>;

/// Linear-elastic nodal stresses of displacement fields: for each column of `displacements`
/// (3n x m, node-major: row 3*node+component, as ReducedBody::modes), the stress at every node
/// (6n x m, node-major: row 6*node+component). Element stresses are evaluated at the element's
/// integration points, extrapolated to its nodes, and averaged over the elements that share a node
/// (like CalculiX's nodal stresses in the .frd; see above). Nodes in no element get zero rows.
/// Materials as the assembly takes them (AssemblyOptions::override_material, else
/// Element::material; only E and nu are used). Errors (missing or invalid material, node index
/// out of range, non-positive Jacobian determinant, wrong number of rows) go to `diag`; the
/// result is then false and `stresses` empty. Cost O(elements * m); all columns of an element
/// are processed at once.
bool nodalStresses(const FeModel& mesh, const AssemblyOptions& options, const Eigen::MatrixXd& displacements,
                   Eigen::MatrixXd& stresses, Diagnostics& diag);

/// Modal geometric (initial-stress) stiffness of the stress states of displacement fields: for
/// each column l of `displacements` (3n x L), out[l] = Phi^T K_G(sigma_l) Phi (m x m, symmetric)
/// with Phi = `modes` (3n x m) and K_G the initial-stress stiffness of the linear stresses sigma_l
/// at the integration points: K_G(a i, b j) = delta_ij * integral of grad N_a . sigma grad N_b dV.
/// The stresses include C3D8I's incompatible modes; the mode gradients use the nodal shape
/// functions only. Errors as nodalStresses. Cost O(elements * points * L * m^2).
bool modalGeometricStiffness(const FeModel& mesh, const AssemblyOptions& options, const Eigen::MatrixXd& displacements,
                             const Eigen::MatrixXd& modes, std::vector<Eigen::MatrixXd>& out, Diagnostics& diag);

/// The elastic constants (E, nu) at every node: the mean over the elements that share it, with
/// the materials as nodalStresses takes them; nodes in no element get (0, 0). Errors as there.
bool nodalElasticity(const FeModel& mesh, const AssemblyOptions& options, std::vector<std::array<double, 2>>& out,
                     Diagnostics& diag);

/// Strain (tensor components, Voigt order xx, yy, zz, xy, yz, zx; shears are half the
/// engineering ones) of a stress by isotropic linear elasticity with E and nu.
Stress6 strainOf(const Stress6& stress, double E, double nu);

/// von Mises equivalent strain sqrt(2/3 e':e') of tensor strain components (e' deviatoric):
/// the axial strain of an incompressible uniaxial state.
double equivalentStrain(const Stress6& strain);

/// von Mises equivalent stress sqrt(3 J2).
double vonMises(const Stress6& s);

/// Principal stresses, descending: max first.
Eigen::Vector3d principalStresses(const Stress6& s);

}  // namespace flexim::fe
