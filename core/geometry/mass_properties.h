// Mass properties (volume, mass, centre of mass, inertia) of a homogeneous solid bounded by a
// closed triangle surface, such as the visual mesh of a rigid body exported from CAD.
//
// Method: the divergence theorem turns the volume integrals of 1, x and x x^T into sums over
// the tetrahedra spanned by a reference point and each triangle (signed by the triangle's
// orientation), with the closed-form moments of a tetrahedron (F. Tonon, "Explicit exact
// formulas for the 3-D tetrahedron inertia tensor in terms of its vertex coordinates",
// J. Math. Stat. 1(1), 2004; the same sums as B. Mirtich, "Fast and accurate computation of
// polyhedral mass properties", J. Graphics Tools 1(2), 1996). Exact for the polyhedron: the
// only errors are round-off. Details and the checks in docs/theory/mass-properties.md.
//
// The result is only meaningful for a closed, edge-manifold, consistently oriented surface, so
// computeMassProperties() welds the vertices (STL repeats them per facet), checks the topology
// and refuses anything else with a message that says what is wrong and where.
#pragma once

#include <Eigen/Core>

#include <array>
#include <string>
#include <vector>

namespace flexim::geometry {

/// A triangle surface: vertex positions and three vertex indices per triangle. A triangle whose
/// vertices turn counter-clockwise seen from outside (right-hand normal outwards) faces out.
struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
};

/// `mesh` with the vertices closer than `tolerance` (absolute, same units) merged into one
/// (the first one met) and the triangles that lose a corner by it dropped; tolerance 0 merges
/// equal positions only. dropped, if given, receives the number of triangles dropped.
TriangleMesh weldVertices(const TriangleMesh& mesh, double tolerance, long* dropped = nullptr);

/// An edge of the surface that shows a problem, by its two end points (mesh coordinates).
struct ExampleEdge {
  Eigen::Vector3d from = Eigen::Vector3d::Zero(), to = Eigen::Vector3d::Zero();
};

/// Whether a (welded) surface bounds a solid: every edge shared by exactly two triangles that
/// run along it in opposite directions.
struct SurfaceCheck {
  long edges = 0;
  long boundary_edges = 0;      ///< in one triangle only: the surface has a hole
  long non_manifold_edges = 0;  ///< in three or more triangles: sheets meet along an edge
  long misoriented_edges = 0;   ///< in two triangles running the same way: one of them faces the wrong way
  ExampleEdge boundary_example, non_manifold_example, misoriented_example;
  int shells = 0;  ///< connected pieces of surface (through shared edges)
  std::vector<int> shell_of_triangle;  ///< shell index of each triangle (valid when closed())

  bool closed() const { return boundary_edges == 0 && non_manifold_edges == 0 && misoriented_edges == 0; }
  /// What is wrong, one clause per kind of problem with its count and an example edge; empty
  /// when closed().
  std::string problem() const;
};

/// Checks the edges of `mesh` (weld it first: only shared vertex indices make shared edges).
SurfaceCheck checkSurface(const TriangleMesh& mesh);

/// Mass properties in the mesh's axes, SI units.
struct MassProperties {
  double volume = 0;                              ///< [m^3]
  double mass = 0;                                ///< [kg]
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< [m] centre of mass
  /// [kg m^2] inertia tensor about the centre of mass: diagonal int (y^2 + z^2) dm, ...;
  /// off-diagonal entries are the negated products of inertia, -int x y dm, ... (the tensor of
  /// a body's `inertia` in the model format)
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
  Eigen::Vector3d principal_moments = Eigen::Vector3d::Zero();  ///< [kg m^2] ascending
  /// columns: the principal axes of principal_moments, a rotation (right-handed); each axis has
  /// its largest component positive except where the third is turned for the handedness
  Eigen::Matrix3d principal_axes = Eigen::Matrix3d::Identity();
};

struct MassPropertiesOptions {
  double density = 1.0;  ///< [kg/m^3]
  double scale = 1.0;    ///< mesh units -> m (0.001 for a mesh in mm); multiplies the coordinates
  /// vertices closer than this times the diagonal of the mesh's bounding box are one vertex:
  /// a few float ulps (STL stores 32-bit floats, Assimp reads every format as such) while far
  /// below any feature a CAD tessellation makes (1 um on a 1 m part)
  double weld_tolerance = 1e-6;
};

/// The answer of computeMassProperties(), with what was done to the surface on the way.
struct MassPropertiesReport {
  bool ok = false;
  std::string error;                  ///< when !ok: what is wrong with the surface, and where
  std::vector<std::string> warnings;  ///< e.g. an inside-out surface that was turned outwards
  MassProperties properties;          ///< when ok
  long vertices_read = 0, vertices = 0;  ///< before and after welding
  long triangles = 0;                    ///< used (after welding)
  long degenerate_triangles = 0;         ///< dropped: two corners welded into one
  double weld_distance = 0;              ///< [mesh units] the absolute weld tolerance used
  int shells = 0;
  bool inside_out = false;  ///< the whole surface faced inwards and was turned
  int flipped_shells = 0;   ///< shells turned (all of them when inside_out)
};

/// Mass properties of the solid of uniform `options.density` bounded by `mesh` (coordinates
/// times options.scale, in metres). Refused (ok false, error set) when the welded surface is
/// open, non-manifold or inconsistently oriented (SurfaceCheck::problem()), encloses no volume,
/// has non-finite coordinates, or has a shell facing outwards inside another shell (a cavity
/// must face inwards; otherwise two solids overlap). Accepted with a warning and turned
/// outwards: a surface that faces inwards as a whole (negative volume), and a shell facing
/// inwards that lies inside no other shell (a cavity needs a solid around it). Shells nested
/// in each other alternate: solid, cavity, solid in the cavity, ...
MassPropertiesReport computeMassProperties(const TriangleMesh& mesh, const MassPropertiesOptions& options);

/// The integrals alone, no checks: the signed volume and the moments of the surface as it is
/// oriented, about the reference point `origin` (choose one near the mesh: the round-off grows
/// with the distance), for density `density`. Used by computeMassProperties(); exposed for tests.
MassProperties integrateSurface(const TriangleMesh& mesh, double density, const Eigen::Vector3d& origin);

/// Homogeneous primitives of density `density` [kg/m^3], centred at the origin of their axes:
/// a box of edge lengths size; a cylinder of a radius and a length along z; a sphere. Closed
/// forms (the cylinder is a true one, not a faceted prism).
MassProperties boxMassProperties(const Eigen::Vector3d& size, double density);
MassProperties cylinderMassProperties(double radius, double length, double density);
MassProperties sphereMassProperties(double radius, double density);

}  // namespace flexim::geometry
