// Element library for the solid elements of the common FE model (fe_model.h): shape functions
// and their derivatives in natural coordinates, quadrature rules, and the element matrices of an
// isotropic linear-elastic material (stiffness, consistent mass, HRZ-lumped mass).
//
// One table entry (ElementKind) per element type; nothing else in the library switches on the
// type. Node order is the Abaqus/CalculiX one (C3D4, C3D10, C3D8(R), C3D20(R)), see
// ../shared/design/FE-FORMATS.md §4.1.
//
// Natural coordinates:
//  * tetrahedra: (xi, eta, zeta) in the unit tetrahedron, barycentric L1 = 1 - xi - eta - zeta,
//    L2 = xi, L3 = eta, L4 = zeta (node 1 at the origin, nodes 2, 3, 4 on the axes); reference
//    volume 1/6, quadrature weights sum to 1/6;
//  * hexahedra: (xi, eta, zeta) in [-1, 1]^3, node 1 at (-1, -1, -1), bottom face 1-2-3-4
//    counter-clockwise seen from the top face 5-6-7-8; reference volume 8.
// A positively oriented element (as Abaqus requires) has det(dx/dxi) > 0 everywhere.
//
// Integration rules (what is exact for undistorted = affine / parallelepiped elements):
//   type    stiffness              consistent mass          CalculiX 2.20 (both K and M)
//   C3D4    1 point   (exact)      4-point, degree 2        1 point
//   C3D10   4-point   (exact)      15-point, degree 5       4-point
//   C3D8    2x2x2     (exact)      2x2x2                    2x2x2
//   C3D8R   2x2x2  (!, see below)  2x2x2                    1 point + hourglass control
//   C3D20   3x3x3     (exact)      3x3x3                    3x3x3
//   C3D20R  2x2x2     (reduced)    3x3x3                    2x2x2
// C3D8R: CalculiX (like Abaqus) integrates the 8-node brick with one point and adds an
// hourglass-control stiffness. We integrate C3D8R fully (2x2x2, i.e. exactly like C3D8): no
// spurious zero-energy modes, but the element is stiffer in bending than CalculiX's C3D8R (it
// shear-locks like C3D8), so frequencies of C3D8R meshes are higher than ccx's. Meshes of
// linear bricks should be refined or replaced by C3D20(R) for modal reduction.
// C3D20R: 2x2x2 stiffness like CalculiX; a single element then has spurious zero-energy modes
// (they do not survive in a connected mesh of more than one element layer). Its mass is
// integrated 3x3x3 because a 2x2x2 mass of a 20-node element is singular.
// The "ccx" mass rules (CalculiX integrates the mass with its stiffness points) are available
// to reproduce ccx's matrices; they are not exact for quadratic elements.
#pragma once

#include "core/fe/fe_model.h"

#include <Eigen/Core>

#include <array>
#include <span>

namespace flexim::fe {

/// One integration point in natural coordinates and its weight.
struct QuadPoint {
  double xi, eta, zeta, w;
};

/// Shape functions at natural point xi: N[a] (nodes) and dN[3 * a + k] = dN_a / dxi_k.
using ShapeFn = void (*)(const double xi[3], double* N, double* dN);

/// Everything the assembly needs to know about one element type.
struct ElementKind {
  ElementType type;
  const char* name;  ///< Abaqus name, "C3D10"
  int nodes;
  ShapeFn shape;
  std::span<const QuadPoint> stiffnessRule;
  std::span<const QuadPoint> massRule;     ///< consistent mass and volume (exact for affine elements)
  std::span<const QuadPoint> ccxMassRule;  ///< the rule CalculiX 2.20 uses for the mass
  std::span<const std::array<double, 3>> naturalNodes;  ///< natural coordinates of the nodes
  bool reducedStiffness;  ///< stiffness rule is under-integrated (spurious modes possible)
};

/// The table entry of an element type.
const ElementKind& elementKind(ElementType t);
/// All six entries (for tests and documentation).
std::span<const ElementKind> elementKinds();

/// Quadrature rules by name (sources in element_library.cpp).
namespace quadrature {
std::span<const QuadPoint> tet1();   ///< centroid, degree 1
std::span<const QuadPoint> tet4();   ///< 4 points, degree 2
std::span<const QuadPoint> tet15();  ///< Keast (1986) 15 points, degree 5, positive weights
std::span<const QuadPoint> hex1();   ///< Gauss 1x1x1, degree 1
std::span<const QuadPoint> hex8();   ///< Gauss 2x2x2, degree 3 per direction
std::span<const QuadPoint> hex27();  ///< Gauss 3x3x3, degree 5 per direction
}  // namespace quadrature

/// Node coordinates of one element, one column per node.
using ElementCoords = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::ColMajor, 3, 20>;
/// Element matrices, at most 60 x 60 (no heap allocation).
using ElementMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 60, 60>;
using ElementVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 20, 1>;

/// Where an element's Jacobian determinant was not positive.
struct JacobianFailure {
  int point = 0;          ///< 1-based integration point
  bool massRule = false;  ///< the point belongs to the mass rule (else the stiffness rule)
  double detJ = 0.0;
  bool degenerate = false;  ///< |detJ| tiny relative to the element size (flat element)
};

/// Checks det(dx/dxi) > 0 at every point of the given rule. On failure fills `fail`
/// (fail.massRule = false).
bool checkJacobian(const ElementKind& kind, const ElementCoords& X, std::span<const QuadPoint> rule,
                   JacobianFailure& fail);

/// Stiffness of an isotropic linear-elastic element, 3n x 3n, dofs node-major (3 * a + i),
/// exactly symmetric. Integrated with kind.stiffnessRule. Returns false (K undefined) if the
/// Jacobian determinant is not positive at a point.
bool elementStiffness(const ElementKind& kind, const ElementCoords& X, double E, double nu,
                      ElementMatrix& K, JacobianFailure* fail = nullptr);

/// Scalar consistent mass m_ab = integral of rho N_a N_b dV (n x n); the 3n x 3n element mass is
/// m (x) I3. Also returns the element volume (integral of dV with the same rule).
bool elementMass(const ElementKind& kind, const ElementCoords& X, double rho,
                 std::span<const QuadPoint> rule, ElementMatrix& m, double& volume,
                 JacobianFailure* fail = nullptr);

/// Hinton-Rock-Zienkiewicz lumping of a scalar consistent mass: the diagonal of m scaled so
/// that it sums to the element mass (the sum of all entries of m). All entries are positive
/// whenever the diagonal is, unlike row-sum lumping (negative corners for C3D10).
void hrzLump(const ElementMatrix& m, ElementVector& lumped);

/// Row-sum lumping (for comparison only; not used by the assembly).
void rowSumLump(const ElementMatrix& m, ElementVector& lumped);

}  // namespace flexim::fe
