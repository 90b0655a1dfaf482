#include "core/fe/validation_report.h"

#include "core/base/rotation.h"
#include "core/fe/sparse_block.h"
#include "core/fe/surface.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

namespace flexim::fe {

namespace {

std::string format(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace

std::string ValidationReport::str() const {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  for (const auto& w : warnings) out += "warning: " + w + "\n";
  return out;
}

void reportMesh(const FeModel& mesh, ValidationReport& r, const GivenMaterial& given) {
  r.add(format("nodes: %d", mesh.nodeCount()));
  std::map<std::string, int> byType;
  for (const auto& e : mesh.elements) ++byType[abaqusName(e.type)];
  std::string types;
  for (const auto& [name, count] : byType) types += format(" %s x %d", name.c_str(), count);
  r.add(format("elements: %zu%s", mesh.elements.size(), types.c_str()));
  for (const auto& [name, nodes] : mesh.node_sets) r.add(format("node set %s: %zu nodes", name.c_str(), nodes.size()));
  for (const auto& [name, elems] : mesh.element_sets)
    r.add(format("element set %s: %zu elements", name.c_str(), elems.size()));
  if (const Material* m = given.material) {
    const double rho = given.density > 0 ? given.density : m->rho;
    r.add(format("material (given): E = %.6g Pa, nu = %.4g, rho = %.6g kg/m^3, of every element%s", m->E, m->nu, rho,
                 mesh.materials.empty() ? "" : " (instead of the file's)"));
  } else {
    for (const auto& m : mesh.materials)
      r.add(format("material %s: %s, %s", m.name.c_str(),
                   m.has_elastic ? format("E = %.6g Pa, nu = %.4g", m.E, m.nu).c_str() : "no elastic constants",
                   given.density > 0 ? format("rho = %.6g kg/m^3 (given%s)", given.density,
                                              m.has_density ? format(", the file's %.6g", m.rho).c_str() : "")
                                           .c_str()
                   : m.has_density   ? format("rho = %.6g kg/m^3", m.rho).c_str()
                                     : "no density"));
  }
  if (!mesh.masses.empty() || !mesh.springs.empty() || !mesh.rotary_inertias.empty()) {
    double m = 0;
    for (const auto& d : mesh.masses)
      for (const auto& t : d.terms) m += d.value * t.coefficient * t.coefficient / 3;
    r.add(format("discrete: %zu point/scalar masses (%.7g kg), %zu springs, %zu rotary inertias (not in M: no "
                 "rotational DOFs)",
                 mesh.masses.size(), m, mesh.springs.size(), mesh.rotary_inertias.size()));
  }
  for (const Coupling& c : mesh.couplings)
    r.add(format("coupling %s (%s): reference node %d, %zu nodes, %s; usable as an interface (--interface \"%s\")",
                 c.name.c_str(), c.where.c_str(), mesh.node_ids[static_cast<std::size_t>(c.reference_node)], c.nodes.size(),
                 c.rigid ? "rigid" : "averaging", c.name.c_str()));
  if (!mesh.constraints.empty())
    r.add(format("%zu linear constraint%s (*EQUATION, *TIE, MPC): applied in the eigen solution (each eliminates a "
                 "dependent degree of freedom)",
                 mesh.constraints.size(), mesh.constraints.size() == 1 ? "" : "s"));
  if (mesh.elements.empty()) return;
  int parts = 0;
  const std::vector<int> part = partOfNodes(mesh, parts);
  if (parts > 1) {
    // each part by its size and its lowest node id, the first few
    std::vector<int> nodes(static_cast<std::size_t>(parts), 0), lowest(static_cast<std::size_t>(parts), 0);
    for (std::size_t k = 0; k < part.size(); ++k)
      if (part[k] >= 0 && nodes[std::size_t(part[k])]++ == 0) lowest[std::size_t(part[k])] = mesh.node_ids[k];
    std::string which;
    for (int p = 0; p < std::min(parts, 6); ++p)
      which += format("%s%d nodes from node %d", p ? ", " : "", nodes[std::size_t(p)], lowest[std::size_t(p)]);
    r.warn(format("mesh has %d disconnected parts (%s%s): each adds 6 rigid-body modes, and the elastic modes asked "
                  "for come on top; were tied or contact surfaces dropped?",
                  parts, which.c_str(), parts > 6 ? ", ..." : ""));
  }
  std::vector<bool> used(mesh.nodeCount(), false);
  for (const auto& e : mesh.elements)
    for (int i = 0; i < nodeCount(e.type); ++i) used[e.nodes[i]] = true;
  for (const auto& d : mesh.springs)
    for (const auto& t : d.terms) used[t.node] = true;
  const long unused = std::count(used.begin(), used.end(), false);
  if (unused) r.add(format("%ld nodes belong to no element or spring: left out of the modes", unused));
  int unassigned = 0;
  for (const auto& e : mesh.elements) unassigned += e.material < 0;
  if (unassigned && !given.material) r.warn(format("%d elements have no material (give --material E,nu,rho)", unassigned));
  if (const Material* m = given.material; m && (m->E < 1e6 || m->E > 1e13))
    r.warn(format("the given E = %.3g looks like non-SI units (Pa expected; MPa/mm models need conversion)", m->E));
  if (!given.material)
    for (const auto& m : mesh.materials)
      if (m.has_elastic && (m.E < 1e6 || m.E > 1e13))
      r.warn(format("material %s: E = %.3g looks like non-SI units (Pa expected; MPa/mm models need conversion)",
                    m.name.c_str(), m.E));
}

void reportMatrices(const FeModel& mesh, const AssembledMatrices& mats, ValidationReport& r) {
  const double symK = relativeAsymmetry(mats.K), symM = relativeAsymmetry(mats.M);
  r.add(format("stiffness: %ld x %ld, %ld nonzeros, symmetry |K - K^T|/|K| = %.1e", static_cast<long>(mats.K.rows()),
               static_cast<long>(mats.K.cols()), static_cast<long>(mats.K.nonZeros()), symK));
  r.add(format("mass: symmetry |M - M^T|/|M| = %.1e", symM));
  if (symK > 1e-10 || symM > 1e-10) r.warn("matrices are not symmetric");
  const int n = mesh.nodeCount();
  if (mats.M.rows() != 3 * n || n == 0) return;
  const MassProperties p = massProperties(mesh.coords, mats.M);
  r.add(format("total mass from M: %.7g kg; rho V of the elements: %.7g kg (volume %.7g m^3)", p.mass, mats.mass, mats.volume));
  if (mats.point_mass > 0) r.add(format("point masses: %.7g kg (in M)", mats.point_mass));
  const double expected = mats.mass + mats.point_mass;
  if (std::abs(p.mass - expected) > 1e-6 * expected) r.warn("mass matrix total differs from rho V plus the point masses");
  r.add(format("centre of mass: (%.6g, %.6g, %.6g) m", p.centre.x(), p.centre.y(), p.centre.z()));
  const Eigen::Matrix3d& J = p.inertia;
  r.add(format("inertia about the centre of mass: [%.6g %.6g %.6g; %.6g %.6g %.6g; %.6g %.6g %.6g] kg m^2", J(0, 0),
               J(0, 1), J(0, 2), J(1, 0), J(1, 1), J(1, 2), J(2, 0), J(2, 1), J(2, 2)));
  // the floating-frame body carries the lumped (HRZ) nodal masses: say how far their inertia is off
  Eigen::Matrix3d Jl = Eigen::Matrix3d::Zero();
  for (int k = 0; k < n; ++k) {
    const Eigen::Matrix3d s = skew(mesh.coords[k] - p.centre);
    Jl -= mats.lumped_node_mass[k] * s * s;
  }
  double worst = 0;
  for (int a = 0; a < 3; ++a)
    if (J(a, a) > 0) worst = std::max(worst, std::abs(Jl(a, a) / J(a, a) - 1));  // 0 for masses on a line
  r.add(format("lumped-mass inertia differs by up to %.2g %% on the diagonal", 100 * worst));
  if (worst > 0.05)
    r.warn(format("lumped (HRZ) nodal masses misstate the inertia by %.0f %%: the mesh is coarse across a thin direction",
                  100 * worst));
}

void reportModes(const ModalResult& modes, const std::vector<double>& reference_hz, const Eigen::MatrixXd& reference_modes,
                 const Eigen::SparseMatrix<double>& M, ValidationReport& r) {
  const std::vector<double> f = modes.frequenciesHz();
  r.add(format("modes: %zu (%d rigid), shift %.3g (rad/s)^2, max residual %.1e, %ld solves", f.size(), modes.rigid_count,
               modes.shift, modes.max_residual, modes.operations));
  if (modes.sturm_count < 0)
    r.warn("Sturm check not made: a missing mode would go unnoticed");
  else
    r.add(format("Sturm check: %d eigenvalues below %.6g Hz by the inertia of K - s M, all returned%s", modes.sturm_count,
                 std::sqrt(std::max(0.0, modes.sturm_shift)) / (2 * std::numbers::pi),
                 modes.attempts > 1 ? format(" (after %d attempts)", modes.attempts).c_str() : ""));
  Eigen::VectorXd mac;
  Eigen::MatrixXd full;
  if (reference_modes.cols() > 0 && reference_modes.rows() == modes.modes.rows()) {
    const int k = std::min<int>(static_cast<int>(reference_modes.cols()), static_cast<int>(modes.modes.cols()));
    full = modalAssurance(modes.modes.leftCols(k), reference_modes.leftCols(k), M);
    mac = full.diagonal();
  }
  double worst = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    std::string line = format("  mode %3zu  %12.6g Hz  %-7s", i + 1, f[i], modes.rigid[i] ? "rigid" : "elastic");
    if (i < modes.residuals.size() && !modes.rigid[i]) line += format("  residual %.1e", modes.residuals[i]);
    if (i < reference_hz.size()) {
      const double ref = reference_hz[i];
      if (!modes.rigid[i] && ref > 0) {
        const double rel = f[i] / ref - 1;
        worst = std::max(worst, std::abs(rel));
        line += format("  reference %12.6g Hz  (%+.2e)", ref, rel);
      } else {
        line += format("  reference %12.6g Hz", ref);
      }
    }
    if (i < static_cast<size_t>(mac.size())) line += format("  MAC %.4f", mac(i));
    r.add(line);
  }
  if (full.size() > 0) {
    // MAC matrix of the elastic modes (rigid modes span a subspace: their pairing is arbitrary)
    const int first = modes.rigid_count, last = std::min<int>(static_cast<int>(full.rows()), first + 12);
    if (last > first) {
      r.add("MAC matrix, elastic modes (rows: ours, columns: reference):");
      for (int i = first; i < last; ++i) {
        std::string row = format("  %3d ", i + 1);
        for (int j = first; j < last; ++j) row += format(" %5.3f", full(i, j));
        r.add(row);
      }
    }
  }
  if (!reference_hz.empty()) {
    r.add(format("largest relative frequency difference to the reference: %.2e", worst));
    // a reference table in Hz where (rad/s)^2 was expected (or the reverse) shows as a fixed ratio
    for (size_t i = 0; i < std::min(f.size(), reference_hz.size()); ++i) {
      if (modes.rigid[i] || f[i] <= 0 || reference_hz[i] <= 0) continue;
      const double ratio = reference_hz[i] / f[i], omega2 = std::pow(2 * std::numbers::pi * f[i], 2);
      if (std::abs(reference_hz[i] / omega2 - 1) < 1e-3)
        r.warn("reference frequencies look like eigenvalues in (rad/s)^2 where Hz was expected");
      else if (std::abs(ratio - 2 * std::numbers::pi) < 1e-3 * 2 * std::numbers::pi)
        r.warn("reference frequencies look like rad/s where Hz was expected");
      break;
    }
  }
  if (modes.max_residual > 1e-6) r.warn(format("eigenvector residuals up to %.1e: results may be inaccurate", modes.max_residual));
}

void reportReducedBody(const ReducedBody& body, ValidationReport& r) {
  r.add("reduced body: " + body.name);
  r.add("method: " + body.method);
  r.add(format("nodes: %zu, modes: %ld, display triangles: %zu, interfaces: %zu", body.coords.size(),
               static_cast<long>(body.modes.cols()), body.surface.size(), body.interfaces.size()));
  r.add(body.stress_modes.size() > 0 ? "stress modes: the nodal stress of every mode (stress sensors and contours)"
                                     : "stress modes: none (reduce the mesh again to record stresses)");
  r.add(!body.geometric_stiffness.empty()
            ? "geometric stiffening: " + std::to_string(body.geometric_stiffness.size()) +
                  " load cases (12 inertia + 6 per interface)"
            : std::string("geometric stiffening: none (reduce the mesh again with this Flexim to have it)"));
  r.add(format("mass (invariant I1): %.7g kg, centre of mass: (%.6g, %.6g, %.6g) m", body.invariants.I1,
               body.invariants.I2.x() / body.invariants.I1, body.invariants.I2.y() / body.invariants.I1,
               body.invariants.I2.z() / body.invariants.I1));
  for (long j = 0; j < body.modes.cols(); ++j) {
    const double f = std::sqrt(std::max(0.0, body.eigenvalues(j))) / (2 * std::numbers::pi);
    r.add(format("  mode %3ld  %12.6g Hz  %s", j + 1, f, toString(body.kinds[j])));
  }
  const Eigen::MatrixXd shares = effectiveMassShares(body);
  Eigen::Vector3d fixedInterface = Eigen::Vector3d::Zero();
  int fixedCount = 0;
  for (long j = 0; j < shares.cols(); ++j)
    if (std::size_t(j) < body.kinds.size() && body.kinds[std::size_t(j)] == ModeKind::FixedInterface) {
      fixedInterface += shares.col(j);
      ++fixedCount;
    }
  if (fixedCount > 0)
    r.add(format("effective mass of the %d fixed-interface modes: x %.1f %%, y %.1f %%, z %.1f %% of the body "
                 "(the rest moves with the interfaces)",
                 fixedCount, 100 * fixedInterface.x(), 100 * fixedInterface.y(), 100 * fixedInterface.z()));
  for (const auto& itf : body.interfaces)
    r.add(format("interface %s (%s): %zu nodes, reference point (%.6g, %.6g, %.6g)", itf.name.c_str(),
                 itf.kind == Interface::Kind::Rigid ? "rigid" : "averaging", itf.nodes.size(), itf.reference.x(),
                 itf.reference.y(), itf.reference.z()));
  for (const auto& s : body.sources) r.add("source: " + s.path + " sha256=" + s.sha256);
  if (!body.created.empty()) r.add("created: " + body.created);
}

Eigen::MatrixXd effectiveMassShares(const ReducedBody& body) {
  const long m = body.modes.cols();
  Eigen::MatrixXd shares = Eigen::MatrixXd::Zero(3, m);
  const std::size_t n = body.node_mass.size();
  if (body.modes.rows() != 3 * static_cast<long>(n)) return shares;
  double total = 0.0;
  for (double mass : body.node_mass) total += mass;
  if (!(total > 0.0)) return shares;
  for (long j = 0; j < m; ++j) {
    Eigen::Vector3d participation = Eigen::Vector3d::Zero();
    double generalised = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const Eigen::Vector3d phi = body.modes.block<3, 1>(3 * static_cast<long>(k), j);
      participation += body.node_mass[k] * phi;
      generalised += body.node_mass[k] * phi.squaredNorm();
    }
    if (generalised > 0.0) shares.col(j) = participation.array().square().matrix() / (generalised * total);
  }
  return shares;
}

}  // namespace flexim::fe
