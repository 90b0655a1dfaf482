#include "core/fe/assembly.h"

#include "core/fe/element_library.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace flexim::fe {

namespace {

constexpr int kMaxElementErrors = 20;  // per kind of error; the rest is counted

std::string num(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

/// Whether the mesh comes from a CalculiX/Abaqus deck: messages then name its keywords (other
/// formats have other cards, a Gmsh mesh has no materials at all).
bool fromInp(const FeModel& mesh) {
  if (mesh.sources.empty()) return false;
  const std::string& s = mesh.sources.front();
  return s.size() >= 4 && (s.compare(s.size() - 4, 4, ".inp") == 0 || s.compare(s.size() - 4, 4, ".INP") == 0);
}

/// Reports problems of a material used by some element; returns false if it is unusable.
bool checkMaterial(const Material& m, bool inp, Diagnostics& diag) {
  const std::string where = "material '" + m.name + "'";
  const auto missing = [&](bool has, const char* card) {
    return has ? std::string() : inp ? std::string(" (the material has no ") + card + ")" : std::string(" (the material defines none)");
  };
  bool ok = true;
  if (const std::string problem = elasticProblem(m.E, m.nu); !problem.empty()) {
    diag.error(where, problem + (m.E > 0.0 ? std::string() : missing(m.has_elastic, "*ELASTIC")));
    ok = false;
  }
  if (const std::string problem = densityProblem(m.rho); !problem.empty()) {
    diag.error(where, problem + missing(m.has_density, "*DENSITY"));
    ok = false;
  }
  return ok;
}

}  // namespace

std::string elementName(const Element& e) {
  return "element " + std::to_string(e.id) + " (" + abaqusName(e.type) + ")";
}

std::string jacobianMessage(const JacobianFailure& f) {
  std::string where = f.point == 0 ? std::string("the element centre")
                                   : std::string(f.massRule ? "mass " : "") + "integration point " + std::to_string(f.point);
  if (f.degenerate)
    return "zero Jacobian determinant (" + num(f.detJ) + ") at " + where + " — degenerate (flat) element";
  return "negative Jacobian determinant (" + num(f.detJ) + ") at " + where +
         " — inverted or badly ordered element";
}

void ElementErrors::add(const Element& e, const std::string& message) {
  if (m_count++ < kMaxElementErrors) m_diag.error(elementName(e), message);
}

bool ElementErrors::finish() {
  if (m_count > kMaxElementErrors)
    m_diag.error("mesh", std::to_string(m_count - kMaxElementErrors) + " more elements with " + m_what);
  return m_count == 0;
}

bool checkElementNodes(const FeModel& mesh, Diagnostics& diag) {
  const int n = mesh.nodeCount();
  ElementErrors badNodes(diag, "bad node indices");
  for (const Element& e : mesh.elements)
    for (int a = 0; a < nodeCount(e.type); ++a)
      if (e.nodes[a] < 0 || e.nodes[a] >= n) {
        badNodes.add(e, "node " + std::to_string(a + 1) + " has index " + std::to_string(e.nodes[a]) +
                            ", which is not a node of the mesh (" + std::to_string(n) + " nodes)");
        break;
      }
  return badNodes.finish();
}

bool resolveMaterials(const FeModel& mesh, const AssemblyOptions& opt, std::vector<const Material*>& mat,
                      std::vector<Material>& owned, Diagnostics& diag) {
  const std::size_t ne = mesh.elements.size();
  const bool inp = fromInp(mesh);
  mat.assign(ne, nullptr);
  owned = opt.override_material ? std::vector<Material>{*opt.override_material} : mesh.materials;
  if (opt.override_density > 0)
    for (Material& m : owned) {
      m.rho = opt.override_density;
      m.has_density = true;
    }
  if (opt.override_material) {
    if (!checkMaterial(owned.front(), inp, diag)) return false;
    std::fill(mat.begin(), mat.end(), &owned.front());
    return true;
  }
  bool ok = true;
  std::vector<char> used(mesh.materials.size(), 0);
  std::vector<int> unassigned;
  ElementErrors badIndex(diag, "a bad material index");
  for (std::size_t i = 0; i < ne; ++i) {
    const Element& e = mesh.elements[i];
    if (e.material < 0) {
      unassigned.push_back(static_cast<int>(i));
    } else if (e.material >= static_cast<int>(mesh.materials.size())) {
      badIndex.add(e, "material index " + std::to_string(e.material) + " does not exist (" +
                          std::to_string(mesh.materials.size()) + " materials)");
      ok = false;
    } else {
      mat[i] = &owned[static_cast<std::size_t>(e.material)];
      used[static_cast<std::size_t>(e.material)] = 1;
    }
  }
  badIndex.finish();

  if (!unassigned.empty()) {
    ok = false;
    // name the element sets none of whose elements has a material: the usual cause is a
    // missing *SOLID SECTION for that set
    std::vector<char> reported(ne, 0);
    for (const auto& [name, list] : mesh.element_sets) {
      if (list.empty()) continue;
      bool all = true;
      for (int i : list)
        if (i < 0 || i >= static_cast<int>(ne) || mesh.elements[static_cast<std::size_t>(i)].material >= 0) {
          all = false;
          break;
        }
      if (!all) continue;
      diag.error("element set " + name, std::string(inp ? "has no *SOLID SECTION/material (" : "has no material (") +
                                            std::to_string(list.size()) + " elements, e.g. " +
                                            elementName(mesh.elements[static_cast<std::size_t>(list.front())]) + ")");
      for (int i : list) reported[static_cast<std::size_t>(i)] = 1;
    }
    int rest = 0;
    std::string examples;
    for (int i : unassigned)
      if (!reported[static_cast<std::size_t>(i)]) {
        if (rest < 5) examples += (rest ? ", " : "") + elementName(mesh.elements[static_cast<std::size_t>(i)]);
        ++rest;
      }
    if (rest > 0)
      diag.error("mesh", std::to_string(rest) + " element(s) have no material" +
                             (inp ? ": no *SOLID SECTION covers them" : "") + " (e.g. " + examples + ")");
  }
  for (std::size_t m = 0; m < used.size(); ++m)
    if (used[m] && !checkMaterial(owned[m], inp, diag)) ok = false;
  return ok;
}

namespace {

/// Compressed-column pattern of the node graph: for node b, its neighbours (nodes sharing an
/// element with b, b included) nbr[start[b] .. start[b + 1]), sorted.
struct NodeGraph {
  std::vector<std::int64_t> start;
  std::vector<int> nbr;
  int degree(int b) const { return static_cast<int>(start[b + 1] - start[b]); }
  /// position of node a in b's list (a must be a neighbour)
  int position(int a, int b) const {
    const int* first = nbr.data() + start[b];
    return static_cast<int>(std::lower_bound(first, nbr.data() + start[b + 1], a) - first);
  }
};

NodeGraph buildGraph(const FeModel& mesh) {
  const int n = mesh.nodeCount();
  // node -> elements
  std::vector<std::int64_t> es(static_cast<std::size_t>(n) + 1, 0);
  for (const Element& e : mesh.elements)
    for (int a = 0; a < nodeCount(e.type); ++a) ++es[static_cast<std::size_t>(e.nodes[a]) + 1];
  for (int i = 0; i < n; ++i) es[i + 1] += es[i];
  std::vector<int> el(static_cast<std::size_t>(es[n]));
  {
    std::vector<std::int64_t> fill(es.begin(), es.end() - 1);
    for (std::size_t i = 0; i < mesh.elements.size(); ++i) {
      const Element& e = mesh.elements[i];
      for (int a = 0; a < nodeCount(e.type); ++a) el[static_cast<std::size_t>(fill[e.nodes[a]]++)] = static_cast<int>(i);
    }
  }
  NodeGraph g;
  g.start.assign(static_cast<std::size_t>(n) + 1, 0);
  g.nbr.reserve(static_cast<std::size_t>(es[n]) * 4);
  std::vector<int> mark(static_cast<std::size_t>(n), -1);
  for (int b = 0; b < n; ++b) {
    const std::size_t first = g.nbr.size();
    for (std::int64_t k = es[b]; k < es[b + 1]; ++k) {
      const Element& e = mesh.elements[static_cast<std::size_t>(el[static_cast<std::size_t>(k)])];
      for (int a = 0; a < nodeCount(e.type); ++a) {
        const int node = e.nodes[a];
        if (mark[node] != b) {
          mark[node] = b;
          g.nbr.push_back(node);
        }
      }
    }
    std::sort(g.nbr.begin() + static_cast<std::ptrdiff_t>(first), g.nbr.end());
    g.start[b + 1] = static_cast<std::int64_t>(g.nbr.size());
  }
  return g;
}

/// Allocates a compressed n x n matrix with the given column pointers (size n + 1) and zero
/// values; the caller fills the row indices.
void allocate(Eigen::SparseMatrix<double>& A, int n, const std::vector<std::int64_t>& outer) {
  A.resize(n, n);  // compressed, empty
  A.resizeNonZeros(static_cast<Eigen::Index>(outer[n]));
  for (int j = 0; j <= n; ++j) A.outerIndexPtr()[j] = static_cast<int>(outer[j]);
  std::fill(A.valuePtr(), A.valuePtr() + outer[n], 0.0);
}


/// Discrete springs and masses must name existing nodes and carry finite, non-negative values.
bool checkDiscrete(const FeModel& mesh, Diagnostics& diag) {
  bool ok = true;
  const int n = mesh.nodeCount();
  for (const auto* list : {&mesh.masses, &mesh.springs})
    for (const Discrete& d : *list) {
      if (!(d.value >= 0.0) || !std::isfinite(d.value)) {
        diag.error(d.label, std::string(list == &mesh.masses ? "mass" : "stiffness") + " " + num(d.value) +
                                " must be finite and >= 0");
        ok = false;
      }
      for (const DiscreteTerm& t : d.terms)
        if (t.node < 0 || t.node >= n || t.component < 0 || t.component > 2 || !std::isfinite(t.coefficient)) {
          diag.error(d.label, "refers to a node or direction that does not exist");
          ok = false;
          break;
        }
    }
  return ok;
}

/// Springs that resist a rigid motion make the body supported: free-free modes then fail. Said
/// once per kind, naming the first spring: grounded springs, and springs across a distance that
/// are not along the line between their nodes (without rotational DOFs they resist rotation).
void warnSupportingSprings(const FeModel& mesh, Diagnostics& diag) {
  int grounded = 0, rotating = 0;
  std::string firstGrounded, firstRotating;
  for (const Discrete& d : mesh.springs) {
    Eigen::Vector3d t = Eigen::Vector3d::Zero(), r = Eigen::Vector3d::Zero();
    double scale = 0;
    const Eigen::Vector3d x0 = mesh.coords[static_cast<std::size_t>(d.terms.empty() ? 0 : d.terms[0].node)];
    for (const DiscreteTerm& a : d.terms) {
      const Eigen::Vector3d x = mesh.coords[static_cast<std::size_t>(a.node)] - x0;
      t(a.component) += a.coefficient;
      for (int k = 0; k < 3; ++k) r(k) += a.coefficient * Eigen::Vector3d::Unit(k).cross(x)(a.component);
      scale = std::max(scale, std::abs(a.coefficient));
    }
    if (t.norm() > 1e-9 * scale) {
      if (grounded++ == 0) firstGrounded = d.label;
    } else if (r.norm() > 1e-9 * scale * std::max(1e-300, (mesh.coords[static_cast<std::size_t>(d.terms.back().node)] - x0).norm())) {
      if (rotating++ == 0) firstRotating = d.label;
    }
  }
  if (grounded)
    diag.warning(firstGrounded, std::to_string(grounded) + " spring(s) tie the body to ground: it is not free, "
                                                           "free-free modes will fail (use Craig-Bampton)");
  if (rotating)
    diag.warning(firstRotating, std::to_string(rotating) + " spring(s) join separate nodes across the line between "
                                                           "them: without rotational DOFs they resist rigid rotation");
}

/// value * c c^T of every discrete spring into K and mass into M; point masses also count in the
/// lumped nodal masses (a mass on one direction only counts a third: the lumped mass is isotropic).
void addDiscrete(const FeModel& mesh, AssembledMatrices& out) {
  auto add = [&](const std::vector<Discrete>& list, Eigen::SparseMatrix<double>& A) {
    if (list.empty()) return;
    std::vector<Eigen::Triplet<double>> t;
    for (const Discrete& d : list)
      for (const DiscreteTerm& a : d.terms)
        for (const DiscreteTerm& b : d.terms)
          t.emplace_back(3 * a.node + a.component, 3 * b.node + b.component, d.value * a.coefficient * b.coefficient);
    Eigen::SparseMatrix<double> D(A.rows(), A.cols());
    D.setFromTriplets(t.begin(), t.end());
    A = A + D;
  };
  add(mesh.springs, out.K);
  add(mesh.masses, out.M);
  for (const Discrete& d : mesh.masses)
    for (const DiscreteTerm& a : d.terms) {
      const double m = d.value * a.coefficient * a.coefficient / 3.0;
      out.lumped_node_mass[static_cast<std::size_t>(a.node)] += m;
      out.point_mass += m;
    }
}

}  // namespace

bool assemble(const FeModel& mesh, const AssemblyOptions& opt, AssembledMatrices& out, Diagnostics& diag) {
  out = AssembledMatrices{};
  const int n = mesh.nodeCount();
  const std::size_t ne = mesh.elements.size();
  if (ne == 0 && mesh.masses.empty() && mesh.springs.empty()) {
    diag.error("mesh", "has no solid elements, springs or masses to assemble");
    return false;
  }

  // --- topology and materials
  bool ok = checkElementNodes(mesh, diag);
  std::vector<const Material*> mat;
  std::vector<Material> materials;  // what mat points to
  if (!resolveMaterials(mesh, opt, mat, materials, diag)) ok = false;
  if (!checkDiscrete(mesh, diag)) ok = false;
  if (!ok) return false;

  // --- sparsity: K has full 3x3 blocks for every node pair sharing an element, the consistent
  // M only the diagonal of each block. Column 3b + c of K holds rows 3a + i (a in nbr(b), i =
  // 0..2); column 3b + c of M holds rows 3a + c.
  const NodeGraph g = buildGraph(mesh);
  const std::int64_t totalNbr = g.start[n];
  if (9 * totalNbr > std::numeric_limits<int>::max()) {
    diag.error("mesh", "too large: K would have " + std::to_string(9 * totalNbr) + " nonzeros (limit 2^31)");
    return false;
  }
  const int N = 3 * n;
  std::vector<std::int64_t> outerK(static_cast<std::size_t>(N) + 1), outerM(static_cast<std::size_t>(N) + 1);
  for (int b = 0; b < n; ++b)
    for (int c = 0; c < 3; ++c) {
      outerK[3 * b + c] = 9 * g.start[b] + 3 * c * g.degree(b);
      outerM[3 * b + c] = 3 * g.start[b] + c * g.degree(b);
    }
  outerK[N] = 9 * totalNbr;
  outerM[N] = 3 * totalNbr;
  allocate(out.K, N, outerK);
  const bool consistent = !opt.lumped;
  if (consistent) allocate(out.M, N, outerM);
  for (int b = 0; b < n; ++b) {
    const int d = g.degree(b);
    for (int c = 0; c < 3; ++c) {
      int* rk = out.K.innerIndexPtr() + outerK[3 * b + c];
      int* rm = consistent ? out.M.innerIndexPtr() + outerM[3 * b + c] : nullptr;
      for (int p = 0; p < d; ++p) {
        const int a = g.nbr[static_cast<std::size_t>(g.start[b] + p)];
        for (int i = 0; i < 3; ++i) rk[3 * p + i] = 3 * a + i;
        if (rm) rm[p] = 3 * a + c;
      }
    }
  }

  // --- element loop
  out.lumped_node_mass.assign(static_cast<std::size_t>(n), 0.0);
  double* kv = out.K.valuePtr();
  double* mv = consistent ? out.M.valuePtr() : nullptr;
  ElementCoords X;
  ElementMatrix Ke, me, meCcx;
  ElementVector lumped;
  std::array<int, 400> pos{};  // pos[a * nodes + b] = position of node a in nbr(b)
  ElementErrors badJacobian(diag, "a non-positive Jacobian determinant");
  for (std::size_t ie = 0; ie < ne; ++ie) {
    const Element& e = mesh.elements[ie];
    const ElementKind& kind = elementKind(e.type);
    const int nn = kind.nodes;
    X.resize(3, nn);
    for (int a = 0; a < nn; ++a) X.col(a) = mesh.coords[static_cast<std::size_t>(e.nodes[a])];
    const Material& m = *mat[ie];
    JacobianFailure fail;
    double vol = 0.0;
    bool good = elementStiffness(kind, X, m.E, m.nu, Ke, &fail) &&
                elementMass(kind, X, m.rho, kind.massRule, me, vol, &fail);
    if (good && consistent && opt.ccx_mass_rule) {
      double v2 = 0.0;
      good = elementMass(kind, X, m.rho, kind.ccxMassRule, meCcx, v2, &fail);
    }
    if (!good) {
      badJacobian.add(e, jacobianMessage(fail));
      continue;
    }
    if (badJacobian.count()) continue;  // no point assembling any more

    out.volume += vol;
    out.mass += m.rho * vol;
    hrzLump(me, lumped);
    for (int a = 0; a < nn; ++a) out.lumped_node_mass[static_cast<std::size_t>(e.nodes[a])] += lumped[a];

    for (int b = 0; b < nn; ++b)
      for (int a = 0; a < nn; ++a) pos[a * nn + b] = g.position(e.nodes[a], e.nodes[b]);
    const ElementMatrix& Me = (consistent && opt.ccx_mass_rule) ? meCcx : me;
    for (int b = 0; b < nn; ++b) {
      const int B = e.nodes[b];
      for (int c = 0; c < 3; ++c) {
        double* colK = kv + outerK[3 * B + c];
        for (int a = 0; a < nn; ++a) {
          double* dst = colK + 3 * pos[a * nn + b];
          for (int i = 0; i < 3; ++i) dst[i] += Ke(3 * a + i, 3 * b + c);
        }
        if (mv) {
          double* colM = mv + outerM[3 * B + c];
          for (int a = 0; a < nn; ++a) colM[pos[a * nn + b]] += Me(a, b);
        }
      }
    }
  }
  if (!badJacobian.finish()) {
    out = AssembledMatrices{};
    return false;
  }

  if (opt.lumped) {
    std::vector<std::int64_t> outer(static_cast<std::size_t>(N) + 1);
    for (int j = 0; j <= N; ++j) outer[j] = j;
    allocate(out.M, N, outer);
    for (int j = 0; j < N; ++j) {
      out.M.innerIndexPtr()[j] = j;
      out.M.valuePtr()[j] = out.lumped_node_mass[static_cast<std::size_t>(j / 3)];
    }
  }

  addDiscrete(mesh, out);
  warnSupportingSprings(mesh, diag);
  // nodes outside every element and spring keep empty rows: the eigen solution leaves them out
  // (active_dofs.h) and says which they are
  return true;
}

}  // namespace flexim::fe
