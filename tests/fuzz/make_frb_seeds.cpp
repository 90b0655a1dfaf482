// Writes small reduced bodies with Flexim's own writer (io::saveReducedBody) into the folder
// given: seeds of fuzz_frb, and the bodies the seeds of fuzz_model name. Built and run by
// tests/fuzz/make_frb_seeds.sh; the files are committed in tests/fuzz/corpus/frb.
//
//   rod.frb      tinyRod() of tests/io/tiny_reduced_body.h: 8 nodes (ids 101..108), 2 rigid + 2
//                elastic modes, interfaces END_A (rigid) and END_B (averaging), 2 triangles;
//                the rod of docs/model-format.md §17
//   arm.frb      the example of docs/reduced-body-format.md §9: one node, no modes
//   kinds.frb    a tetrahedron with one mode of each kind, two source files, a closed surface
//                and three interfaces (one unnamed, one without nodes)
#include "io/fe/reduced_body_file.h"
#include "tests/io/tiny_reduced_body.h"

#include <cstdio>
#include <string>

using namespace flexim;

namespace {

bool save(const fe::ReducedBody& b, const std::string& path) {
  std::string error;
  if (io::saveReducedBody(b, path, &error)) return true;
  std::fprintf(stderr, "make_frb_seeds: %s\n", error.c_str());
  return false;
}

fe::ReducedBody arm() {
  fe::ReducedBody b;
  b.name = "arm";
  b.method = "free-free: 6 rigid + 0 elastic";
  b.created = "2026-09-01T12:34:56Z";
  b.node_ids = {1};
  b.coords = {Eigen::Vector3d(0.25, 0, 0)};
  b.node_mass = {1.0};
  b.modes.resize(3, 0);
  b.invariants = fe::computeInvariants(b.coords, b.node_mass, b.modes, Eigen::MatrixXd(0, 0));
  return b;
}

fe::ReducedBody kinds() {
  fe::ReducedBody b;
  b.name = "kinds";
  b.method = "hand-made: 1 rigid, 1 elastic, 1 constraint, 1 fixed-interface";
  b.created = "2026-01-01T00:00:00Z";
  b.sources = {{"tet.inp", std::string(64, '0')}, {"tet.frd", ""}};
  b.node_ids = {7, 3, 11, 5};
  b.coords = {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0, 0.1, 0),
              Eigen::Vector3d(0, 0, 0.1)};
  b.node_mass = {0.25, 0.25, 0.25, 0.25};
  const int m = 4;
  b.modes = Eigen::MatrixXd::Zero(12, m);
  for (int k = 0; k < 4; ++k) {
    b.modes(3 * k + 2, 0) = 1.0;                   // rigid translation z
    b.modes(3 * k, 1) = (k == 1 ? 1.0 : -0.25);    // stretch along x
    b.modes(3 * k + 1, 2) = (k == 2 ? 1.0 : 0.0);  // one node moved: a constraint mode
    b.modes(3 * k + 2, 3) = 0.5 * k;               // fixed-interface shape
  }
  b.eigenvalues = Eigen::Vector4d(0.0, 4.0e6, 0.0, 9.0e6);
  b.kinds = {fe::ModeKind::Rigid, fe::ModeKind::Elastic, fe::ModeKind::Constraint, fe::ModeKind::FixedInterface};
  Eigen::MatrixXd Kbar = Eigen::MatrixXd::Zero(m, m);
  Kbar(1, 1) = 4.0e6;
  Kbar(3, 3) = 9.0e6;
  b.invariants = fe::computeInvariants(b.coords, b.node_mass, b.modes, Kbar);
  b.surface = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  b.interfaces.push_back({"base", fe::Interface::Kind::Rigid, {0, 1, 2}, Eigen::Vector3d(0.03, 0.03, 0)});
  b.interfaces.push_back({"", fe::Interface::Kind::Averaging, {3}, Eigen::Vector3d(0, 0, 0.1)});
  b.interfaces.push_back({"empty", fe::Interface::Kind::Rigid, {}, Eigen::Vector3d::Zero()});
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_frb_seeds OUTPUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  const bool ok = save(test::tinyRod(), dir + "/rod.frb") && save(arm(), dir + "/arm.frb") &&
                  save(kinds(), dir + "/kinds.frb");
  return ok ? 0 : 1;
}
