// Regions of a triangulated FE surface picked from one facet (a bore, a flat face) and the
// least-squares plane and cylinder fitted to their nodes, so that a body or a joint can be put
// on a bore's axis or a face's centre. Works on any triangle surface: the display
// triangles of a ReducedBody (ReducedBody::coords + ::surface) or of an FE deck
// (FeModel::coords + outerSurface()). Quadratic faces arrive split into flat triangles through
// their mid-edge nodes (outerSurface), so every node of a curved face belongs to some triangle
// and the angle between neighbouring pieces is about half that between the curved faces.
// Method and references: docs/theory/surface-fits.md.
#pragma once

#include <Eigen/Core>

#include <array>
#include <span>
#include <string>
#include <vector>

namespace flexim::fe {

/// A triangle surface (a view, nothing is copied): node coordinates and triangles of node
/// indices into them, oriented outward (right-hand rule) as outerSurface() makes them.
/// Triangles with a node index out of range or (almost) no area are ignored.
struct TriangleSurface {
  std::span<const Eigen::Vector3d> coords;
  std::span<const std::array<int, 3>> triangles;
};

/// How far a region grows from its seed facet.
struct RegionOptions {
  /// An edge is crossed when the normals of its two facets differ by less than this [deg]. 40
  /// keeps a bore of 10 or more facets round in one region (the coarse first-order bracket
  /// hole, 11 facets round, has edges up to 37.7 degrees) while its 90 degree edges to flat
  /// faces, and 45 degree chamfers, stop it.
  double crease_angle_deg = 40.0;
  /// > 0: every facet's normal must also lie within this angle of the seed facet's normal [deg],
  /// so that a flat face does not leak round a gently curved blend one small angle at a time.
  double normal_cone_deg = 0.0;

  /// A smooth region (bores, cylinders).
  static RegionOptions smooth(double crease_deg = 40.0) { return {crease_deg, 0.0}; }
  /// A flat face: crease and cone of the same small angle.
  static RegionOptions flat(double deg = 5.0) { return {deg, deg}; }
};

struct SurfaceRegion {
  std::vector<int> facets;  ///< triangle indices, ascending; empty for an unusable seed
  std::vector<int> nodes;   ///< node indices of those triangles (all of them: corners and
                            ///< mid-edge nodes), ascending
  double area = 0.0;
};

/// The facets reachable from `seed` across edges allowed by `options` (flood fill over shared
/// edges; an edge shared by more than two triangles connects all of them). Empty when the seed is
/// out of range or degenerate.
SurfaceRegion growRegion(const TriangleSurface& surface, int seed, const RegionOptions& options = {});

/// The facet nearest to p (distance to the triangle, not to its centroid), -1 when there is none.
/// For a picked point: the GUI passes the pick position in the body frame.
int nearestFacet(const TriangleSurface& surface, const Eigen::Vector3d& p);

/// Unit outward normal of facet f (right-hand rule), zero if degenerate or out of range.
Eigen::Vector3d facetNormal(const TriangleSurface& surface, int f);

/// How far a fit can be trusted.
enum class FitQuality {
  Good,    ///< rms residual within 1 % of the radius (cylinder) or 0.1 % of the size (plane)
  Rough,   ///< usable, but the points are only roughly a cylinder/plane (up to 5 % / 1 %)
  Failed,  ///< too few points, degenerate, or not that shape: the values are not meaningful
};
const char* toString(FitQuality q);

struct PlaneFit {
  FitQuality quality = FitQuality::Failed;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  ///< mean of the points
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();   ///< unit; sign arbitrary
  double rms = 0.0;        ///< rms distance of the points to the plane
  double max_error = 0.0;  ///< largest distance
  double size = 0.0;       ///< largest extent of the points (bounding-box diagonal)
  std::string message;     ///< why it failed or is rough; empty when good
  bool ok() const { return quality != FitQuality::Failed; }
};

/// Least-squares plane (total least squares: smallest principal direction of the points).
/// Fails for fewer than 3 points or points on a line.
PlaneFit fitPlane(std::span<const Eigen::Vector3d> points);

struct CylinderFit {
  FitQuality quality = FitQuality::Failed;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< on the axis, in the middle of the points' axial extent
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();   ///< unit; its largest component is positive
  double radius = 0.0;
  double length = 0.0;     ///< axial extent of the points
  double rms = 0.0;        ///< rms of (distance to the axis - radius)
  double max_error = 0.0;  ///< largest |distance to the axis - radius|
  double arc_deg = 0.0;    ///< angle round the axis the points cover (360 - largest gap)
  int iterations = 0;      ///< Levenberg-Marquardt iterations
  std::string message;     ///< why it failed or is rough; empty when good
  bool ok() const { return quality != FitQuality::Failed; }
};

/// Least-squares cylinder: minimises sum (|p - axis| - r)^2 over the 5 parameters (axis
/// direction 2, axis position 2, radius) by Levenberg-Marquardt, started from the best of: the
/// direction most orthogonal to `normals` (if given: smallest eigenvector of sum n n^T), the
/// principal directions of the points and a grid over the hemisphere, each with a 2-D circle fit
/// of the points projected along it. normals: optional, any count (e.g. facet normals). Fails
/// for fewer than 6 points, for flat points (a plane, not a cylinder: coplanar points, a radius
/// far beyond the points' size or an arc below 10 degrees) and for an rms above 5 % of the radius.
CylinderFit fitCylinder(std::span<const Eigen::Vector3d> points, std::span<const Eigen::Vector3d> normals = {});

/// A face or a bore picked on a surface: the region, its fit and a one-line summary.
struct SurfaceFeature {
  enum class Kind { Face, Bore };
  Kind kind = Kind::Face;
  FitQuality quality = FitQuality::Failed;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< bore: on the axis, mid-length; face: area centroid on the plane
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();   ///< bore: axis (largest component positive); face: outward normal
  double radius = 0.0;  ///< bore only
  double length = 0.0;  ///< bore only: axial extent
  double rms = 0.0, max_error = 0.0;
  bool hole = false;    ///< bore only: the surface faces the axis (a hole); false: an outer cylinder
  SurfaceRegion region;
  /// E.g. "bore r = 13.000 mm, axis (0, 0, 1), 200 nodes, rms 0.0001 mm" (lengths in mm: the
  /// model is in metres), or why the fit failed.
  std::string message;
  bool ok() const { return quality != FitQuality::Failed; }
};

/// Grows a smooth region from `seed` and fits a cylinder to its nodes (axis guess from the facet
/// normals). A flat region fails with "flat" in the message.
SurfaceFeature fitBore(const TriangleSurface& surface, int seed, const RegionOptions& options = RegionOptions::smooth());

/// Grows a flat region from `seed` and fits a plane to its nodes.
SurfaceFeature fitFace(const TriangleSurface& surface, int seed, const RegionOptions& options = RegionOptions::flat());

}  // namespace flexim::fe
