#include "core/fe/reduction.h"

#include "core/base/rotation.h"
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/sparse_block.h"
#include "core/fe/stiffening.h"
#include "core/fe/stress.h"
#include "core/fe/surface.h"

#include <Eigen/CholmodSupport>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <cstdio>
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

/// The coupling of the deck a spec names: by name, or by its reference node id; nullptr if none.
const Coupling* findCoupling(const FeModel& mesh, const std::string& key) {
  for (const Coupling& c : mesh.couplings)
    if (c.name == upper(key)) return &c;
  const bool digits = !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits) return nullptr;
  const int node = mesh.indexOf(std::atoi(key.c_str()));
  for (const Coupling& c : mesh.couplings)
    if (node >= 0 && c.reference_node == node) return &c;
  return nullptr;
}

/// Sets the reference point the user chose; false (with an error) when it cannot be had.
bool chooseReference(const FeModel& mesh, const InterfaceSpec& spec, std::vector<double>& areas, Interface& itf,
                     Diagnostics& diag) {
  using R = InterfaceSpec::Reference;
  if (spec.reference == R::Default) return true;
  const std::string where = "interface " + spec.set;
  if (spec.reference == R::Point) {
    if (!spec.point.allFinite()) {
      diag.error(where, "the reference point is not a finite point");
      return false;
    }
    itf.reference = spec.point;
  } else if (spec.reference == R::Node) {
    const int k = mesh.indexOf(spec.node_id);
    if (k < 0) {
      diag.error(where, "the reference node " + std::to_string(spec.node_id) + " is not in the mesh");
      return false;
    }
    itf.reference = mesh.coords[static_cast<std::size_t>(k)];
  } else {
    if (spec.reference == R::AreaCentroid && areas.empty()) areas = surfaceNodeAreas(mesh);
    double total = 0;
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int k : itf.nodes) {
      const double w = spec.reference == R::AreaCentroid ? areas[static_cast<std::size_t>(k)] : 1.0;
      total += w;
      sum += w * mesh.coords[static_cast<std::size_t>(k)];
    }
    if (!(total > 0)) {
      diag.error(where, "none of its nodes is on the outer surface: it has no area-weighted centroid");
      return false;
    }
    itf.reference = sum / total;
  }
  itf.reference_given = true;
  return true;
}

/// Resolves interfaces from node sets or couplings; reference point = centroid of the set's nodes,
/// or the coupling's reference node, unless the spec chooses another.
bool resolveInterfaces(const FeModel& mesh, const std::vector<InterfaceSpec>& specs, std::vector<Interface>& out,
                       Diagnostics& diag) {
  std::set<int> used;
  std::vector<double> areas;  // tributary areas, computed when first needed
  for (const auto& spec : specs) {
    Interface itf;
    const auto set = mesh.node_sets.find(upper(spec.set));
    if (set != mesh.node_sets.end() && !set->second.empty()) {
      itf.name = set->first;
      itf.kind = spec.kind.value_or(Interface::Kind::Rigid);
      itf.nodes = set->second;
      for (int n : itf.nodes) itf.reference += mesh.coords[static_cast<std::size_t>(n)];
      itf.reference /= static_cast<double>(itf.nodes.size());
    } else if (const Coupling* c = findCoupling(mesh, spec.set)) {
      itf.name = c->name;
      itf.kind = spec.kind.value_or(c->rigid ? Interface::Kind::Rigid : Interface::Kind::Averaging);
      itf.nodes = c->nodes;
      itf.reference_node = c->reference_node;
      itf.weights = c->weights;
      itf.reference = mesh.coords[static_cast<std::size_t>(c->reference_node)];
      if (itf.nodes.empty()) {
        diag.error("interface " + spec.set, "the coupling " + c->name + " (" + c->where + ") attaches no node");
        continue;
      }
      // solid nodes have no rotations: a rotary inertia on the reference node is not in the body
      for (const RotaryInertia& j : mesh.rotary_inertias)
        if (j.node == c->reference_node)
          diag.warning("interface " + c->name, j.label + " on the reference node is not in the reduced body (its rotary "
                                                         "inertia needs rotational DOFs); only its point mass, if any, is");
    } else {
      std::string known;
      for (const auto& [name, nodes] : mesh.node_sets) known += (known.empty() ? "" : ", ") + name;
      for (const Coupling& cp : mesh.couplings)
        known += (known.empty() ? "" : ", ") + cp.name + " (ref node " +
                 std::to_string(mesh.node_ids[static_cast<std::size_t>(cp.reference_node)]) + ")";
      diag.error("interface " + spec.set,
                 "no node set or coupling of that name (node sets and couplings: " + (known.empty() ? "none" : known) + ")");
      continue;
    }
    if (!chooseReference(mesh, spec, areas, itf, diag)) continue;
    std::vector<int> nodes = itf.nodes;
    if (itf.reference_node >= 0) nodes.push_back(itf.reference_node);
    for (int n : nodes)
      if (!used.insert(n).second) {
        diag.error("interface " + spec.set, "shares node " + std::to_string(mesh.node_ids[n]) + " with another interface");
        break;
      }
    out.push_back(std::move(itf));
  }
  return !diag.hasErrors();
}

/// Craig-Bampton: the reference nodes of coupling interfaces move with their interface, so they
/// are not left out (and their point masses are in the modes).
ActiveDofs withoutReferenceNodes(ActiveDofs a, const std::vector<Interface>& interfaces, const SpMat& M) {
  double removed = 0;
  for (const Interface& itf : interfaces) {
    const int k = itf.reference_node;
    if (k < 0) continue;
    const auto it = std::find(a.orphan_nodes.begin(), a.orphan_nodes.end(), k);
    if (it == a.orphan_nodes.end()) continue;
    a.orphan_mass.erase(a.orphan_mass.begin() + (it - a.orphan_nodes.begin()));
    a.orphan_nodes.erase(it);
    for (int d = 3 * k; d < 3 * k + 3; ++d) removed += std::max(0.0, M.coeff(d, d)) / 3;
  }
  a.left_out_mass -= removed;
  if (a.left_out_mass < 1e-9 * removed) a.left_out_mass = 0;  // round-off of the subtraction
  return a;
}

/// Centre of mass and inertia about it of a body's invariants.
void massProperties(const ModalInvariants& inv, Eigen::Vector3d& centre, Eigen::Matrix3d& inertia) {
  centre = inv.I1 > 0 ? Eigen::Vector3d(inv.I2 / inv.I1) : Eigen::Vector3d::Zero();
  inertia = inv.J0 - inv.I1 * (centre.squaredNorm() * Eigen::Matrix3d::Identity() - centre * centre.transpose());
}

/// Fills the report's comparison of the chosen invariants with the other mass's, and says it.
void compareInvariantMasses(const ModalInvariants& chosen, const ModalInvariants& other, const std::vector<ModeKind>& kinds,
                            bool consistent, ReductionReport& r, Diagnostics& diag) {
  massProperties(chosen, r.centre_of_mass, r.inertia);
  Eigen::Vector3d c;
  Eigen::Matrix3d J;
  massProperties(other, c, J);
  r.other_mass_centre_shift = (c - r.centre_of_mass).norm();
  r.other_mass_inertia_change = (J - r.inertia).norm() / std::max(r.inertia.norm(), 1e-300);
  r.other_mass_modal_mass_change = 0;
  r.other_mass_modal_mass_mode = -1;
  for (int j = 0; j < chosen.modeCount(); ++j) {
    if (kinds[static_cast<std::size_t>(j)] == ModeKind::Rigid || !(chosen.Mbar(j, j) > 0)) continue;
    const double change = std::abs(other.Mbar(j, j) - chosen.Mbar(j, j)) / chosen.Mbar(j, j);
    if (change > r.other_mass_modal_mass_change) {
      r.other_mass_modal_mass_change = change;
      r.other_mass_modal_mass_mode = j;
    }
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "inertia invariants from the %s; the %s would move the centre of mass by %.3g m, change the inertia "
                "tensor by %.3g %% and the modal masses by up to %.3g %%%s",
                consistent ? "consistent mass matrix (the modes' own mass)" : "lumped (HRZ) nodal masses, as asked",
                consistent ? "lumped (HRZ) nodal masses" : "consistent mass matrix", r.other_mass_centre_shift,
                100 * r.other_mass_inertia_change, 100 * r.other_mass_modal_mass_change,
                r.other_mass_modal_mass_mode >= 0 ? (" (mode " + std::to_string(r.other_mass_modal_mass_mode + 1) + ")").c_str() : "");
  diag.info("reduce", text);
}

}  // namespace

bool parseInterfaceReference(const std::string& input, InterfaceSpec& spec, std::string& error) {
  std::string t;
  for (char c : input) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto first = t.find_first_not_of(" \t"), last = t.find_last_not_of(" \t");
  t = first == std::string::npos ? std::string() : t.substr(first, last - first + 1);
  using R = InterfaceSpec::Reference;
  if (t.empty() || t == "default") {
    spec.reference = R::Default;
    return true;
  }
  if (t == "centroid") {
    spec.reference = R::Centroid;
    return true;
  }
  if (t == "area-centroid" || t == "area centroid" || t == "area-weighted centroid") {
    spec.reference = R::AreaCentroid;
    return true;
  }
  if (t.rfind("node", 0) == 0) {
    std::string id = t.substr(4);
    id.erase(0, id.find_first_not_of(" :="));
    char* end = nullptr;
    const long v = std::strtol(id.c_str(), &end, 10);
    if (id.empty() || *end != '\0' || v <= 0 || v > std::numeric_limits<int>::max()) {
      error = "'" + input + "': a node is given as node ID, e.g. node 12";
      return false;
    }
    spec.reference = R::Node;
    spec.node_id = static_cast<int>(v);
    return true;
  }
  double x[3];
  const char* p = t.c_str();
  for (int a = 0; a < 3; ++a) {
    while (*p == ' ' || (a > 0 && *p == ',')) ++p;
    char* end = nullptr;
    x[a] = std::strtod(p, &end);
    if (end == p || !std::isfinite(x[a])) {
      error = "'" + input + "': give default, centroid, area-centroid, node ID, or a point X,Y,Z in metres";
      return false;
    }
    p = end;
  }
  while (*p == ' ') ++p;
  if (*p != '\0') {
    error = "'" + input + "': give default, centroid, area-centroid, node ID, or a point X,Y,Z in metres";
    return false;
  }
  spec.reference = R::Point;
  spec.point = Eigen::Vector3d(x[0], x[1], x[2]);
  return true;
}

std::string interfaceReferenceText(const InterfaceSpec& spec) {
  using R = InterfaceSpec::Reference;
  switch (spec.reference) {
    case R::Default: return "default";
    case R::Centroid: return "centroid";
    case R::AreaCentroid: return "area-centroid";
    case R::Node: return "node " + std::to_string(spec.node_id);
    case R::Point: break;
  }
  char text[96];
  std::snprintf(text, sizeof text, "%.9g,%.9g,%.9g", spec.point.x(), spec.point.y(), spec.point.z());
  return text;
}

std::vector<double> surfaceNodeAreas(const FeModel& mesh) {
  std::vector<double> area(mesh.nodeCount(), 0.0);
  for (const auto& t : outerSurface(mesh)) {
    const double a = 0.5 * (mesh.coords[t[1]] - mesh.coords[t[0]]).cross(mesh.coords[t[2]] - mesh.coords[t[0]]).norm();
    for (int k : t) area[k] += a / 3;
  }
  return area;
}

bool interfaceTransform(const std::vector<Eigen::Vector3d>& coords, std::vector<Interface>& interfaces,
                        const std::vector<double>& node_weight, SpMat& T, std::string& error) {
  const int n = static_cast<int>(coords.size()), ndof = 3 * n;
  // dependent dofs: u_dep = D_q q_ref + D_u u_free (rows built per interface below)
  std::vector<int> dependent(ndof, -1);  // -> row in `rows`
  struct DepRow {
    int interface;
    Eigen::Matrix<double, 1, 6> ref;       // coefficients on the interface's reference dofs
    std::vector<std::pair<int, double>> free;  // (dof, coefficient) on free dofs
  };
  std::vector<DepRow> rows;
  for (size_t i = 0; i < interfaces.size(); ++i) {
    Interface& itf = interfaces[i];
    if (itf.reference_node >= 0)  // a coupling's reference node moves rigidly with the interface
      for (int a = 0; a < 3; ++a) {
        DepRow r{static_cast<int>(i), Eigen::Matrix<double, 1, 6>::Zero(), {}};
        r.ref(a) = 1;
        r.ref.tail<3>() = (-skew(coords[static_cast<std::size_t>(itf.reference_node)] - itf.reference)).row(a);
        dependent[3 * itf.reference_node + a] = static_cast<int>(rows.size());
        rows.push_back(std::move(r));
      }
    if (itf.kind == Interface::Kind::Rigid) {
      for (int k : itf.nodes) {
        // u_k = t + theta x (x_k - p) = [I, -(x_k - p)~] [t; theta]
        const Eigen::Matrix3d S = -skew(coords[k] - itf.reference);
        for (int a = 0; a < 3; ++a) {
          DepRow r{static_cast<int>(i), Eigen::Matrix<double, 1, 6>::Zero(), {}};
          r.ref(a) = 1;
          r.ref.tail<3>() = S.row(a);
          dependent[3 * k + a] = static_cast<int>(rows.size());
          rows.push_back(std::move(r));
        }
      }
      continue;
    }
    // averaging: weights, weighted centroid, C = A^-1 [w_k S_k^T]
    const int m = static_cast<int>(itf.nodes.size());
    std::vector<double> w(m, 1.0);
    double wsum = 0;
    for (int j = 0; j < m; ++j) {
      if (itf.weights.size() == itf.nodes.size()) w[j] = itf.weights[j];  // the deck's own weights
      else if (!node_weight.empty() && node_weight[itf.nodes[j]] > 0) w[j] = node_weight[itf.nodes[j]];
      wsum += w[j];
    }
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (int j = 0; j < m; ++j) p += w[j] * coords[itf.nodes[j]];
    if (itf.reference_node < 0 && !itf.reference_given) itf.reference = p / wsum;  // else kept
    Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::MatrixXd B(6, 3 * m);
    for (int j = 0; j < m; ++j) {
      Eigen::Matrix<double, 3, 6> S;
      S << Eigen::Matrix3d::Identity(), -skew(coords[itf.nodes[j]] - itf.reference);
      A += w[j] * S.transpose() * S;
      B.middleCols<3>(3 * j) = w[j] * S.transpose();
    }
    Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(A);
    if (lu.rank() < 6) {
      error = "averaging interface " + itf.name + ": nodes are collinear, the reference rotation is undefined";
      return false;
    }
    const Eigen::MatrixXd C = lu.solve(B);  // u_ref = C u_S
    // eliminate the 6 best-conditioned node dofs: u_dep = Cd^-1 (q - Ci u_ind)
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(C);
    const auto& perm = qr.colsPermutation().indices();
    Eigen::Matrix<double, 6, 6> Cd;
    std::vector<int> dep(6);
    for (int a = 0; a < 6; ++a) {
      dep[a] = perm(a);
      Cd.col(a) = C.col(perm(a));
    }
    const Eigen::Matrix<double, 6, 6> Cdi = Cd.inverse();
    for (int a = 0; a < 6; ++a) {
      DepRow r{static_cast<int>(i), Cdi.row(a), {}};
      for (int col = 0; col < 3 * m; ++col) {
        if (std::find(dep.begin(), dep.end(), col) != dep.end()) continue;
        const double coef = -(Cdi.row(a) * C.col(col))(0);
        if (coef != 0) r.free.push_back({3 * itf.nodes[col / 3] + col % 3, coef});
      }
      dependent[3 * itf.nodes[dep[a] / 3] + dep[a] % 3] = static_cast<int>(rows.size());
      rows.push_back(std::move(r));
    }
  }
  // column numbering: free dofs first, then 6 per interface
  std::vector<int> column(ndof, -1);
  int nfree = 0;
  for (int d = 0; d < ndof; ++d)
    if (dependent[d] < 0) column[d] = nfree++;
  std::vector<Eigen::Triplet<double>> t;
  for (int d = 0; d < ndof; ++d) {
    if (dependent[d] < 0) {
      t.emplace_back(d, column[d], 1.0);
      continue;
    }
    const DepRow& r = rows[dependent[d]];
    for (int a = 0; a < 6; ++a)
      if (r.ref(a) != 0) t.emplace_back(d, nfree + 6 * r.interface + a, r.ref(a));
    for (const auto& [dof, coef] : r.free) t.emplace_back(d, column[dof], coef);
  }
  T.resize(ndof, nfree + 6 * static_cast<int>(interfaces.size()));
  T.setFromTriplets(t.begin(), t.end());
  return true;
}

bool reduce(const FeModel& mesh, const ReductionOptions& opt, ReducedBody& out, ReductionReport& report,
            Diagnostics& diag) {
  auto start = std::chrono::steady_clock::now();
  AssemblyOptions aopt;
  aopt.override_material = opt.material;
  aopt.override_density = opt.density;
  AssembledMatrices mats;
  if (!assemble(mesh, aopt, mats, diag)) return false;
  report.seconds_assembly = seconds(start);
  report.mass = mats.mass;
  report.volume = mats.volume;
  report.symmetry_error = relativeAsymmetry(mats.K);
  // a free-free reduction reads only the lower triangles from here on (half the memory of K and
  // M); Craig-Bampton's interface transformation T^T K T needs them whole
  if (opt.method == ReductionOptions::Method::FreeFree) {
    keepLowerTriangle(mats.K);
    keepLowerTriangle(mats.M);
  }

  std::vector<Interface> interfaces;
  if (!resolveInterfaces(mesh, opt.interfaces, interfaces, diag)) return false;
  // the couplings that are not interfaces are applied as the deck defines them
  std::vector<std::string> interfaceNames;
  for (const Interface& itf : interfaces) interfaceNames.push_back(itf.name);
  const std::optional<FeModel> applied = withCouplingsApplied(mesh, interfaceNames, diag);
  const FeModel& model = applied ? *applied : mesh;
  if (const std::string problem = supportingConstraints(model); !problem.empty()) {
    diag.error("constraints", problem);
    return false;
  }

  out = ReducedBody{};
  out.node_ids = mesh.node_ids;
  out.coords = mesh.coords;
  out.node_mass = mats.lumped_node_mass;
  out.interfaces = interfaces;
  report.lumped_mass = 0;
  for (double mk : out.node_mass) report.lumped_mass += mk;

  // nodes without stiffness stay out of the eigen solution; an interface cannot hold on to them
  const ActiveDofs active = activeDofs(mats.K, mats.M, mesh.nodeCount());
  noteLeftOut(model, opt.method == ReductionOptions::Method::CraigBampton ? withoutReferenceNodes(active, interfaces, mats.M) : active,
              diag);
  for (const Interface& itf : interfaces)
    for (int k : itf.nodes)
      if (active.index[static_cast<std::size_t>(3 * k)] < 0 || active.index[static_cast<std::size_t>(3 * k + 1)] < 0 ||
          active.index[static_cast<std::size_t>(3 * k + 2)] < 0) {
        diag.error("interface " + itf.name,
                   "node " + std::to_string(mesh.node_ids[static_cast<std::size_t>(k)]) +
                       " belongs to no element (a coupling or rigid-body reference node?): nothing connects it to "
                       "the structure; name the coupling itself as the interface (`flexim-cli info` lists them)");
        break;
      }
  if (diag.hasErrors()) return false;

  ModalOptions mopt;
  mopt.elastic_modes = opt.modes;
  mopt.max_frequency_hz = opt.max_frequency_hz;
  start = std::chrono::steady_clock::now();
  // the stiffening's static load cases of a free body ride on the eigen solution's factorisation
  // (ModalResult::static_displacements) instead of a second one
  if (opt.geometric_stiffening && opt.method == ReductionOptions::Method::FreeFree)
    mopt.static_loads = [&] {
      Eigen::MatrixXd F;
      std::string error;  // a failure leaves F empty: the solve below then reports it
      stiffeningLoads(mesh.coords, mats.M, interfaces, F, error);
      return F;
    };
  if (opt.method == ReductionOptions::Method::FreeFree) {
    mopt.exact_rigid_modes = opt.exact_rigid_modes;
    if (!freeModesOfMesh(model, mats.K, mats.M, mopt, report.modal, diag)) return false;
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
    SpMat T;
    std::string error;
    if (!interfaceTransform(mesh.coords, interfaces, surfaceNodeAreas(mesh), T, error)) {
      diag.error("reduce", error);
      return false;
    }
    out.interfaces = interfaces;  // averaging interfaces moved their reference points
    const int firstInterfaceColumn = static_cast<int>(T.cols()) - 6 * static_cast<int>(interfaces.size());
    if (!model.constraints.empty()) {
      // the constraints in the coordinates [free dofs; interfaces]: only free dofs may be eliminated
      std::vector<int> first;
      const SpMat Gdofs = constraintRows(model, first), G = SpMat(Gdofs * T);
      // a constraint within a rigid interface cancels: to the round-off of |G| |T|
      const SpMat size = SpMat(Gdofs.cwiseAbs()) * SpMat(T.cwiseAbs());
      std::vector<double> scale(static_cast<std::size_t>(G.rows()), 0.0);
      for (Eigen::Index j = 0; j < size.outerSize(); ++j)
        for (SpMat::InnerIterator it(size, j); it; ++it)
          scale[std::size_t(it.row())] = std::max(scale[std::size_t(it.row())], it.value());
      std::vector<char> eliminable(static_cast<std::size_t>(T.cols()), 0);
      std::fill(eliminable.begin(), eliminable.begin() + firstInterfaceColumn, 1);
      Elimination e;
      if (const int row = eliminate(G, std::vector<int>(first.size(), -1), eliminable, e, scale); row >= 0) {
        const LinearConstraint& c = model.constraints[static_cast<std::size_t>(row)];
        diag.error("constraints", c.label + " (" + c.where + ") acts on interface nodes only, which move with their "
                                  "interfaces: it would tie the interfaces' rigid motions together; make one interface of "
                                  "them, or leave the nodes interior");
        return false;
      }
      T = SpMat(T * e.T);
    }
    if (!active.all() || !model.constraints.empty()) {
      // drop the free columns without stiffness (left-out dofs): their modes then stay zero there
      std::vector<Eigen::Triplet<double>> kept;
      std::vector<int> column(static_cast<std::size_t>(T.cols()), -1);
      int next = 0;
      const int firstInterface = static_cast<int>(T.cols()) - 6 * static_cast<int>(interfaces.size());
      const SpMat KT = mats.K * T;
      for (int j = 0; j < T.cols(); ++j) {
        // interface columns stay (they may move a left-out reference node of a coupling)
        const bool keep = j >= firstInterface || T.col(j).dot(KT.col(j)) > 0;
        if (keep) column[static_cast<std::size_t>(j)] = next++;
      }
      for (int j = 0; j < T.cols(); ++j)
        if (column[static_cast<std::size_t>(j)] >= 0)
          for (SpMat::InnerIterator it(T, j); it; ++it) kept.emplace_back(it.row(), column[static_cast<std::size_t>(j)], it.value());
      T.resize(T.rows(), next);
      T.setFromTriplets(kept.begin(), kept.end());
    }
    const SpMat Kr = SpMat(T.transpose() * mats.K * T), Mr = SpMat(T.transpose() * mats.M * T);
    const int nb = 6 * static_cast<int>(interfaces.size()), ni = static_cast<int>(Kr.rows()) - nb;
    const SpMat Kii = Kr.topLeftCorner(ni, ni), Kib = Kr.topRightCorner(ni, nb), Mii = Mr.topLeftCorner(ni, ni);
    Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> llt;
    llt.cholmod().print = 0;  // its failure is reported below, not printed on stdout
    llt.compute(Kii);
    if (llt.info() != Eigen::Success) {
      diag.error("reduce", "the stiffness with fixed interfaces is singular: the interfaces do not hold the body");
      return false;
    }
    // static constraint modes: unit motion of each interface dof, interior in equilibrium
    const Eigen::MatrixXd Psi = -llt.solve(Eigen::MatrixXd(Kib));
    // fixed-interface normal modes
    mopt.expected_rigid = 0;
    mopt.exact_rigid_modes = false;
    if (!freeModes(Kii, Mii, {}, mopt, report.modal, diag)) return false;
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
    out.method = "Craig-Bampton: " + std::to_string(nb) + " constraint + " + std::to_string(nk) + " fixed-interface modes (" +
                 std::to_string(interfaces.size()) + " interfaces)";
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
  report.seconds_eigen = seconds(start) - report.modal.seconds.statics;
  if (opt.stress_modes) {
    start = std::chrono::steady_clock::now();
    if (!nodalStresses(mesh, aopt, out.modes, out.stress_modes, diag)) return false;
    if (!nodalElasticity(mesh, aopt, out.node_elasticity, diag)) return false;
    report.seconds_stress = seconds(start);
    out.method += ", stress modes";
  }
  if (opt.geometric_stiffening) {
    start = std::chrono::steady_clock::now();
    Eigen::MatrixXd loadCases;
    std::string error;
    report.stiffening_on_eigen_factor = report.modal.static_displacements.size() > 0;
    if (report.stiffening_on_eigen_factor) {
      loadCases = std::move(report.modal.static_displacements);
      report.modal.static_displacements.resize(0, 0);
    }
    const bool ownSolve = !report.stiffening_on_eigen_factor;
    const Elimination tied = model.constraints.empty() || !ownSolve ? Elimination{} : eliminateConstraints(model);
    if (ownSolve && !stiffeningLoadCases(mesh.coords, mats.K, mats.M, active, out.interfaces, loadCases, error,
                                         model.constraints.empty() ? nullptr : &tied)) {
      diag.warning("reduce", "geometric stiffening left out: " + error);
    } else {
      if (!modalGeometricStiffness(mesh, aopt, loadCases, out.modes, out.geometric_stiffness, diag)) return false;
      out.method += ", geometric stiffening (" + std::to_string(out.geometric_stiffness.size()) + " load cases)";
    }
    report.seconds_stiffening = seconds(start) + report.modal.seconds.statics;
  }
  Eigen::MatrixXd Kbar = out.modes.transpose() * timesBlock(mats.K, out.modes);
  Kbar = 0.5 * (Kbar + Kbar.transpose());
  const bool consistent = opt.invariant_mass == ReductionOptions::InvariantMass::Consistent;
  const ModalInvariants withConsistent = computeInvariants(out.coords, scalarMass(mats.M), out.modes, Kbar);
  const ModalInvariants withLumped = computeInvariants(out.coords, out.node_mass, out.modes, Kbar);
  out.invariants = consistent ? withConsistent : withLumped;
  compareInvariantMasses(out.invariants, consistent ? withLumped : withConsistent, out.kinds, consistent, report, diag);
  out.method += consistent ? ", consistent-mass invariants" : ", lumped-mass invariants";
  return true;
}

}  // namespace flexim::fe
