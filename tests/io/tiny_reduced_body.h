// Test helper: a tiny reduced flexible body (8 nodes along x, 4 modes, two interfaces) built by
// hand and written with saveReducedBody, so model-file tests need no FE fixtures.
#pragma once

#include "core/fe/reduced_body.h"
#include "io/fe/reduced_body_file.h"

#include <cmath>
#include <numbers>
#include <string>

namespace flexim::test {

/// Node ids 101..108 at x = 0, 0.3/7, ..., 0.3 (ids differ from indices on purpose); modes:
/// rigid x, rigid y, then two elastic bending shapes in y; interfaces END_A (nodes 101, 102) and
/// END_B (nodes 107, 108).
inline fe::ReducedBody tinyRod() {
  const int n = 8, m = 4;
  fe::ReducedBody b;
  b.name = "tiny rod";
  b.method = "hand-made for tests: 2 rigid + 2 elastic";
  b.created = "2026-01-01T00:00:00Z";
  for (int k = 0; k < n; ++k) {
    b.node_ids.push_back(101 + k);
    b.coords.emplace_back(0.3 * k / (n - 1), 0.0, 0.0);
    b.node_mass.push_back(k == 0 || k == n - 1 ? 0.05 : 0.1);
  }
  b.modes = Eigen::MatrixXd::Zero(3 * n, m);
  for (int k = 0; k < n; ++k) {
    const double s = static_cast<double>(k) / (n - 1);
    b.modes(3 * k, 0) = 1.0;
    b.modes(3 * k + 1, 1) = 1.0;
    b.modes(3 * k + 1, 2) = std::sin(std::numbers::pi * s);
    b.modes(3 * k + 1, 3) = std::sin(2 * std::numbers::pi * s);
  }
  b.eigenvalues = Eigen::Vector4d(0.0, 0.0, 1.0e4, 1.6e5);
  b.kinds = {fe::ModeKind::Rigid, fe::ModeKind::Rigid, fe::ModeKind::Elastic, fe::ModeKind::Elastic};
  Eigen::MatrixXd Kbar = Eigen::MatrixXd::Zero(m, m);
  Kbar(2, 2) = 1.0e4;
  Kbar(3, 3) = 1.6e5;
  b.invariants = fe::computeInvariants(b.coords, b.node_mass, b.modes, Kbar);
  b.surface = {{0, 1, 2}, {5, 6, 7}};
  b.interfaces.push_back({"END_A", fe::Interface::Kind::Rigid, {0, 1}, Eigen::Vector3d::Zero()});
  b.interfaces.push_back({"END_B", fe::Interface::Kind::Averaging, {6, 7}, Eigen::Vector3d(0.3, 0, 0)});
  // stiffening load cases that stiffen nothing (a format-2 file, so no warning about them)
  b.geometric_stiffness.assign(fe::kInertiaLoadCases + 6 * b.interfaces.size(), Eigen::MatrixXd::Zero(m, m));
  return b;
}

/// Writes tinyRod() to path; an empty string on success, else the reason.
inline std::string writeTinyRod(const std::string& path) {
  std::string error;
  return io::saveReducedBody(tinyRod(), path, &error) ? std::string() : (error.empty() ? "failed" : error);
}

}  // namespace flexim::test
