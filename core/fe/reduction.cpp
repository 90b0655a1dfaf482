#include "core/fe/reduction.h"

#include "core/base/rotation.h"
#include "core/fe/assembly.h"

#include <Eigen/CholmodSupport>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>

namespace flexim::fe {

using SpMat = Eigen::SparseMatrix<double>;

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// Resolves interface node sets; reference point = centroid of the set's nodes.
bool resolveInterfaces(const FeModel& mesh, const std::vector<InterfaceSpec>& specs, std::vector<Interface>& out,
                       Diagnostics& diag) {
  std::set<int> used;
  for (const auto& spec : specs) {
    const auto it = mesh.node_sets.find(upper(spec.set));
    if (it == mesh.node_sets.end() || it->second.empty()) {
      std::string known;
      for (const auto& [name, nodes] : mesh.node_sets) known += (known.empty() ? "" : ", ") + name;
      diag.error("interface " + spec.set, "no node set of that name (node sets: " + (known.empty() ? "none" : known) + ")");
      continue;
    }
    Interface itf;
    itf.name = it->first;
    itf.kind = spec.kind;
    itf.nodes = it->second;
    for (int n : itf.nodes) {
      if (!used.insert(n).second) {
        diag.error("interface " + spec.set, "shares node " + std::to_string(mesh.node_ids[n]) + " with another interface");
        break;
      }
      itf.reference += mesh.coords[n];
    }
    itf.reference /= static_cast<double>(itf.nodes.size());
    out.push_back(std::move(itf));
  }
  return !diag.hasErrors();
}

/// Mass properties from lumped nodal masses: total, centre of mass, inertia about it.
void massProperties(const std::vector<Eigen::Vector3d>& x, const std::vector<double>& m, ReductionReport& r) {
  r.lumped_mass = 0;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (size_t k = 0; k < x.size(); ++k) {
    r.lumped_mass += m[k];
    c += m[k] * x[k];
  }
  if (r.lumped_mass > 0) c /= r.lumped_mass;
  r.centre_of_mass = c;
  r.inertia.setZero();
  for (size_t k = 0; k < x.size(); ++k) {
    const Eigen::Matrix3d s = skew(x[k] - c);
    r.inertia -= m[k] * s * s;
  }
}

}  // namespace

SpMat rigidInterfaceTransform(const std::vector<Eigen::Vector3d>& coords, const std::vector<Interface>& interfaces,
                              std::vector<int>& interior) {
  const int n = static_cast<int>(coords.size());
  std::vector<int> owner(n, -1);
  for (size_t i = 0; i < interfaces.size(); ++i)
    for (int node : interfaces[i].nodes) owner[node] = static_cast<int>(i);
  interior.clear();
  for (int k = 0; k < n; ++k)
    if (owner[k] < 0) interior.push_back(k);
  const int ni = static_cast<int>(interior.size());
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(3 * ni + 12 * (n - ni));
  for (int i = 0; i < ni; ++i)
    for (int a = 0; a < 3; ++a) t.emplace_back(3 * interior[i] + a, 3 * i + a, 1.0);
  for (int k = 0; k < n; ++k) {
    if (owner[k] < 0) continue;
    const int col = 3 * ni + 6 * owner[k];
    // u_k = t + theta x (x_k - p) = [I, -skew(x_k - p)] [t; theta]
    const Eigen::Matrix3d S = -skew(coords[k] - interfaces[owner[k]].reference);
    for (int a = 0; a < 3; ++a) {
      t.emplace_back(3 * k + a, col + a, 1.0);
      for (int b = 0; b < 3; ++b)
        if (S(a, b) != 0) t.emplace_back(3 * k + a, col + 3 + b, S(a, b));
    }
  }
  SpMat T(3 * n, 3 * ni + 6 * static_cast<int>(interfaces.size()));
  T.setFromTriplets(t.begin(), t.end());
  return T;
}

bool reduce(const FeModel& mesh, const ReductionOptions& opt, ReducedBody& out, ReductionReport& report,
            Diagnostics& diag) {
  auto start = std::chrono::steady_clock::now();
  AssemblyOptions aopt;
  aopt.override_material = opt.material;
  AssembledMatrices mats;
  if (!assemble(mesh, aopt, mats, diag)) return false;
  report.seconds_assembly = seconds(start);
  report.mass = mats.mass;
  report.volume = mats.volume;
  const SpMat Kt = mats.K.transpose();
  report.symmetry_error = (mats.K - Kt).norm() / std::max(mats.K.norm(), 1e-300);

  std::vector<Interface> interfaces;
  if (!resolveInterfaces(mesh, opt.interfaces, interfaces, diag)) return false;

  out = ReducedBody{};
  out.node_ids = mesh.node_ids;
  out.coords = mesh.coords;
  out.node_mass = mats.lumped_node_mass;
  out.interfaces = interfaces;
  massProperties(out.coords, out.node_mass, report);

  ModalOptions mopt;
  mopt.elastic_modes = opt.modes;
  mopt.max_frequency_hz = opt.max_frequency_hz;
  start = std::chrono::steady_clock::now();
  if (opt.method == ReductionOptions::Method::FreeFree) {
    mopt.exact_rigid_modes = opt.exact_rigid_modes;
    if (!freeModes(mats.K, mats.M, mesh.coords, mopt, report.modal, diag)) return false;
    out.modes = report.modal.modes;
    out.eigenvalues = report.modal.eigenvalues;
    for (bool r : report.modal.rigid) out.kinds.push_back(r ? ModeKind::Rigid : ModeKind::Elastic);
    out.method = "free-free: " + std::to_string(report.modal.rigid_count) + " rigid + " +
                 std::to_string(out.modes.cols() - report.modal.rigid_count) + " elastic modes";
  } else {
    if (interfaces.empty()) {
      diag.error("reduce", "Craig-Bampton needs at least one interface node set");
      return false;
    }
    for (const auto& itf : interfaces)
      if (itf.kind == Interface::Kind::Averaging) {
        diag.error("interface " + itf.name,
                   "averaging (RBE3-like) interfaces are not supported by the Craig-Bampton reduction yet; use :rigid");
        return false;
      }
    std::vector<int> interior;
    const SpMat T = rigidInterfaceTransform(mesh.coords, interfaces, interior);
    const SpMat Kr = SpMat(T.transpose() * mats.K * T), Mr = SpMat(T.transpose() * mats.M * T);
    const int ni = 3 * static_cast<int>(interior.size()), nb = static_cast<int>(Kr.rows()) - ni;
    const SpMat Kii = Kr.topLeftCorner(ni, ni), Kib = Kr.topRightCorner(ni, nb), Mii = Mr.topLeftCorner(ni, ni);
    Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> llt(Kii);
    if (llt.info() != Eigen::Success) {
      diag.error("reduce", "the stiffness with fixed interfaces is singular: the interfaces do not hold the body");
      return false;
    }
    // static constraint modes: unit motion of each interface dof, interior in equilibrium
    const Eigen::MatrixXd Psi = -llt.solve(Eigen::MatrixXd(Kib));
    // fixed-interface normal modes
    std::vector<Eigen::Vector3d> interiorCoords;
    for (int k : interior) interiorCoords.push_back(mesh.coords[k]);
    mopt.expected_rigid = 0;
    mopt.exact_rigid_modes = false;
    if (!freeModes(Kii, Mii, interiorCoords, mopt, report.modal, diag)) return false;
    const int nk = static_cast<int>(report.modal.modes.cols());
    Eigen::MatrixXd Xr = Eigen::MatrixXd::Zero(ni + nb, nb + nk);
    Xr.topLeftCorner(ni, nb) = Psi;
    Xr.bottomLeftCorner(nb, nb).setIdentity();
    Xr.topRightCorner(ni, nk) = report.modal.modes;
    out.modes = T * Xr;
    out.eigenvalues = Eigen::VectorXd::Zero(nb + nk);
    out.eigenvalues.tail(nk) = report.modal.eigenvalues;
    out.kinds.assign(nb, ModeKind::Constraint);
    out.kinds.insert(out.kinds.end(), nk, ModeKind::FixedInterface);
    out.method = "Craig-Bampton: " + std::to_string(nb) + " constraint + " + std::to_string(nk) +
                 " fixed-interface modes (" + std::to_string(interfaces.size()) + " rigid interfaces)";
    if (opt.orthonormalise) {
      // diagonalise the reduced pencil: rigid modes come out with ~zero eigenvalues
      const Eigen::MatrixXd Kb = out.modes.transpose() * (mats.K * out.modes);
      const Eigen::MatrixXd Mb = out.modes.transpose() * (mats.M * out.modes);
      Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(0.5 * (Kb + Kb.transpose()), 0.5 * (Mb + Mb.transpose()));
      out.modes = out.modes * ges.eigenvectors();
      out.eigenvalues = ges.eigenvalues();
      const double scale = std::max(std::abs(out.eigenvalues.maxCoeff()), 1e-300);
      for (int j = 0; j < out.eigenvalues.size(); ++j) {
        const bool rigid = std::abs(out.eigenvalues(j)) < 1e-9 * scale;
        out.kinds[j] = rigid ? ModeKind::Rigid : ModeKind::Elastic;
        if (rigid) out.eigenvalues(j) = 0;
      }
      out.method += ", orthonormalised";
    }
  }
  report.seconds_eigen = seconds(start);
  const Eigen::MatrixXd Kbar = out.modes.transpose() * (mats.K * out.modes);
  out.invariants = computeInvariants(out.coords, out.node_mass, out.modes, 0.5 * (Kbar + Kbar.transpose()));
  return true;
}

}  // namespace flexim::fe
