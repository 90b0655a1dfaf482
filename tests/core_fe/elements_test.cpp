// Wedges (C3D6, C3D15), the incompatible-mode brick C3D8I and pyramids (C3D5, C3D13):
// quadrature exactness, rigid-body modes and mass of single elements, the patch test on
// distorted meshes, continuity across faces shared with tetrahedra and bricks, outer surfaces,
// CalculiX 2.20 on the decks of tests/data/fe/elements (scripts/make_element_fixtures.py:
// element matrices, free-free frequencies, the .frd), the Nastran (CPENTA, CPYRAM) and gmsh
// (prism6/15, pyramid5/13) importers against equivalent decks, and the convergence of a block
// meshed with each type towards a fine C3D20 reference.
#include "core/fe/assembly.h"
#include "core/fe/element_library.h"
#include "core/fe/modal.h"
#include "core/fe/surface.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_frd.h"
#include "io/fe/import.h"
#include "io/fe/matrix_files.h"
#include "tests/core_fe/fe_test_support.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <random>
#include <sstream>

using namespace flexim;
using namespace flexim::fe;
using namespace flexim::fe::test;

namespace {

const std::string kDir = FLEXIM_SOURCE_DIR "/tests/data/fe/elements/";
const Eigen::Vector3d kBlock(0.1, 0.02, 0.01);  // the block of the fixtures [m]

Eigen::Vector3d natural(const ElementKind& k, int a) {
  const auto& x = k.naturalNodes[static_cast<std::size_t>(a)];
  return {x[0], x[1], x[2]};
}


/// The two corners of mid-edge node a (from the natural coordinates), {-1, -1} for a corner.
std::array<int, 2> edgeOf(const ElementKind& k, int a) {
  const int nc = cornerCount(k.type);
  for (int i = 0; i < nc && a >= nc; ++i)
    for (int j = i + 1; j < nc; ++j)
      if ((natural(k, i) + natural(k, j) - 2 * natural(k, a)).norm() < 1e-12) return {i, j};
  return {-1, -1};
}

/// Node coordinates of an element from its corners, mid-edge nodes on straight edges.
ElementCoords fromCorners(ElementType t, const std::vector<Eigen::Vector3d>& corners) {
  const ElementKind& k = elementKind(t);
  ElementCoords X(3, k.nodes);
  for (int a = 0; a < k.nodes; ++a) {
    const auto e = edgeOf(k, a);
    X.col(a) = e[0] < 0 ? corners[static_cast<std::size_t>(a)] : 0.5 * (corners[e[0]] + corners[e[1]]);
  }
  return X;
}

// ---- structured blocks: cells cut into bricks, 2 wedges or 6 pyramids ----------------------

using Lattice = std::array<int, 3>;  // quarter cells: corners on multiples of 4

// Abaqus brick corners of a unit cell and its faces (right-hand normals into the brick)
constexpr int kHexCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
constexpr int kHexFaces[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};

struct Block {
  FeModel model;
  Eigen::Vector3i cells;
  Eigen::Vector3d size;
  /// vertex positions (corners, cell centres) from the regular ones; mid-edge nodes stay at the
  /// middle of their straight edge
  std::function<Eigen::Vector3d(const Lattice&, const Eigen::Vector3d&)> move;
  std::map<Lattice, int> index;

  Eigen::Vector3d vertex(const Lattice& p) const {
    Eigen::Vector3d x;
    for (int d = 0; d < 3; ++d) x[d] = size[d] * p[d] / (4.0 * cells[d]);
    return move ? move(p, x) : x;
  }
  int node(const Lattice& p, const Eigen::Vector3d& x) {
    const auto it = index.find(p);
    if (it != index.end()) return it->second;
    const int i = model.addNode(model.nodeCount() + 1, x);
    index.emplace(p, i);
    return i;
  }
  void add(ElementType t, const std::vector<Lattice>& corners) {
    const ElementKind& k = elementKind(t);
    Element e;
    e.id = static_cast<int>(model.elements.size()) + 1;
    e.type = t;
    e.material = 0;
    for (int a = 0; a < k.nodes; ++a) {
      const auto ed = edgeOf(k, a);
      if (ed[0] < 0) {
        e.nodes[a] = node(corners[a], vertex(corners[a]));
      } else {
        const Lattice& p = corners[ed[0]];
        const Lattice& q = corners[ed[1]];
        e.nodes[a] = node({(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2}, 0.5 * (vertex(p) + vertex(q)));
      }
    }
    model.elements.push_back(e);
  }
  bool onBoundary(int node) const {
    for (const auto& [p, i] : index)
      if (i == node)
        for (int d = 0; d < 3; ++d)
          if (p[d] == 0 || p[d] == 4 * cells[d]) return true;
    return false;
  }
};

/// The block [0, size] with the given cells, every cell as one brick, two wedges (its x-y square
/// cut along the diagonal from corner 1 to corner 3, extruded along z) or six pyramids (apex at
/// the cell centre), all positively oriented.
Block block(ElementType t, const Eigen::Vector3i& cells, const Eigen::Vector3d& size,
            std::function<Eigen::Vector3d(const Lattice&, const Eigen::Vector3d&)> move = {}) {
  Block b;
  b.cells = cells;
  b.size = size;
  b.move = std::move(move);
  for (int k = 0; k < cells.z(); ++k)
    for (int j = 0; j < cells.y(); ++j)
      for (int i = 0; i < cells.x(); ++i) {
        std::vector<Lattice> c(8);
        for (int a = 0; a < 8; ++a)
          c[a] = {4 * (i + kHexCorner[a][0]), 4 * (j + kHexCorner[a][1]), 4 * (k + kHexCorner[a][2])};
        switch (cornerCount(t)) {
          case 6:
            b.add(t, {c[0], c[1], c[2], c[4], c[5], c[6]});
            b.add(t, {c[0], c[2], c[3], c[4], c[6], c[7]});
            break;
          case 5:
            for (const auto& f : kHexFaces)
              b.add(t, {c[f[0]], c[f[1]], c[f[2]], c[f[3]], {c[0][0] + 2, c[0][1] + 2, c[0][2] + 2}});
            break;
          default: b.add(t, c);
        }
      }
  b.model.materials = {steel()};
  return b;
}

/// Moves every inner vertex by up to `amount` cell sizes (deterministic).
std::function<Eigen::Vector3d(const Lattice&, const Eigen::Vector3d&)> distortion(const Eigen::Vector3i& cells,
                                                                                  const Eigen::Vector3d& size,
                                                                                  double amount) {
  return [=](const Lattice& p, const Eigen::Vector3d& x) {
    for (int d = 0; d < 3; ++d)
      if (p[d] == 0 || p[d] == 4 * cells[d]) return x;
    std::mt19937 rng(static_cast<unsigned>(p[0] * 7919 + p[1] * 104729 + p[2] * 1299709));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::Vector3d y = x;
    for (int d = 0; d < 3; ++d) y[d] += amount * size[d] / cells[d] * u(rng);
    return y;
  };
}

/// The lowest `count` elastic free-free frequencies [Hz].
std::vector<double> elasticHz(const FeModel& m, int count, bool ccxMass = false) {
  const AssembledMatrices am = assembleOrFail(m, ccxMass);
  ModalOptions opt;
  opt.elastic_modes = count;
  ModalResult r;
  Diagnostics diag;
  if (!freeModes(am.K, am.M, m.coords, opt, r, diag)) qWarning("%s", diag.str().c_str());
  std::vector<double> f;
  const std::vector<double> all = r.frequenciesHz();
  for (std::size_t j = 0; j < all.size(); ++j)
    if (!r.rigid[j] && static_cast<int>(f.size()) < count) f.push_back(all[j]);
  return f;
}

double maxRelDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = a.size() == b.size() ? 0.0 : 1e300;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, std::abs(a[i] / b[i] - 1));
  return d;
}

FeModel load(const std::string& name) {
  FeModel m;
  Diagnostics diag;
  if (!io::importFe(kDir + name, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

/// m with steel for every element (a .msh has no material).
FeModel withSteel(FeModel m) {
  m.materials = {steel()};
  for (Element& e : m.elements) e.material = 0;
  return m;
}

std::vector<double> ccxElasticHz(const std::string& dat) {
  std::vector<double> hz;
  Diagnostics d;
  if (!io::readCalculixDat(kDir + dat, hz, d)) qWarning("%s", d.str().c_str());
  return std::vector<double>(hz.begin() + std::min<std::size_t>(6, hz.size()), hz.end());
}

/// "" if a and b hold the same elements (types, node ids) in the same order, else the first
/// difference.
std::string differentElements(const FeModel& a, const FeModel& b) {
  if (a.elements.size() != b.elements.size())
    return std::to_string(a.elements.size()) + " vs " + std::to_string(b.elements.size()) + " elements";
  for (std::size_t e = 0; e < a.elements.size(); ++e) {
    const Element &x = a.elements[e], &y = b.elements[e];
    if (x.type != y.type) return "element " + std::to_string(e) + ": " + abaqusName(x.type) + " vs " + abaqusName(y.type);
    for (int k = 0; k < nodeCount(x.type); ++k)
      if (a.node_ids[x.nodes[k]] != b.node_ids[y.nodes[k]]) return "element " + std::to_string(e) + ": node " + std::to_string(k);
  }
  return {};
}

/// Interpolated value of nodal values u at the physical point x of an element (Newton on the
/// isoparametric map from the natural centroid).
double interpolate(const ElementKind& k, const ElementCoords& X, const Eigen::VectorXd& u, const Eigen::Vector3d& x) {
  Eigen::Vector3d xi = Eigen::Vector3d::Zero();
  for (int a = 0; a < k.nodes; ++a) xi += natural(k, a) / k.nodes;
  double N[20], dN[60];
  for (int it = 0; it < 30; ++it) {
    k.shape(xi.data(), N, dN);
    Eigen::Vector3d r = x;
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    for (int a = 0; a < k.nodes; ++a) {
      r -= N[a] * X.col(a);
      for (int d = 0; d < 3; ++d) J.col(d) += dN[3 * a + d] * X.col(a);
    }
    xi += J.inverse() * r;
  }
  k.shape(xi.data(), N, dN);
  double v = 0;
  for (int a = 0; a < k.nodes; ++a) v += N[a] * u[a];
  return v;
}

std::vector<int> interiorNodes(const Block& b) {
  std::vector<int> in;
  for (int i = 0; i < b.model.nodeCount(); ++i)
    if (!b.onBoundary(i)) in.push_back(i);
  return in;
}

const ElementType kNewTypes[] = {ElementType::Wedge6, ElementType::Wedge15, ElementType::Hex8I, ElementType::Pyramid5,
                                 ElementType::Pyramid13};

void addNewTypeRows() {
  QTest::addColumn<int>("type");
  for (ElementType t : kNewTypes) QTest::newRow(abaqusName(t)) << static_cast<int>(t);
}

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }
double lineMoment(int k) { return k % 2 ? 0.0 : 2.0 / (k + 1); }  // integral of x^k over [-1, 1]

}  // namespace

class ElementsTest : public QObject {
  Q_OBJECT
 private slots:
  // ---------------------------------------------------------------- rules and single elements
  void quadratureRules() {
    // wedges: (triangle degree, zeta degree) integrated exactly; the CalculiX points
    struct Wedge {
      std::span<const QuadPoint> rule;
      int tri, z;
    };
    for (const Wedge& c : {Wedge{quadrature::wedge2(), 1, 3}, Wedge{quadrature::wedge6(), 2, 3},
                           Wedge{quadrature::wedge9(), 2, 5}, Wedge{quadrature::wedge18(), 4, 5}})
      for (int i = 0; i <= c.tri; ++i)
        for (int j = 0; i + j <= c.tri; ++j)
          for (int k = 0; k <= c.z; ++k) {
            double s = 0;
            for (const QuadPoint& p : c.rule) s += p.w * std::pow(p.xi, i) * std::pow(p.eta, j) * std::pow(p.zeta, k);
            const double exact = factorial(i) * factorial(j) / factorial(i + j + 2) * lineMoment(k);
            QVERIFY2(std::abs(s - exact) < 1e-15, qPrintable(QString("wedge rule of %1 points: %2 %3 %4")
                                                                  .arg(c.rule.size()).arg(i).arg(j).arg(k)));
          }
    const double g = 1 / std::sqrt(3.0);
    QCOMPARE(quadrature::wedge2()[0].xi, 1.0 / 3.0);
    QVERIFY(std::abs(quadrature::wedge2()[1].zeta - g) < 1e-15 && quadrature::wedge2()[1].w == 0.5);
    QCOMPARE(quadrature::wedge9()[1].xi, 2.0 / 3.0);
    QCOMPARE(quadrature::wedge9()[1].eta, 1.0 / 6.0);
    // pyramids: integral of xi^i eta^j zeta^k = m(i) m(j) (i + j + 2)! k! / (i + j + k + 3)!,
    // exact for i, j <= 2P - 1 and i + j + 2 + k <= 2R - 1 (Gauss P x P x R collapsed)
    struct Pyramid {
      std::span<const QuadPoint> rule;
      int P, R;
    };
    for (const Pyramid& c : {Pyramid{quadrature::pyramid8(), 2, 2}, Pyramid{quadrature::pyramid12(), 2, 3},
                             Pyramid{quadrature::pyramid27(), 3, 3}, Pyramid{quadrature::pyramid36(), 3, 4}})
      for (int i = 0; i <= 2 * c.P - 1; ++i)
        for (int j = 0; j <= 2 * c.P - 1; ++j)
          for (int k = 0; i + j + 2 + k <= 2 * c.R - 1; ++k) {
            double s = 0;
            for (const QuadPoint& p : c.rule) s += p.w * std::pow(p.xi, i) * std::pow(p.eta, j) * std::pow(p.zeta, k);
            const double exact =
                lineMoment(i) * lineMoment(j) * factorial(i + j + 2) * factorial(k) / factorial(i + j + k + 3);
            QVERIFY2(std::abs(s - exact) < 2e-15, qPrintable(QString("pyramid rule of %1 points: %2 %3 %4: %5 vs %6")
                                                                  .arg(c.rule.size()).arg(i).arg(j).arg(k).arg(s).arg(exact)));
          }
  }

  void singleElement_data() { addNewTypeRows(); }
  void singleElement() {
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    const ElementKind& k = elementKind(t);
    Eigen::Matrix3d A;
    A << 0.011, 0.002, -0.001, 0.001, 0.009, 0.0015, -0.0012, 0.0008, 0.006;
    double refVolume = 0;  // of the reference element: the weights of its mass rule sum to it
    for (const QuadPoint& p : k.massRule) refVolume += p.w;
    std::vector<Eigen::Vector3d> corners;
    for (int a = 0; a < cornerCount(t); ++a) corners.push_back(A * natural(k, a));
    // mass of the affinely mapped element: rho V, also lumped; HRZ masses positive
    const ElementCoords X = fromCorners(t, corners);
    ElementMatrix m, K;
    double V = 0;
    QVERIFY(elementMass(k, X, kRho, k.massRule, m, V));
    QVERIFY(std::abs(V / (refVolume * A.determinant()) - 1) < 1e-14);
    QVERIFY(std::abs(m.sum() / (kRho * V) - 1) < 1e-14);
    ElementVector lumped;
    hrzLump(m, lumped);
    QVERIFY(lumped.minCoeff() > 0 && std::abs(lumped.sum() / (kRho * V) - 1) < 1e-14);
    // stiffness of a distorted element: symmetric, the rigid motions are free, and exactly
    // 6 + spuriousModes zero eigenvalues
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& c : corners) c += 0.002 * Eigen::Vector3d(u(rng), u(rng), u(rng));
    const ElementCoords Xd = fromCorners(t, corners);
    QVERIFY(elementStiffness(k, Xd, kE, kNu, K));
    QCOMPARE(K.rows(), 3 * k.nodes);
    QCOMPARE((K - K.transpose()).cwiseAbs().maxCoeff(), 0.0);
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * k.nodes, 6);
    for (int a = 0; a < k.nodes; ++a)
      for (int i = 0; i < 3; ++i) {
        R(3 * a + i, i) = 1;
        R.block<3, 1>(3 * a, 3 + i) = Eigen::Vector3d::Unit(i).cross(Xd.col(a));
      }
    const double rigid = (K * R).norm() / (K.norm() * R.norm());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Eigen::MatrixXd(K), Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues();
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i)
      if (ev[i] < 1e-10 * ev.maxCoeff()) ++zeros;
    qInfo("%s: |K r| / (|K| |r|) = %.1e, %d zero eigenvalues, smallest non-zero / max = %.2e, reference volume %.6g",
          k.name, rigid, zeros, ev[zeros] / ev.maxCoeff(), refVolume);
    QVERIFY(rigid < 1e-12);
    QVERIFY(ev.minCoeff() > -1e-12 * ev.maxCoeff());
    QCOMPARE(zeros, 6 + k.spuriousModes);
  }

  void spuriousModesDoNotSurviveInAMesh_data() { addNewTypeRows(); }
  void spuriousModesDoNotSurviveInAMesh() {
    // C3D6's twist mode about the prism axis: a 2 x 2 x 1 block (8 wedges) has 6 zero modes
    QFETCH(int, type);
    const Block b = block(static_cast<ElementType>(type), {2, 2, 1}, {0.02, 0.02, 0.01});
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Eigen::MatrixXd(assembleOrFail(b.model).K), Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues();
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i)
      if (ev[i] < 1e-10 * ev.maxCoeff()) ++zeros;
    QCOMPARE(zeros, 6);
  }

  void patchTest_data() { addNewTypeRows(); }
  void patchTest() {
    // a linear displacement field on a block with moved inner vertices (straight edges): the
    // nodal forces K u vanish at the inner nodes, and u^T K u = V sigma : eps
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    const Eigen::Vector3i cells(3, 3, 2);
    const Eigen::Vector3d size(0.03, 0.03, 0.02);
    const Block b = block(t, cells, size, distortion(cells, size, 0.2));
    const AssembledMatrices am = assembleOrFail(b.model);
    QVERIFY(std::abs(am.volume / size.prod() - 1) < 1e-12);
    Eigen::Matrix3d B;
    B << 1e-3, 2e-4, -3e-4, 5e-4, -2e-3, 1e-4, 3e-4, 7e-4, 1.5e-3;
    const int n = b.model.nodeCount();
    Eigen::VectorXd u(3 * n);
    for (int a = 0; a < n; ++a) u.segment<3>(3 * a) = B * b.model.coords[static_cast<std::size_t>(a)] + Eigen::Vector3d(1e-4, 0, -2e-4);
    const Eigen::VectorXd f = am.K * u;
    double inner = 0;
    for (int a : interiorNodes(b)) inner = std::max(inner, f.segment<3>(3 * a).cwiseAbs().maxCoeff());
    const double scale = f.cwiseAbs().maxCoeff();
    const Eigen::Matrix3d eps = 0.5 * (B + B.transpose());
    const double lambda = kE * kNu / ((1 + kNu) * (1 - 2 * kNu)), mu = kE / (2 * (1 + kNu));
    const double W = size.prod() * (lambda * eps.trace() * eps.trace() + 2 * mu * eps.squaredNorm());
    const double energy = u.dot(am.K * u) / W - 1;
    qInfo("%s: %zu elements, %zu inner nodes: max inner |f| / max |f| = %.1e, energy error %.1e", abaqusName(t),
          b.model.elements.size(), interiorNodes(b).size(), inner / scale, energy);
    QVERIFY(!interiorNodes(b).empty());
    QVERIFY(inner < 1e-12 * scale);
    QVERIFY(std::abs(energy) < 1e-12);
  }

  void conformingFaces_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("neighbour");
    QTest::addColumn<int>("face");  // 0-based Abaqus face of `type`
    using T = ElementType;
    QTest::newRow("C3D5 S2 | C3D4") << int(T::Pyramid5) << int(T::Tet4) << 1;
    QTest::newRow("C3D5 S1 | C3D8") << int(T::Pyramid5) << int(T::Hex8) << 0;
    QTest::newRow("C3D13 S3 | C3D10") << int(T::Pyramid13) << int(T::Tet10) << 2;
    QTest::newRow("C3D13 S1 | C3D20") << int(T::Pyramid13) << int(T::Hex20) << 0;
    QTest::newRow("C3D6 S1 | C3D4") << int(T::Wedge6) << int(T::Tet4) << 0;
    QTest::newRow("C3D6 S3 | C3D8") << int(T::Wedge6) << int(T::Hex8) << 2;
    QTest::newRow("C3D15 S2 | C3D10") << int(T::Wedge15) << int(T::Tet10) << 1;
    QTest::newRow("C3D15 S4 | C3D20") << int(T::Wedge15) << int(T::Hex20) << 3;
  }
  void conformingFaces() {
    // random nodal values, shared by the nodes of the common face: the two elements interpolate
    // the same field on it (the pyramids' rational functions are quadratic on their triangles and
    // serendipity on the base)
    QFETCH(int, type);
    QFETCH(int, neighbour);
    QFETCH(int, face);
    const ElementKind& ka = elementKind(static_cast<ElementType>(type));
    const ElementKind& kb = elementKind(static_cast<ElementType>(neighbour));
    static constexpr int kWedgeFaces[5][4] = {{0, 1, 2, -1}, {3, 5, 4, -1}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}};
    static constexpr int kPyramidFaces[5][4] = {{0, 1, 2, 3}, {0, 4, 1, -1}, {1, 4, 2, -1}, {2, 4, 3, -1}, {3, 4, 0, -1}};
    const int* f = cornerCount(ka.type) == 6 ? kWedgeFaces[face] : kPyramidFaces[face];
    const int fc = f[3] < 0 ? 3 : 4;
    std::vector<Eigen::Vector3d> ca;
    for (int a = 0; a < cornerCount(ka.type); ++a) ca.push_back(natural(ka, a));
    const ElementCoords XA = fromCorners(ka.type, ca);
    // the neighbour: the face's corners plus the same corners pushed out along the face normal
    // (brick) or one point outside (tetrahedron)
    Eigen::Vector3d centre = Eigen::Vector3d::Zero(), inside = Eigen::Vector3d::Zero();
    for (int i = 0; i < fc; ++i) centre += ca[f[i]] / fc;
    for (const auto& c : ca) inside += c / static_cast<double>(ca.size());
    const Eigen::Vector3d out = (centre - inside).normalized();
    std::vector<Eigen::Vector3d> cb;
    for (int i = 0; i < fc; ++i) cb.push_back(ca[f[i]]);
    if (fc == 3) cb.push_back(centre + 0.7 * out + Eigen::Vector3d(0.1, -0.05, 0.02));
    else
      for (int i = 0; i < 4; ++i) cb.push_back(ca[f[i]] + out);
    const ElementCoords XB = fromCorners(kb.type, cb);
    // values by position
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<std::pair<Eigen::Vector3d, double>> values;
    auto valueAt = [&](const Eigen::Vector3d& x) {
      for (const auto& [p, v] : values)
        if ((p - x).norm() < 1e-12) return v;
      values.emplace_back(x, u(rng));
      return values.back().second;
    };
    Eigen::VectorXd ua(ka.nodes), ub(kb.nodes);
    for (int a = 0; a < ka.nodes; ++a) ua[a] = valueAt(XA.col(a));
    for (int a = 0; a < kb.nodes; ++a) ub[a] = valueAt(XB.col(a));
    QCOMPARE(static_cast<int>(values.size()), ka.nodes + kb.nodes - (fc == 3 ? (kb.nodes == 4 ? 3 : 6) : (kb.nodes == 8 ? 4 : 8)));
    double worst = 0;
    for (int s = 0; s < 25; ++s) {
      double w[4] = {std::abs(u(rng)), std::abs(u(rng)), std::abs(u(rng)), fc == 4 ? std::abs(u(rng)) : 0.0};
      Eigen::Vector3d x = Eigen::Vector3d::Zero();
      if (fc == 3) {  // barycentric
        const double sum = w[0] + w[1] + w[2];
        for (int i = 0; i < 3; ++i) x += w[i] / sum * ca[f[i]];
      } else {  // bilinear
        const double r = w[0], q = w[1];
        x = (1 - r) * (1 - q) * ca[f[0]] + r * (1 - q) * ca[f[1]] + r * q * ca[f[2]] + (1 - r) * q * ca[f[3]];
      }
      worst = std::max(worst, std::abs(interpolate(ka, XA, ua, x) - interpolate(kb, XB, ub, x)));
    }
    QVERIFY2(worst < 1e-13, qPrintable(QString("largest difference on the face %1").arg(worst)));
  }

  void outerSurfaces_data() {
    addNewTypeRows();
  }
  void outerSurfaces() {
    // one element: every face outward (the surface encloses the element's volume), the expected
    // number of triangles; a distorted block: only the box's faces are outer, one part
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    const Block one = block(t, {1, 1, 1}, {0.01, 0.01, 0.01});
    const auto tri = outerSurface(one.model);
    // the cube's faces: wedges split the two z faces into triangles; a linear triangle is 1
    // triangle, a quadrangle 2, quadratic ones 4 and 6
    const bool quadratic = elementKind(t).nodes > cornerCount(t);
    const std::size_t tris = cornerCount(t) == 6 ? 4 : 0, quads = cornerCount(t) == 6 ? 4 : 6;
    const std::size_t count = tris * (quadratic ? 4 : 1) + quads * (quadratic ? 6 : 2);
    double volume6 = 0;
    for (const auto& s : tri) {
      const auto& x = one.model.coords;
      volume6 += x[s[0]].dot(x[s[1]].cross(x[s[2]]));
    }
    qInfo("%s: %zu outer triangles on one cell", abaqusName(t), tri.size());
    QCOMPARE(tri.size(), count);
    QVERIFY(std::abs(volume6 / 6 / 1e-6 - 1) < 1e-12);
    const Eigen::Vector3i cells(3, 2, 2);
    const Eigen::Vector3d size(0.03, 0.02, 0.02);
    const Block b = block(t, cells, size, distortion(cells, size, 0.2));
    double area = 0;
    for (const auto& s : outerSurface(b.model)) {
      const auto& x = b.model.coords;
      area += 0.5 * (x[s[1]] - x[s[0]]).cross(x[s[2]] - x[s[0]]).norm();
    }
    QVERIFY(std::abs(area / (2 * (0.03 * 0.02 + 0.03 * 0.02 + 0.02 * 0.02)) - 1) < 1e-12);
    QCOMPARE(connectedParts(b.model), 1);
  }

  void invertedElementIsNamed() {
    Block b = block(ElementType::Wedge15, {1, 1, 1}, {0.01, 0.01, 0.01});
    auto& n = b.model.elements[0].nodes;  // mirrored: bottom and top swapped with their mid nodes
    std::swap_ranges(n.begin(), n.begin() + 3, n.begin() + 3);
    std::swap_ranges(n.begin() + 6, n.begin() + 9, n.begin() + 9);
    AssembledMatrices out;
    Diagnostics diag;
    QVERIFY(!assemble(b.model, {}, out, diag));
    const QString text = QString::fromStdString(diag.str());
    QVERIFY2(text.contains("element 1 (C3D15)") && text.contains("negative Jacobian determinant"), diag.str().c_str());
  }

  // ---------------------------------------------------------------- CalculiX 2.20
  void ccxElementMatrices_data() {
    QTest::addColumn<QString>("stem");
    QTest::newRow("C3D6") << "c3d6_mat";
    QTest::newRow("C3D15") << "c3d15_mat";
    QTest::newRow("C3D8I") << "c3d8i_mat";
    QTest::newRow("C3D8I trapezoid") << "c3d8i_trapezoid_mat";
  }
  void ccxElementMatrices() {
    // one element: our K and ccx's agree to ccx's 14 printed digits; so does M with ccx's mass
    // rule. C3D8I: ccx exports its 9 incompatible-mode dofs as nodes 9-11; condensed, its K is
    // ours on a parallelepiped, but not on the trapezoid, where ccx (no det J0 / det J factor)
    // misses the constant-strain energy; and its bubble dofs have mass.
    QFETCH(QString, stem);
    const FeModel m = load(stem.toStdString() + ".inp");
    QCOMPARE(static_cast<int>(m.elements.size()), 1);
    const std::string base = kDir + stem.toStdString();
    auto read = [](const std::string& path) {
      std::ifstream in(path);
      std::stringstream s;
      s << in.rdbuf();
      return s.str();
    };
    std::vector<int> ids, comps;
    Diagnostics diag;
    QVERIFY(io::readCalculixDofText(read(base + ".dof"), "dof", ids, comps, diag));
    const int n = static_cast<int>(ids.size()), nn = 3 * m.nodeCount(), nb = n - nn;
    Eigen::SparseMatrix<double> Ks, Ms;
    QVERIFY(io::readCalculixMatrixText(read(base + ".sti"), "sti", n, Ks, diag));
    QVERIFY(io::readCalculixMatrixText(read(base + ".mas"), "mas", n, Ms, diag));
    const Eigen::MatrixXd Kc(Ks), Mc(Ms);
    for (int i = 0; i < nn; ++i) QCOMPARE(3 * m.indexOf(ids[i]) + comps[i], i);  // ccx's order is ours
    Eigen::MatrixXd K = Kc.topLeftCorner(nn, nn);
    const Eigen::MatrixXd M = Mc.topLeftCorner(nn, nn);
    if (nb > 0)  // condense ccx's bubble dofs
      K -= Kc.topRightCorner(nn, nb) * Kc.bottomRightCorner(nb, nb).ldlt().solve(Kc.bottomLeftCorner(nb, nn));
    const AssembledMatrices exact = assembleOrFail(m), ccx = assembleOrFail(m, true);
    const double dK = (Eigen::MatrixXd(exact.K) - K).cwiseAbs().maxCoeff() / K.cwiseAbs().maxCoeff();
    const double dMccx = (Eigen::MatrixXd(ccx.M) - M).cwiseAbs().maxCoeff() / M.cwiseAbs().maxCoeff();
    const double dM = (Eigen::MatrixXd(exact.M) - M).cwiseAbs().maxCoeff() / M.cwiseAbs().maxCoeff();
    qInfo("%s: K differs from ccx's by %.2g, M (ccx rule) by %.1e, M (our rule) by %.2g (relative to the largest entry)",
          qPrintable(stem), dK, dMccx, dM);
    QVERIFY(dMccx < 1e-12);
    if (nb == 0) {
      QVERIFY(dK < 1e-12);
      return;
    }
    // C3D8I: the energy of a constant strain, and the elastic frequencies with ccx's bubble mass
    Eigen::Matrix3d B;
    B << 1e-3, 2e-4, -3e-4, 5e-4, -2e-3, 1e-4, 3e-4, 7e-4, 1.5e-3;
    Eigen::VectorXd u(nn);
    for (int a = 0; a < m.nodeCount(); ++a) u.segment<3>(3 * a) = B * m.coords[static_cast<std::size_t>(a)];
    const Eigen::Matrix3d eps = 0.5 * (B + B.transpose());
    const double lambda = kE * kNu / ((1 + kNu) * (1 - 2 * kNu)), mu = kE / (2 * (1 + kNu));
    const double W = exact.volume * (lambda * eps.trace() * eps.trace() + 2 * mu * eps.squaredNorm());
    const double eOurs = u.dot(exact.K * u) / W - 1, eCcx = u.dot(K * u) / W - 1;
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> withBubbleMass(Kc, Mc, Eigen::EigenvaluesOnly);
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ours(Eigen::MatrixXd(exact.K), Eigen::MatrixXd(exact.M),
                                                                   Eigen::EigenvaluesOnly);
    const double ratio = std::sqrt(withBubbleMass.eigenvalues()[6] / ours.eigenvalues()[6]);
    qInfo("%s: constant-strain energy error: ours %.1e, ccx %.2g; ccx's bubble mass (up to %.3g of the element's %.3g kg "
          "on a diagonal) takes the first elastic frequency to %.4f of ours",
          qPrintable(stem), eOurs, eCcx, Mc.bottomRightCorner(nb, nb).diagonal().maxCoeff(), M.sum() / 3, ratio);
    QVERIFY(std::abs(eOurs) < 1e-12);
    QVERIFY(Mc.bottomRightCorner(nb, nb).diagonal().minCoeff() > 0);
    QVERIFY(ratio < 0.99);
    if (stem.contains("trapezoid")) {
      QVERIFY(dK > 1e-3);
      QVERIFY(std::abs(eCcx) > 1e-3);
    } else {
      QVERIFY(dK < 1e-12);
      QVERIFY(std::abs(eCcx) < 1e-12);
    }
  }

  void ccxFrequencies_data() {
    QTest::addColumn<QString>("deck");
    QTest::addColumn<double>("ccxRuleTol");  // our K, M with ccx's mass rule against ccx
    QTest::addColumn<double>("ourRuleTol");  // with our (exact) mass rule
    // C3D6: ccx's 2-point mass (rank 2 of 6 per element) makes its frequencies up to 20 % high
    QTest::newRow("C3D6 block") << "beam_c3d6_free" << 1e-6 << 0.1;
    QTest::newRow("C3D15 block") << "beam_c3d15_free" << 1e-6 << 1e-3;
    QTest::newRow("gmsh prism6") << "prisms_linear_free" << 1e-6 << 0.1;
    QTest::newRow("gmsh prism15") << "prisms_free" << 1e-6 << 1e-3;
    // C3D8I: ccx's bubble dofs have mass, ours are condensed massless: ccx is 4-5 % lower
    QTest::newRow("C3D8I block") << "beam_c3d8i_free" << 0.06 << 0.06;
    // trapezoidal bricks: ccx also drops det J0 / det J (its C3D8I fails the patch test)
    QTest::newRow("C3D8I skewed block") << "beam_c3d8i_skew_free" << 0.06 << 0.06;
  }
  void ccxFrequencies() {
    QFETCH(QString, deck);
    QFETCH(double, ccxRuleTol);
    QFETCH(double, ourRuleTol);
    const FeModel m = load(deck.toStdString() + ".inp");
    QVERIFY(!m.elements.empty());
    const std::vector<double> ref = ccxElasticHz(deck.toStdString() + ".dat");
    QCOMPARE(static_cast<int>(ref.size()), 6);
    const std::vector<double> fc = elasticHz(m, 6, true), fo = elasticHz(m, 6, false);
    const double dc = maxRelDiff(fc, ref), dOurs = maxRelDiff(fo, ref);
    QString row;
    for (std::size_t i = 0; i < ref.size(); ++i) row += QString(" %1/%2/%3").arg(ref[i], 0, 'f', 1).arg(fc[i], 0, 'f', 1).arg(fo[i], 0, 'f', 1);
    qInfo("%s: %zu elements; ccx / ccx mass rule / our mass rule [Hz]:%s; largest difference %.2e (ccx rule), %.2e (ours)",
          qPrintable(deck), m.elements.size(), qPrintable(row), dc, dOurs);
    QVERIFY(dc < ccxRuleTol);
    QVERIFY(dOurs < ourRuleTol);
  }

  void frdWedgesAndIncompatibleBricks() {
    // frd types 5, 2, 1 (15-node wedge in frd order, 6-node wedge, C3D8I as an 8-node brick)
    const FeModel deck = load("mixed_frd.inp");
    FeModel fromFrd;
    Diagnostics diag;
    QVERIFY2(io::readCalculixFrd(kDir + "mixed_frd.frd", fromFrd, diag), diag.str().c_str());
    FeModel expected = deck;  // the frd does not tell C3D8I from C3D8
    expected.elements[2].type = ElementType::Hex8;
    QCOMPARE(differentElements(fromFrd, expected), std::string());
    QCOMPARE(static_cast<int>(fromFrd.frequencies_hz.size()), 2);
    // and read onto the deck: the frd's elements match the deck's (C3D8I as frd type 1)
    FeModel onto = deck;
    Diagnostics d2;
    QVERIFY2(io::readCalculixFrd(kDir + "mixed_frd.frd", onto, d2), d2.str().c_str());
    QCOMPARE(onto.modes.rows(), 3 * static_cast<Eigen::Index>(deck.nodeCount()));
  }

  // ---------------------------------------------------------------- Nastran and gmsh
  void sameMeshInTwoFormats_data() {
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("CPENTA 6 + CPYRAM 5 | C3D6 + C3D5") << "mixed_linear.bdf" << "mixed_linear.inp";
    QTest::newRow("CPENTA 15 + CPYRAM 13 | C3D15 + C3D13") << "mixed.bdf" << "mixed.inp";
    // gmsh's own .inp export converts its node order independently of our .msh reader
    QTest::newRow("gmsh prism6 | gmsh's C3D6") << "prisms_linear.msh" << "prisms_linear_mesh.inp";
    QTest::newRow("gmsh prism15 | gmsh's C3D15") << "prisms.msh" << "prisms_mesh.inp";
  }
  void sameMeshInTwoFormats() {
    QFETCH(QString, a);
    QFETCH(QString, b);
    const FeModel ma = withSteel(load(a.toStdString())), mb = withSteel(load(b.toStdString()));
    QVERIFY(!ma.elements.empty());
    QCOMPARE(differentElements(ma, mb), std::string());
    const std::vector<double> fa = elasticHz(ma, 6), fb = elasticHz(mb, 6);
    qInfo("%s: %zu elements, f1 = %.2f Hz; difference %.1e", qPrintable(a), ma.elements.size(), fa[0], maxRelDiff(fa, fb));
    QVERIFY(maxRelDiff(fa, fb) < 1e-10);  // gmsh's .inp has 14-digit coordinates
  }

  void gmshHybridMesh_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("tol");  // frequencies against the fine C3D20 block
    QTest::newRow("hex8, tet4, pyramid5") << "hybrid_linear.msh" << 1.0;  // 1 - 2 elements across: coarse
    QTest::newRow("hex20, tet10, pyramid13") << "hybrid.msh" << 0.05;
  }
  void gmshHybridMesh() {
    // bricks, tetrahedra and the pyramids gmsh puts between them: mid-edge nodes on their edges,
    // positive Jacobians, the block's volume and surface (every inner face matched), one part
    QFETCH(QString, file);
    QFETCH(double, tol);
    const FeModel m = withSteel(load(file.toStdString()));
    std::map<ElementType, int> count;
    double worstMid = 0;
    for (const Element& e : m.elements) {
      ++count[e.type];
      const ElementKind& k = elementKind(e.type);
      for (int a = cornerCount(e.type); a < k.nodes; ++a) {
        const auto ed = edgeOf(k, a);
        const Eigen::Vector3d mid = 0.5 * (m.coords[e.nodes[ed[0]]] + m.coords[e.nodes[ed[1]]]);
        worstMid = std::max(worstMid, (m.coords[e.nodes[a]] - mid).norm());
      }
    }
    const bool quadratic = file == "hybrid.msh";
    QVERIFY(count[quadratic ? ElementType::Pyramid13 : ElementType::Pyramid5] > 0);
    QVERIFY(count[quadratic ? ElementType::Tet10 : ElementType::Tet4] > 0);
    QVERIFY(count[quadratic ? ElementType::Hex20 : ElementType::Hex8] > 0);
    QVERIFY(worstMid < 1e-15);
    const AssembledMatrices am = assembleOrFail(m);
    const double V = 0.08 * 0.02 * 0.01;
    QVERIFY(std::abs(am.volume / V - 1) < 1e-12);
    QVERIFY(std::abs(am.mass / (kRho * V) - 1) < 1e-12);
    double area = 0;
    for (const auto& s : outerSurface(m))
      area += 0.5 * (m.coords[s[1]] - m.coords[s[0]]).cross(m.coords[s[2]] - m.coords[s[0]]).norm();
    QVERIFY(std::abs(area / (2 * (0.08 * 0.02 + 0.08 * 0.01 + 0.02 * 0.01)) - 1) < 1e-12);
    QCOMPARE(connectedParts(m), 1);
    // frequencies: against a fine C3D20 mesh of the same block
    const std::vector<double> f = elasticHz(m, 4);
    const std::vector<double> ref = elasticHz(block(ElementType::Hex20, {16, 4, 2}, {0.08, 0.02, 0.01}).model, 4);
    qInfo("%s: %d C3D20/C3D8, %d C3D10/C3D4, %d pyramids; f = %.1f %.1f %.1f %.1f Hz, fine C3D20 %.1f %.1f %.1f %.1f "
          "Hz; largest difference %.2e",
          qPrintable(file), count[ElementType::Hex20] + count[ElementType::Hex8],
          count[ElementType::Tet10] + count[ElementType::Tet4], count[ElementType::Pyramid13] + count[ElementType::Pyramid5],
          f[0], f[1], f[2], f[3], ref[0], ref[1], ref[2], ref[3], maxRelDiff(f, ref));
    QVERIFY(maxRelDiff(f, ref) < tol);
    // conforming elements with exact rules: Rayleigh-Ritz upper bounds (the fine reference is
    // one too, close to the exact values)
    for (std::size_t i = 0; i < f.size(); ++i) QVERIFY(f[i] > ref[i] * (1 - 1e-4));
  }

  // ---------------------------------------------------------------- bending and convergence
  void incompatibleModesRemoveShearLocking() {
    // one layer of bricks through the thickness: C3D8 locks in bending, C3D8I does not
    const Eigen::Vector3i cells(10, 2, 1);
    const double ref = elasticHz(block(ElementType::Hex20, {20, 4, 2}, kBlock).model, 1)[0];
    const double f8 = elasticHz(block(ElementType::Hex8, cells, kBlock).model, 1)[0];
    const double f8i = elasticHz(block(ElementType::Hex8I, cells, kBlock).model, 1)[0];
    qInfo("first bending of the block, 10 x 2 x 1 bricks: C3D8 %+.1f %%, C3D8I %+.2f %% (C3D20 reference %.1f Hz)",
          100 * (f8 / ref - 1), 100 * (f8i / ref - 1), ref);
    QVERIFY(f8 / ref - 1 > 0.2);
    QVERIFY(std::abs(f8i / ref - 1) < 0.03);
  }

  void convergence() {
    // the block meshed with (5, 1, 1) x k cells, k = 1, 2, 4, every cell as 1 brick, 2 wedges or
    // 6 pyramids: the largest error of the first 4 elastic frequencies against a (40, 8, 8)
    // C3D20 mesh, and the observed order log2(e(k) / e(2k))
    const std::vector<double> ref = elasticHz(block(ElementType::Hex20, {40, 8, 8}, kBlock).model, 4);
    qInfo("C3D20 (40, 8, 8) reference: %.2f %.2f %.2f %.2f Hz", ref[0], ref[1], ref[2], ref[3]);
    struct Row {
      ElementType type;
      double minOrder;  // asserted on the last refinement
    };
    for (const Row& r : {Row{ElementType::Hex8, 1.5}, Row{ElementType::Hex8I, 1.4}, Row{ElementType::Wedge6, 1.2},
                         Row{ElementType::Pyramid5, 1.5}, Row{ElementType::Hex20, 3.2}, Row{ElementType::Wedge15, 3.5},
                         Row{ElementType::Pyramid13, 3.2}}) {
      double e[3];
      int dofs[3];
      for (int level = 0; level < 3; ++level) {
        const int k = 1 << level;
        const Block b = block(r.type, Eigen::Vector3i(5, 1, 1) * k, kBlock);
        dofs[level] = 3 * b.model.nodeCount();
        e[level] = maxRelDiff(elasticHz(b.model, 4), ref);
      }
      const double p1 = std::log2(e[0] / e[1]), p2 = std::log2(e[1] / e[2]);
      qInfo("| %-6s | %9.2e (%5d dofs) | %9.2e (%5d dofs) | %9.2e (%6d dofs) | %4.1f | %4.1f |", abaqusName(r.type), e[0],
            dofs[0], e[1], dofs[1], e[2], dofs[2], p1, p2);
      QVERIFY(e[2] < e[1] && e[1] < e[0]);
      QVERIFY(p2 > r.minOrder);
    }
  }
};

QTEST_GUILESS_MAIN(ElementsTest)
#include "elements_test.moc"
