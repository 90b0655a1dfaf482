// Element library for the solid elements of the common FE model (fe_model.h): shape functions
// and their derivatives in natural coordinates, quadrature rules, and the element matrices of an
// isotropic linear-elastic material (stiffness, consistent mass, HRZ-lumped mass).
//
// One table entry (ElementKind) per element type; nothing else in the library switches on the
// type. Node order is the Abaqus/CalculiX one (C3D4, C3D10, C3D8(R, I), C3D20(R), C3D6, C3D15)
// and Nastran's CPYRAM one for the pyramids (C3D5, C3D13), see docs/fe-support.md
// (Elements) and fe_model.h.
//
// Natural coordinates:
//  * tetrahedra: (xi, eta, zeta) in the unit tetrahedron, barycentric L1 = 1 - xi - eta - zeta,
//    L2 = xi, L3 = eta, L4 = zeta (node 1 at the origin, nodes 2, 3, 4 on the axes); reference
//    volume 1/6, quadrature weights sum to 1/6;
//  * hexahedra: (xi, eta, zeta) in [-1, 1]^3, node 1 at (-1, -1, -1), bottom face 1-2-3-4
//    counter-clockwise seen from the top face 5-6-7-8; reference volume 8;
//  * wedges (as CalculiX's shape6w/shape15w): (xi, eta) in the unit triangle, zeta in [-1, 1];
//    nodes 1, 2, 3 at (0, 0, -1), (1, 0, -1), (0, 1, -1), nodes 4-6 above them at zeta = 1;
//    reference volume 1;
//  * pyramids: base square (xi, eta) in [-1, 1]^2 at zeta = 0 (nodes 1-4 counter-clockwise
//    seen from the apex, node 1 at (-1, -1, 0)), apex (node 5) at (0, 0, 1); reference volume 4/3.
// A positively oriented element (as Abaqus requires) has det(dx/dxi) > 0 everywhere.
//
// Integration rules (what is exact for undistorted = affine / parallelepiped elements):
//   type    stiffness              consistent mass          CalculiX 2.20 (both K and M)
//   C3D4    1 point   (exact)      4-point, degree 2        1 point
//   C3D10   4-point   (exact)      15-point, degree 5       4-point
//   C3D8    2x2x2     (exact)      2x2x2                    2x2x2
//   C3D8R   2x2x2  (!, see below)  2x2x2                    1 point + hourglass control
//   C3D8I   2x2x2 + 9 condensed    2x2x2 (8 nodes)          2x2x2, 9 bubble dofs kept (below)
//   C3D20   3x3x3     (exact)      3x3x3                    3x3x3
//   C3D20R  2x2x2     (reduced)    3x3x3                    2x2x2
//   C3D6    2 points  (reduced)    3 x 2 = 6 points         2 points (K like ours)
//   C3D15   3 x 3 = 9 (reduced)    6 x 3 = 18 points        9 points
//   C3D5    2x2x2 collapsed        2x2x3 collapsed          -
//   C3D13   3x3x3 collapsed        3x3x4 collapsed          -
// Wedge rules are a triangle rule times Gauss-Legendre in zeta: C3D6 stiffness the centroid x 2
// (CalculiX's gauss3d7), C3D15 stiffness the 3 interior points (1/6, 1/6), (2/3, 1/6),
// (1/6, 2/3) x 3 (gauss3d8); the masses the 3-point (degree 2) and 6-point (degree 4, Strang-Fix
// / Dunavant) triangle rules, exact for undistorted wedges. The CalculiX stiffness rules are not
// exact for wedges (degree 1 and 2 in the triangle); C3D6's leaves one spurious zero-energy mode
// in a single element (see ElementKind::spuriousModes), C3D15's none.
// Pyramids: the rational shape functions of Bedrosian (1992) (C3D13: the space P2 + {xi eta,
// xi^2 eta, xi eta^2} / (1 - zeta), whose traces are quadratic on the triangles, matching C3D10
// faces, and serendipity on the base, matching C3D20 faces). In the collapsed coordinates
// a = xi / (1 - zeta), b = eta / (1 - zeta), c = 2 zeta - 1 they are polynomials, and C3D5 is
// exactly the 8-node hexahedron with its top face collapsed into the apex; the rules are Gauss
// rules in (a, b, c) mapped into the pyramid (weights times the Jacobian (1 - zeta)^2 / 2, the
// Duffy transformation), exact for affine pyramids. The shape-function derivatives have no
// limit at the apex (the code returns those along the axis); no rule evaluates them there.
// C3D8R: CalculiX (like Abaqus) integrates the 8-node brick with one point and adds an
// hourglass-control stiffness. We integrate C3D8R fully (2x2x2, i.e. exactly like C3D8): no
// spurious zero-energy modes, but the element is stiffer in bending than CalculiX's C3D8R (it
// shear-locks like C3D8), so frequencies of C3D8R meshes are higher than ccx's. Meshes of
// linear bricks should be refined or replaced by C3D20(R) for modal reduction.
// C3D8I: the 8-node brick plus the Wilson-Taylor incompatible modes (1 - xi^2, 1 - eta^2,
// 1 - zeta^2 per direction, 9 dofs), whose strains use the Jacobian at the centre, scaled by
// det J0 / det J (Taylor, Beresford & Wilson 1976) so that they integrate to zero: the element
// passes the patch test on any shape, and they are condensed out of the element stiffness. The
// mass is the 8-node element's. CalculiX 2.20 keeps the 9 bubble dofs as extra nodes of the
// global system, gives them mass (its consistent mass of the bubbles, shape8humass.f) and omits
// the det J0 / det J factor: on undistorted elements its stiffness is ours, its frequencies are
// lower (see docs/fe-support.md for the measured difference).
// C3D20R: 2x2x2 stiffness like CalculiX; a single element then has spurious zero-energy modes
// (they do not survive in a connected mesh of more than one element layer). Its mass is
// integrated 3x3x3 because a 2x2x2 mass of a 20-node element is singular.
// The "ccx" mass rules (CalculiX integrates the mass with its stiffness points) are available
// to reproduce ccx's matrices; they are not exact for quadratic elements (nor for C3D6, whose
// 2-point mass has rank 2 per direction).
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
  /// Zero-energy modes of a single free element besides the 6 rigid-body ones, left by an
  /// under-integrated stiffness rule (C3D20R: 6; C3D6: 1, the twist about the prism axis, whose
  /// strain vanishes on the axis through the triangle centroid). None survives in a connected
  /// mesh (C3D20R: with two or more element layers through every thickness).
  int spuriousModes;
  /// Faces in the Abaqus numbering (S1, S2, ...): 0-based corner nodes, a triangle padded with -1.
  /// The right-hand normal of a positively oriented element points into it (surface.cpp reverses
  /// them for the outward surface). Pyramids (no Abaqus numbering) are numbered like the 8-node
  /// brick whose top face collapsed into the apex: S1 the base, S2..S5 the triangles on the base
  /// edges 1-2, 2-3, 3-4, 4-1.
  std::span<const int[4]> faces;
  /// Mid-edge nodes of a quadratic element, {a, b, mid}; empty for a linear one.
  std::span<const int[3]> midEdges;
  /// The field fitted to the stress-rule point values for the nodal stresses (stress.h): its
  /// functions at natural point xi into f (at most 20); returns their number.
  int (*stressFit)(const double xi[3], double* f);
  /// Incompatible modes condensed in the stiffness (C3D8I: 3 bubble fields x 3 components):
  /// their number and the natural derivatives dphi[3 * k + j] = dphi_k / dxi_j (phi unused).
  int bubbles = 0;
  ShapeFn bubbleShape = nullptr;
};

/// The table entry of an element type.
const ElementKind& elementKind(ElementType t);
/// All entries (for tests and documentation).
std::span<const ElementKind> elementKinds();

/// Quadrature rules by name (sources in element_library.cpp).
namespace quadrature {
std::span<const QuadPoint> tet1();   ///< centroid, degree 1
std::span<const QuadPoint> tet4();   ///< 4 points, degree 2
std::span<const QuadPoint> tet15();  ///< Keast (1986) 15 points, degree 5, positive weights
std::span<const QuadPoint> hex1();   ///< Gauss 1x1x1, degree 1
std::span<const QuadPoint> hex8();   ///< Gauss 2x2x2, degree 3 per direction
std::span<const QuadPoint> hex27();  ///< Gauss 3x3x3, degree 5 per direction
std::span<const QuadPoint> wedge2();   ///< triangle centroid x Gauss 2 (CalculiX C3D6)
std::span<const QuadPoint> wedge6();   ///< triangle 3 points (degree 2) x Gauss 2
std::span<const QuadPoint> wedge9();   ///< triangle 3 interior points (degree 2) x Gauss 3 (CalculiX C3D15)
std::span<const QuadPoint> wedge18();  ///< triangle 6 points (degree 4) x Gauss 3
std::span<const QuadPoint> pyramid8();   ///< collapsed Gauss 2x2x2
std::span<const QuadPoint> pyramid12();  ///< collapsed Gauss 2x2 x 3 (3 points along the axis)
std::span<const QuadPoint> pyramid27();  ///< collapsed Gauss 3x3x3
std::span<const QuadPoint> pyramid36();  ///< collapsed Gauss 3x3 x 4
}  // namespace quadrature

/// Node coordinates of one element, one column per node.
using ElementCoords = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::ColMajor, 3, 20>;
/// Element matrices, at most 60 x 60 (no heap allocation).
using ElementMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 60, 60>;
using ElementVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 20, 1>;

/// Where an element's Jacobian determinant was not positive.
struct JacobianFailure {
  int point = 0;          ///< 1-based integration point; 0 = the element centre (incompatible modes)
  bool massRule = false;  ///< the point belongs to the mass rule (else the stiffness rule)
  double detJ = 0.0;
  bool degenerate = false;  ///< |detJ| tiny relative to the element size (flat element)
};

/// Checks det(dx/dxi) > 0 at every point of the given rule. On failure fills `fail`
/// (fail.massRule = false).
bool checkJacobian(const ElementKind& kind, const ElementCoords& X, std::span<const QuadPoint> rule,
                   JacobianFailure& fail);

/// Stiffness of an isotropic linear-elastic element, 3n x 3n, dofs node-major (3 * a + i),
/// exactly symmetric. Integrated with kind.stiffnessRule; incompatible modes (kind.bubbles) are
/// condensed out. Returns false (K undefined) if the Jacobian determinant is not positive at a
/// point.
bool elementStiffness(const ElementKind& kind, const ElementCoords& X, double E, double nu,
                      ElementMatrix& K, JacobianFailure* fail = nullptr);

/// Cartesian gradients of the shape functions (rows a < kind.nodes: dN_a / dx) and, after them,
/// of the incompatible modes (rows kind.nodes + k, k < kind.bubbles).
using ShapeGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::ColMajor, 20, 3>;

/// The Jacobian at the element centre that the incompatible modes use (kind.bubbles > 0; else
/// unused): its inverse and determinant. Returns false if det J0 is not positive.
bool incompatibleModeFrame(const ElementKind& kind, const ElementCoords& X, Eigen::Matrix3d& J0inv, double& det0,
                           JacobianFailure* fail = nullptr);

/// Shape-function gradients G at natural point xi, exactly as elementStiffness uses them (the
/// bubbles' from J0inv, det0 of incompatibleModeFrame, scaled by det J0 / det J). Returns det J
/// (G is undefined when it is not positive).
double shapeGradients(const ElementKind& kind, const ElementCoords& X, const double xi[3], const Eigen::Matrix3d& J0inv,
                      double det0, ShapeGradients& G);

/// Incompatible modes of an element with nodal displacements u (kind.bubbles > 0): the
/// amplitudes that static condensation eliminated, alpha = -Kbb^-1 Kbn u = R u, R of size
/// 3 * bubbles x 3 * nodes (alpha node-major like u: 3 * k + i). Returns false (R undefined) on
/// a non-positive Jacobian determinant.
bool incompatibleModeRecovery(const ElementKind& kind, const ElementCoords& X, double E, double nu, ElementMatrix& R,
                              JacobianFailure* fail = nullptr);

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
