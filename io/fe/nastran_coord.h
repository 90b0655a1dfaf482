// Nastran coordinate systems (CORD1R/1C/1S, CORD2R/2C/2S): a local system is an origin and
// three orthonormal axes in the basic system, and a kind that says how its three coordinates
// are read:
//   R  rectangular  (x, y, z)
//   C  cylindrical  (r, theta [deg], z):         x = r cos theta, y = r sin theta
//   S  spherical    (r, theta [deg], phi [deg]): theta from the z axis, phi about it from x:
//                   x = r sin theta cos phi, y = r sin theta sin phi, z = r cos theta
// Defined by three points A (origin), B (on the z axis) and C (in the x-z plane, on the +x side).
// The directions of a grid's displacement components in a system (GRID CD) are the local unit
// vectors at the grid: x, y, z (R); r, theta, z (C); r, theta, phi (S).
#pragma once

#include <Eigen/Core>

#include <string>

namespace flexim::io::nastran {

struct CoordSystem {
  char kind = 'R';                                      ///< 'R', 'C' or 'S'
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();     ///< in basic
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  ///< columns: unit x, y, z in basic

  /// Basic position of the point with coordinates `local` (angles in degrees).
  Eigen::Vector3d toBasic(const Eigen::Vector3d& local) const;
  /// Directions of the three displacement components at the basic point x (columns, in basic).
  /// onAxis is set when x lies on the polar axis of a cylindrical or spherical system, where the
  /// angle is undefined (theta = 0 or phi = 0 is used then).
  Eigen::Matrix3d directionsAt(const Eigen::Vector3d& x, bool* onAxis = nullptr) const;
};

/// The system of the given kind through the basic points a (origin), b (on +z) and c (in the
/// x-z plane). Returns false with a reason when b = a or c lies on the z axis.
bool systemFromPoints(char kind, const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                      CoordSystem& out, std::string& problem);

}  // namespace flexim::io::nastran
