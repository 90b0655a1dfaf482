// Reduced-body file: exact round trip, and clear errors (never a crash or a huge allocation) on
// truncated, corrupted, hostile, newer or foreign files. Display surface of small meshes:
// triangle counts, outward orientation, closedness, enclosed volume; connected parts.
#include "core/fe/surface.h"
#include "core/fe/validation_report.h"
#include "io/fe/reduced_body_file.h"
#include "io/sha256.h"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <new>
#include <random>
#include <set>

// ---- allocation probe: the largest single operator-new request while armed -----------------

namespace {
std::atomic<bool> g_trackAllocations{false};
std::atomic<std::size_t> g_largestAllocation{0};
}  // namespace

void* operator new(std::size_t n) {
  if (g_trackAllocations.load(std::memory_order_relaxed)) {
    std::size_t prev = g_largestAllocation.load(std::memory_order_relaxed);
    while (n > prev && !g_largestAllocation.compare_exchange_weak(prev, n)) {
    }
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace flexim;

#define QCOMPARE_STR(a, b) QCOMPARE(QString::fromStdString(a), QString::fromStdString(b))

namespace {

// ---- file helpers ------------------------------------------------------------------------------

std::uint64_t getU64(const std::string& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

void putU64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

void putU32(std::string& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

struct Chunk {
  std::string tag;
  std::size_t header = 0, begin = 0, end = 0;  ///< tag position, payload range
};

/// Walks a well-formed file.
std::vector<Chunk> chunks(const std::string& b) {
  std::vector<Chunk> out;
  std::size_t pos = 12;
  while (pos + 12 <= b.size()) {
    Chunk c{b.substr(pos, 4), pos, pos + 12, pos + 12 + static_cast<std::size_t>(getU64(b, pos + 4))};
    out.push_back(c);
    pos = c.end;
  }
  return out;
}

Chunk chunk(const std::string& b, const std::string& tag) {
  for (const Chunk& c : chunks(b))
    if (c.tag == tag) return c;
  return {};
}

/// Recomputes the END checksum, so that a deliberately inconsistent file passes the checksum
/// and reaches the content checks.
void reseal(std::string& b) {
  const Chunk end = chunk(b, "END ");
  io::Sha256 h;
  h.update(b.data(), end.header);
  const auto d = h.digest();
  std::memcpy(b.data() + end.begin, d.data(), d.size());
}

/// Replaces the payload of one chunk (fixing its length) and reseals.
void replacePayload(std::string& b, const std::string& tag, const std::string& payload) {
  const Chunk c = chunk(b, tag);
  b.replace(c.begin, c.end - c.begin, payload);
  putU64(b, c.header + 4, payload.size());
  reseal(b);
}

std::string decodeError(const std::string& bytes) {
  fe::ReducedBody out;
  std::string error;
  if (io::decodeReducedBody(bytes, out, &error)) return "(loaded)";
  if (error.empty()) return "(failed without a message)";
  return error;
}

// ---- a body with every field set -----------------------------------------------------------

fe::ReducedBody fullBody() {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const auto fill = [&](auto& m) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = u(rng);
  };
  const int n = 7, m = 5;
  fe::ReducedBody b;
  b.name = "Träger \"links\" — 2";  // UTF-8, quotes
  b.method = "Craig-Bampton: 3 constraint + 2 fixed-interface, HRZ lumped mass";
  b.created = "2026-09-01T12:34:56Z";
  b.sources = {{"/data/bracket/mesh.inp", std::string(64, 'a')}, {"C:\\FE\\bracket.frd", ""}};
  for (int k = 0; k < n; ++k) {
    b.node_ids.push_back(1000 - 7 * k);
    b.coords.emplace_back(u(rng), u(rng), u(rng));
    b.node_mass.push_back(0.25 + k);
  }
  b.coords[1] = Eigen::Vector3d(-0.0, std::numeric_limits<double>::denorm_min(), 1e300);  // awkward bits
  b.modes.resize(3 * n, m);
  fill(b.modes);
  b.eigenvalues.resize(m);
  fill(b.eigenvalues);
  b.eigenvalues[0] = 0.0;
  b.kinds = {fe::ModeKind::Rigid, fe::ModeKind::Elastic, fe::ModeKind::Constraint, fe::ModeKind::FixedInterface,
             fe::ModeKind::Elastic};
  fe::ModalInvariants& inv = b.invariants;
  inv.I1 = 12.5;
  fill(inv.I2);
  inv.I3.resize(3, m);
  fill(inv.I3);
  inv.I4.resize(3, m);
  fill(inv.I4);
  inv.I5.assign(m, Eigen::MatrixXd(3, m));
  for (auto& x : inv.I5) fill(x);
  fill(inv.J0);
  inv.J1.resize(m);
  for (auto& x : inv.J1) fill(x);
  inv.J2.resize(m * m);
  for (auto& x : inv.J2) fill(x);
  inv.Mbar.resize(m, m);
  fill(inv.Mbar);
  inv.Kbar.resize(m, m);
  fill(inv.Kbar);
  b.surface = {{0, 1, 2}, {2, 3, 4}, {4, 5, 6}, {6, 0, 3}};
  b.interfaces.push_back({"bolt A", fe::Interface::Kind::Rigid, {0, 1, 2}, Eigen::Vector3d(0.1, 0.2, 0.3)});
  b.interfaces.push_back({"", fe::Interface::Kind::Averaging, {6, 5}, Eigen::Vector3d(-1, 0, 1e-9)});
  b.interfaces.push_back({"empty", fe::Interface::Kind::Rigid, {}, Eigen::Vector3d::Zero()});
  return b;
}

template <typename A, typename B>
bool sameBits(const A& a, const B& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      if (std::bit_cast<std::uint64_t>(double(a(i, j))) != std::bit_cast<std::uint64_t>(double(b(i, j)))) return false;
  return true;
}

template <typename V>
bool sameBitsList(const std::vector<V>& a, const std::vector<V>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!sameBits(a[i], b[i])) return false;
  return true;
}

/// Every field, doubles bit for bit.
void compareBodies(const fe::ReducedBody& a, const fe::ReducedBody& b) {
  QCOMPARE(a.name, b.name);
  QCOMPARE(a.method, b.method);
  QCOMPARE(a.created, b.created);
  QCOMPARE(a.sources.size(), b.sources.size());
  for (std::size_t i = 0; i < a.sources.size(); ++i) {
    QCOMPARE(a.sources[i].path, b.sources[i].path);
    QCOMPARE(a.sources[i].sha256, b.sources[i].sha256);
  }
  QCOMPARE(a.node_ids, b.node_ids);
  QVERIFY(sameBitsList(a.coords, b.coords));
  QCOMPARE(a.node_mass.size(), b.node_mass.size());
  QVERIFY(std::memcmp(a.node_mass.data(), b.node_mass.data(), a.node_mass.size() * sizeof(double)) == 0);
  QVERIFY(sameBits(a.modes, b.modes));
  QVERIFY(sameBits(a.eigenvalues, b.eigenvalues));
  QVERIFY(a.kinds == b.kinds);
  const fe::ModalInvariants &x = a.invariants, &y = b.invariants;
  QCOMPARE(std::bit_cast<std::uint64_t>(x.I1), std::bit_cast<std::uint64_t>(y.I1));
  QVERIFY(sameBits(x.I2, y.I2));
  QVERIFY(sameBits(x.I3, y.I3));
  QVERIFY(sameBits(x.I4, y.I4));
  QVERIFY(sameBitsList(x.I5, y.I5));
  QVERIFY(sameBits(x.J0, y.J0));
  QVERIFY(sameBitsList(x.J1, y.J1));
  QVERIFY(sameBitsList(x.J2, y.J2));
  QVERIFY(sameBits(x.Mbar, y.Mbar));
  QVERIFY(sameBits(x.Kbar, y.Kbar));
  QVERIFY(a.surface == b.surface);
  QCOMPARE(a.interfaces.size(), b.interfaces.size());
  for (std::size_t i = 0; i < a.interfaces.size(); ++i) {
    QCOMPARE(a.interfaces[i].name, b.interfaces[i].name);
    QVERIFY(a.interfaces[i].kind == b.interfaces[i].kind);
    QCOMPARE(a.interfaces[i].nodes, b.interfaces[i].nodes);
    QVERIFY(sameBits(a.interfaces[i].reference, b.interfaces[i].reference));
  }
}

// ---- meshes --------------------------------------------------------------------------------

int addNode(fe::FeModel& mesh, const Eigen::Vector3d& x) { return mesh.addNode(mesh.nodeCount() + 1, x); }

void addElement(fe::FeModel& mesh, fe::ElementType type, const std::vector<int>& nodes) {
  fe::Element e;
  e.id = static_cast<int>(mesh.elements.size()) + 1;
  e.type = type;
  for (std::size_t i = 0; i < nodes.size(); ++i) e.nodes[i] = nodes[i];
  mesh.elements.push_back(e);
}

/// Mid-edge nodes of the quadratic elements (Abaqus order), appended at the edge midpoints.
std::vector<int> withMidNodes(fe::FeModel& mesh, std::vector<int> corners, const std::vector<std::array<int, 2>>& edges) {
  for (const auto& e : edges) corners.push_back(addNode(mesh, 0.5 * (mesh.coords[corners[e[0]]] + mesh.coords[corners[e[1]]])));
  return corners;
}
const std::vector<std::array<int, 2>> kTet10Edges = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
const std::vector<std::array<int, 2>> kHex20Edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                      {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

std::vector<int> addNodes(fe::FeModel& mesh, const std::vector<Eigen::Vector3d>& xs) {
  std::vector<int> idx;
  for (const auto& x : xs) idx.push_back(addNode(mesh, x));
  return idx;
}

const std::vector<Eigen::Vector3d> kTetCorners = {{0.1, 0.0, 0.2}, {1.3, 0.1, 0.0}, {0.2, 0.9, -0.1}, {0.3, 0.4, 1.1}};

/// A distorted hexahedron with planar faces: a frustum with a shifted, smaller top, then sheared
/// and rotated (affine maps keep faces planar). Positively oriented (Abaqus convention).
std::vector<Eigen::Vector3d> distortedHexCorners() {
  std::vector<Eigen::Vector3d> x = {{0, 0, 0},       {2, 0, 0},       {2, 2, 0},       {0, 2, 0},
                                    {0.5, 0.3, 1.5}, {1.5, 0.3, 1.5}, {1.5, 1.3, 1.5}, {0.5, 1.3, 1.5}};
  Eigen::Matrix3d A;
  A << 1.0, 0.3, 0.1, -0.2, 0.9, 0.25, 0.05, -0.1, 1.2;  // det > 0
  for (auto& p : x) p = A * p + Eigen::Vector3d(3, -1, 2);
  return x;
}

/// Volume of a trilinear hexahedron (2x2x2 Gauss is exact for its Jacobian determinant).
double hexVolume(const std::vector<Eigen::Vector3d>& x) {
  const double s[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                          {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const double g = 1.0 / std::sqrt(3.0);
  double v = 0;
  for (double a : {-g, g})
    for (double b : {-g, g})
      for (double c : {-g, g}) {
        Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
        const double p[3] = {a, b, c};
        for (int k = 0; k < 8; ++k)
          for (int d = 0; d < 3; ++d) {
            double dN = s[k][d] / 8.0;
            for (int e = 0; e < 3; ++e)
              if (e != d) dN *= 1 + s[k][e] * p[e];
            J.col(d) += dN * x[k];
          }
        v += J.determinant();
      }
  return v;
}

double tetVolume(const std::vector<Eigen::Vector3d>& x) {
  return (x[1] - x[0]).dot((x[2] - x[0]).cross(x[3] - x[0])) / 6.0;
}

/// Volume enclosed by the triangles (divergence theorem): positive only if they point outward.
double enclosedVolume(const fe::FeModel& mesh, const std::vector<std::array<int, 3>>& tris) {
  double v = 0;
  for (const auto& t : tris) v += mesh.coords[t[0]].dot(mesh.coords[t[1]].cross(mesh.coords[t[2]]));
  return v / 6.0;
}

/// Closed and consistently oriented: every directed edge appears once and its reverse once.
bool closedAndConsistent(const std::vector<std::array<int, 3>>& tris) {
  std::map<std::pair<int, int>, int> edges;
  for (const auto& t : tris)
    for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, count] : edges) {
    if (count != 1) return false;
    const auto back = edges.find({e.second, e.first});
    if (back == edges.end() || back->second != 1) return false;
  }
  return true;
}

/// Every triangle normal points away from the (convex) element's centroid.
bool allOutward(const fe::FeModel& mesh, const std::vector<std::array<int, 3>>& tris, const Eigen::Vector3d& centroid) {
  for (const auto& t : tris) {
    const Eigen::Vector3d a = mesh.coords[t[0]], b = mesh.coords[t[1]], c = mesh.coords[t[2]];
    if ((b - a).cross(c - a).dot((a + b + c) / 3.0 - centroid) <= 0) return false;
  }
  return true;
}

Eigen::Vector3d centroidOf(const std::vector<Eigen::Vector3d>& x) {
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const auto& p : x) c += p;
  return c / static_cast<double>(x.size());
}

}  // namespace

class ReducedBodyTest : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }
  std::string writeBytes(const char* name, const std::string& bytes) const {
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  std::string loadError(const std::string& bytes) const {
    fe::ReducedBody out;
    std::string error;
    if (io::loadReducedBody(writeBytes("probe.frb", bytes), out, &error)) return "(loaded)";
    return error;
  }

 private slots:
  void initTestCase() { QVERIFY(m_dir.isValid()); }

  // ---- round trip ----

  void roundTripEveryField() {
    const fe::ReducedBody body = fullBody();
    QCOMPARE(QString::fromStdString(io::checkReducedBody(body)), QString());
    std::string error;
    QVERIFY2(io::saveReducedBody(body, path("full.frb"), &error), error.c_str());
    QVERIFY(!QFile::exists(m_dir.filePath("full.frb.tmp")));
    fe::ReducedBody back;
    QVERIFY2(io::loadReducedBody(path("full.frb"), back, &error), error.c_str());
    compareBodies(body, back);
    // re-encoding the loaded body gives the same bytes
    QVERIFY(io::encodeReducedBody(back) == io::encodeReducedBody(body));
  }

  /// The optional ELAS chunk: the nodes' elastic constants round-trip bit for bit; a body without
  /// them writes none; a count that disagrees, or a Poisson's ratio of 0.5 or more, is refused.
  void elasticityRoundTripAndChecks() {
    fe::ReducedBody body = fullBody();
    const std::size_t n = body.coords.size();
    for (std::size_t i = 0; i < n; ++i) body.node_elasticity.push_back({2.1e11 - 1e9 * double(i), 0.3 - 1e-3 * double(i)});
    QCOMPARE(QString::fromStdString(io::checkReducedBody(body)), QString());
    const std::string bytes = io::encodeReducedBody(body);
    fe::ReducedBody back;
    std::string error;
    QVERIFY2(io::decodeReducedBody(bytes, back, &error), error.c_str());
    QVERIFY(back.node_elasticity == body.node_elasticity);
    QVERIFY(io::encodeReducedBody(fullBody()).find("ELAS") == std::string::npos);
    fe::ReducedBody bad = body;
    bad.node_elasticity.pop_back();
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("elastic constants of"));
    bad = body;
    bad.node_elasticity[1][1] = 0.6;  // refused when saving as when loading
    QVERIFY2(QString::fromStdString(io::checkReducedBody(bad)).contains("Poisson's ratio nu = 0.6 must be in (-1, 0.5)"),
             io::checkReducedBody(bad).c_str());
    std::string wrongNu = bytes;
    std::string payload(8 + 16 * n, '\0');
    putU64(payload, 0, n);
    for (std::size_t i = 0; i < n; ++i) {
      const double E = 2e11, nu = i == 1 ? 0.5 : 0.3;
      std::memcpy(&payload[8 + 16 * i], &E, 8);
      std::memcpy(&payload[16 + 16 * i], &nu, 8);
    }
    replacePayload(wrongNu, "ELAS", payload);
    QVERIFY2(QString::fromStdString(decodeError(wrongNu)).contains("chunk ELAS: node 2: Poisson's ratio nu = 0.5 must be in (-1, 0.5)"), decodeError(wrongNu).c_str());
  }

  /// The optional STRS chunk: stress modes round-trip bit for bit, a body without
  /// them writes no chunk and loads with none, and sizes that disagree are refused when saving
  /// and when loading, naming the chunk.
  void stressModesRoundTripAndChecks() {
    fe::ReducedBody body = fullBody();
    const Eigen::Index n = static_cast<Eigen::Index>(body.coords.size()), m = body.modes.cols();
    body.stress_modes = Eigen::MatrixXd::Random(6 * n, m) * 1e8;
    body.stress_modes(3, 1) = -0.0;
    QCOMPARE(QString::fromStdString(io::checkReducedBody(body)), QString());
    const std::string bytes = io::encodeReducedBody(body);
    fe::ReducedBody back;
    std::string error;
    QVERIFY2(io::decodeReducedBody(bytes, back, &error), error.c_str());
    compareBodies(body, back);
    QVERIFY(sameBits(body.stress_modes, back.stress_modes));
    // none: no chunk, and none after loading
    const std::string plain = io::encodeReducedBody(fullBody());
    QVERIFY(plain.find("STRS") == std::string::npos);
    QVERIFY(io::decodeReducedBody(plain, back, &error));
    QCOMPARE(back.stress_modes.size(), Eigen::Index(0));
    // wrong shapes
    fe::ReducedBody bad = body;
    bad.stress_modes = Eigen::MatrixXd::Zero(6 * n - 1, m);
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("stress modes are"));
    bad.stress_modes = Eigen::MatrixXd::Zero(6 * n, m);
    bad.stress_modes(0, 0) = std::nan("");
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("stress modes contain NaN"));
    std::string wrongCount = bytes;
    std::string payload(16 + 8 * 6 * n * (m - 1), '\0');
    putU64(payload, 0, static_cast<std::uint64_t>(m - 1));
    putU64(payload, 8, static_cast<std::uint64_t>(6 * n));
    replacePayload(wrongCount, "STRS", payload);
    QVERIFY2(QString::fromStdString(decodeError(wrongCount)).contains("chunk STRS: stress modes are for"),
             decodeError(wrongCount).c_str());
    std::string wrongRows = bytes;
    putU64(payload, 0, static_cast<std::uint64_t>(m));
    putU64(payload, 8, static_cast<std::uint64_t>(3 * n));
    replacePayload(wrongRows, "STRS", payload);
    QVERIFY2(QString::fromStdString(decodeError(wrongRows)).contains("stress modes have"), decodeError(wrongRows).c_str());
  }

  void geometricStiffnessRoundTripAndChecks() {
    fe::ReducedBody body = fullBody();
    const Eigen::Index m = body.modes.cols();
    const std::size_t cases = fe::kInertiaLoadCases + 6 * body.interfaces.size();
    for (std::size_t c = 0; c < cases; ++c) body.geometric_stiffness.push_back(Eigen::MatrixXd::Random(m, m) * 1e3);
    body.geometric_stiffness[1](0, 1) = -0.0;
    QCOMPARE(QString::fromStdString(io::checkReducedBody(body)), QString());
    const std::string bytes = io::encodeReducedBody(body);
    fe::ReducedBody back;
    std::string error;
    QVERIFY2(io::decodeReducedBody(bytes, back, &error), error.c_str());
    QCOMPARE(back.geometric_stiffness.size(), cases);
    for (std::size_t c = 0; c < cases; ++c) QVERIFY(sameBits(body.geometric_stiffness[c], back.geometric_stiffness[c]));
    // a version-1 file (no GSTF chunk) still loads, without stiffening
    std::string v1 = io::encodeReducedBody(fullBody());
    QVERIFY(v1.find("GSTF") == std::string::npos);
    putU32(v1, 8, 1);
    reseal(v1);
    QVERIFY2(io::decodeReducedBody(v1, back, &error), error.c_str());
    QVERIFY(back.geometric_stiffness.empty());
    // wrong counts and shapes, on save and on load
    fe::ReducedBody bad = body;
    bad.geometric_stiffness.pop_back();
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("stiffening load cases, expected"));
    bad = body;
    bad.geometric_stiffness[3] = Eigen::MatrixXd::Zero(m, m - 1);
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("a geometric stiffness is"));
    bad.geometric_stiffness[3] = Eigen::MatrixXd::Zero(m, m);
    bad.geometric_stiffness[3](1, 1) = std::nan("");
    QVERIFY(QString::fromStdString(io::checkReducedBody(bad)).contains("geometric stiffness contains NaN"));
    std::string wrongCases = bytes;
    std::string payload(16 + 8 * m * m * (cases - 1), '\0');
    putU64(payload, 0, static_cast<std::uint64_t>(cases - 1));
    putU64(payload, 8, static_cast<std::uint64_t>(m));
    replacePayload(wrongCases, "GSTF", payload);
    QVERIFY2(QString::fromStdString(decodeError(wrongCases)).contains("stiffening load cases, expected"),
             decodeError(wrongCases).c_str());
  }

  void layout() {
    const std::string b = io::encodeReducedBody(fullBody());
    QCOMPARE(b.substr(0, 8), std::string("FLXRBODY"));
    QCOMPARE(static_cast<int>(b[8]), 2);
    QCOMPARE(b.substr(9, 3), std::string(3, '\0'));
    std::vector<std::string> tags;
    for (const Chunk& c : chunks(b)) tags.push_back(c.tag);
    QCOMPARE(tags, (std::vector<std::string>{"META", "NODE", "MODE", "INVR", "SURF", "INTF", "END "}));
    QCOMPARE(chunks(b).back().end, b.size());
    const Chunk node = chunk(b, "NODE"), mode = chunk(b, "MODE"), invr = chunk(b, "INVR");
    QCOMPARE(node.end - node.begin, std::size_t(8 + 7 * 36));
    QCOMPARE(mode.end - mode.begin, std::size_t(16 + 5 * 9 + 8 * 21 * 5));
    QCOMPARE(invr.end - invr.begin, std::size_t(8 + 8 * (13 + 15 * 5 + 14 * 25)));
    QCOMPARE(getU64(b, node.begin), std::uint64_t(7));
  }

  void roundTripEmptyBody() {
    fe::ReducedBody empty;
    std::string error;
    QVERIFY2(io::saveReducedBody(empty, path("empty.frb"), &error), error.c_str());
    fe::ReducedBody back = fullBody();
    QVERIFY2(io::loadReducedBody(path("empty.frb"), back, &error), error.c_str());
    QCOMPARE(back.coords.size(), std::size_t(0));
    QCOMPARE(back.modes.cols(), Eigen::Index(0));
    QCOMPARE(back.invariants.modeCount(), 0);
    QVERIFY(back.surface.empty() && back.interfaces.empty() && back.sources.empty() && back.name.empty());
  }

  void saveOverwritesAndRefusesInconsistentBodies() {
    std::string error;
    QVERIFY(io::saveReducedBody(fullBody(), path("over.frb"), &error));
    fe::ReducedBody bad = fullBody();
    bad.modes(3, 1) = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(!io::saveReducedBody(bad, path("over.frb"), &error));
    QVERIFY2(error.find("NaN") != std::string::npos, error.c_str());
    fe::ReducedBody loaded;
    QVERIFY2(io::loadReducedBody(path("over.frb"), loaded, &error), error.c_str());  // old file intact

    const auto refused = [&](fe::ReducedBody b, const char* expected) {
      std::string why;
      if (io::saveReducedBody(b, path("refused.frb"), &why)) return std::string("(saved)");
      return why.find(expected) != std::string::npos ? std::string() : why;
    };
    fe::ReducedBody b = fullBody();
    b.node_mass.pop_back();
    QCOMPARE_STR(refused(b, "node arrays differ"), std::string());
    b = fullBody();
    b.modes.conservativeResize(b.modes.rows() - 3, Eigen::NoChange);
    QCOMPARE_STR(refused(b, "rows"), std::string());
    b = fullBody();
    b.invariants.J2.pop_back();
    QCOMPARE_STR(refused(b, "I5/J1/J2"), std::string());
    b = fullBody();
    b.invariants.Kbar.resize(2, 2);
    QCOMPARE_STR(refused(b, "Mbar/Kbar"), std::string());
    b = fullBody();
    b.surface.push_back({0, 1, 7});
    QCOMPARE_STR(refused(b, "surface triangle 4"), std::string());
    b = fullBody();
    b.node_ids[3] = b.node_ids[0];
    QCOMPARE_STR(refused(b, "duplicate node id"), std::string());
    b = fullBody();
    b.node_mass[2] = -1;
    QCOMPARE_STR(refused(b, "invalid mass"), std::string());
    b = fullBody();
    b.interfaces[0].nodes.push_back(-1);
    QCOMPARE_STR(refused(b, "interface 'bolt A'"), std::string());
    b = fullBody();
    b.invariants.J0(1, 1) = std::numeric_limits<double>::infinity();
    QCOMPARE_STR(refused(b, "invariants contain NaN or Inf"), std::string());

    QVERIFY(!io::saveReducedBody(fullBody(), path("no/such/dir/x.frb"), &error));
    QVERIFY2(error.find("cannot write") != std::string::npos, error.c_str());
  }

  // ---- damaged files ----

  void missingFile() {
    fe::ReducedBody out;
    std::string error;
    QVERIFY(!io::loadReducedBody(path("does-not-exist.frb"), out, &error));
    QVERIFY2(error.find("does-not-exist.frb") != std::string::npos && error.find("cannot read") != std::string::npos,
             error.c_str());
    QVERIFY(!io::loadReducedBody(m_dir.path().toStdString(), out, &error));  // a folder
  }

  void wrongMagic() {
    std::string b = io::encodeReducedBody(fullBody());
    b[3] = 'X';
    QVERIFY2(loadError(b).find("not a Flexim reduced-body file") != std::string::npos, loadError(b).c_str());
    QVERIFY(loadError("*HEADING\nan Abaqus input file\n").find("not a Flexim reduced-body file") != std::string::npos);
    QVERIFY(loadError("").find("not a Flexim reduced-body file") != std::string::npos);
  }

  void newerAndInvalidVersion() {
    std::string b = io::encodeReducedBody(fullBody());
    putU32(b, 8, 3);
    reseal(b);
    QVERIFY2(decodeError(b).find("reduced-body format version 3 is newer than this Flexim supports (2)") == 0,
             decodeError(b).c_str());
    const std::string viaFile = loadError(b);
    QVERIFY2(viaFile.find("probe.frb': reduced-body format version 3 is newer") != std::string::npos, viaFile.c_str());
    putU32(b, 8, 0);
    QVERIFY2(decodeError(b).find("invalid reduced-body format version 0") != std::string::npos, decodeError(b).c_str());
  }

  void truncatedAtEveryChunkBoundary() {
    const std::string b = io::encodeReducedBody(fullBody());
    std::vector<std::size_t> cuts = {12};
    for (const Chunk& c : chunks(b)) {
      cuts.push_back(c.header + 4);  // inside the chunk header
      cuts.push_back(c.begin);       // header complete, payload missing
      cuts.push_back(c.end);         // chunk complete
    }
    cuts.pop_back();  // the complete file
    for (std::size_t cut : cuts) {
      const std::string e = loadError(b.substr(0, cut));
      QVERIFY2(e.find("truncated") != std::string::npos, (std::to_string(cut) + ": " + e).c_str());
    }
    const Chunk mode = chunk(b, "MODE");
    const std::size_t cut = mode.begin + 100;
    QCOMPARE_STR(decodeError(b.substr(0, cut)), "file truncated in chunk MODE at byte " + std::to_string(cut));
    QCOMPARE_STR(decodeError(b.substr(0, mode.header)),
             "file truncated at byte " + std::to_string(mode.header) + " (the END chunk is missing)");
    const Chunk end = chunk(b, "END ");
    QCOMPARE_STR(decodeError(b.substr(0, end.begin + 5)), "file truncated in chunk END at byte " + std::to_string(end.begin + 5));
  }

  void truncatedAtRandomOffsets() {
    const std::string b = io::encodeReducedBody(fullBody());
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::size_t> at(0, b.size() - 1);
    for (int i = 0; i < 300; ++i) {
      const std::size_t cut = i < 12 ? static_cast<std::size_t>(i) : at(rng);
      const std::string e = decodeError(b.substr(0, cut));
      const char* expected = cut < 8 ? "not a Flexim reduced-body file" : "truncated";
      QVERIFY2(e.find(expected) != std::string::npos, (std::to_string(cut) + ": " + e).c_str());
    }
    QVERIFY2(loadError(b.substr(0, b.size() / 2)).find("truncated") != std::string::npos, "via file");
  }

  void flippedByte() {
    const std::string good = io::encodeReducedBody(fullBody());
    std::string b = good;
    b[chunk(b, "MODE").begin + 40] ^= 0x10;
    QVERIFY2(loadError(b).find("checksum mismatch: file corrupted") != std::string::npos, loadError(b).c_str());
    b = good;
    b[chunk(b, "END ").begin + 3] ^= 0x01;  // the digest itself
    QVERIFY(decodeError(b).find("checksum mismatch: file corrupted") != std::string::npos);
    // any single flipped bit anywhere is detected (each position is in a checked header, a
    // length, a payload covered by the checksum, or the checksum)
    for (std::size_t i = 0; i < good.size(); ++i)
      for (unsigned char mask : {0x01, 0x80}) {
        b = good;
        b[i] = static_cast<char>(b[i] ^ mask);
        const std::string e = decodeError(b);
        QVERIFY2(e != "(loaded)" && e != "(failed without a message)", (std::to_string(i) + ": " + e).c_str());
      }
  }

  void trailingData() {
    const std::string b = io::encodeReducedBody(fullBody()) + "xyz";
    QVERIFY2(decodeError(b).find("3 bytes of unexpected data after the END chunk") != std::string::npos,
             decodeError(b).c_str());
  }

  // ---- hostile but correctly checksummed files ----

  void hugeCountsDoNotAllocate() {
    const std::string good = io::encodeReducedBody(fullBody());
    const auto probe = [&](const std::string& tag, std::size_t offset, std::uint64_t value, const char* expected) {
      std::string b = good;
      putU64(b, chunk(b, tag).begin + offset, value);
      reseal(b);
      g_largestAllocation = 0;
      g_trackAllocations = true;
      const std::string e = decodeError(b);
      g_trackAllocations = false;
      const std::string where = tag + "+" + std::to_string(offset) + ": " + e;
      QVERIFY2(e.find(expected) != std::string::npos, where.c_str());
      QVERIFY2(g_largestAllocation < 4 * good.size(), (where + ", largest allocation " +
                                                       std::to_string(g_largestAllocation.load())).c_str());
    };
    // the probe sees the decoder's allocations (std containers; Eigen matrices use malloc and
    // are covered by the error messages: they prove the size check ran before the resize)
    g_largestAllocation = 0;
    g_trackAllocations = true;
    QCOMPARE_STR(decodeError(good), std::string("(loaded)"));
    g_trackAllocations = false;
    QVERIFY(g_largestAllocation >= 7 * sizeof(Eigen::Vector3d));
    const std::uint64_t huge = std::uint64_t(1) << 62;
    for (std::uint64_t value : {huge, std::numeric_limits<std::uint64_t>::max(), std::uint64_t(1000000000)}) {
      probe("NODE", 0, value, "node count");
      probe("MODE", 0, value, "mode count");
      probe("INVR", 0, value, "invariants are for");
      probe("SURF", 0, value, "triangle count");
      probe("INTF", 0, value, "interface count");
    }
    const std::size_t metaStrings = 4 * 4 + fullBody().name.size() + fullBody().method.size() +
                                    fullBody().created.size() + (std::string("Flexim ") + FLEXIM_VERSION).size();
    probe("META", metaStrings, huge, "source count");
    // MODE rows that disagree with the node count
    probe("MODE", 8, 3 * 7 + 3, "expected 21 rows");
    // a string length beyond the chunk
    std::string b = good;
    putU32(b, chunk(b, "META").begin, 0xfffffff0u);
    reseal(b);
    QVERIFY2(decodeError(b).find("string length") != std::string::npos, decodeError(b).c_str());
    // a chunk length beyond the file that no complete file could have (impossibleChunkLength)
    b = good;
    putU64(b, chunk(b, "NODE").header + 4, huge);
    QVERIFY2(decodeError(b).find("corrupted chunk NODE") == 0, decodeError(b).c_str());
  }

  void impossibleChunkLengthIsCorruption() {
    // A length past the end of the file is a file cut short only if a complete file could have
    // it; otherwise the file is corrupted, and says so with the claim and what is there.
    const std::string good = io::encodeReducedBody(fullBody());
    const Chunk node = chunk(good, "NODE");
    const std::string nodeAt = std::to_string(node.header);
    const std::string left = std::to_string(good.size() - node.begin);
    std::string b = good;
    putU64(b, node.header + 4, std::uint64_t(1) << 62);
    QCOMPARE_STR(decodeError(b), "corrupted chunk NODE at byte " + nodeAt + ": claims 4611686018427387904 bytes but only " +
                                     left + " remain, and its 7 nodes need 260 bytes");
    const std::string viaFile = loadError(b);
    QVERIFY2(viaFile.find("probe.frb': corrupted chunk NODE at byte " + nodeAt) != std::string::npos &&
                 viaFile.find("truncated") == std::string::npos,
             viaFile.c_str());
    // one byte more than the file holds, where the counts call for less
    b = good;
    putU64(b, node.header + 4, good.size() - node.begin + 1);
    QVERIFY2(decodeError(b).find("corrupted chunk NODE at byte " + nodeAt + ": claims") == 0, decodeError(b).c_str());
    // negative as a signed 64-bit length
    b = good;
    putU64(b, node.header + 4, std::numeric_limits<std::uint64_t>::max());
    QCOMPARE_STR(decodeError(b), "corrupted chunk NODE at byte " + nodeAt + ": claims 18446744073709551615 bytes but only " +
                                     left + " remain, more than any file can hold");
    // a chunk this reader does not know, with a length of 2^63
    b = good;
    std::string extra = std::string("XTRA") + std::string(8, '\0') + "data";
    putU64(extra, 4, std::uint64_t(1) << 63);
    b.insert(12, extra);
    QCOMPARE_STR(decodeError(b), "corrupted chunk XTRA at byte 12: claims 9223372036854775808 bytes but only " +
                                     std::to_string(b.size() - 24) + " remain, more than any file can hold");
    // counts whose size overflows 64 bits
    b = good;
    const Chunk mode = chunk(b, "MODE");
    putU64(b, mode.begin, std::uint64_t(1) << 62);
    putU64(b, mode.header + 4, std::uint64_t(1) << 40);
    QVERIFY2(decodeError(b).find(": claims 1099511627776 bytes but only " + std::to_string(b.size() - mode.begin) +
                                 " remain, and its 4611686018427387904 modes of 21 rows cannot fit in any file") !=
                 std::string::npos,
             decodeError(b).c_str());
    // the END chunk is always 32 bytes
    b = good;
    const Chunk end = chunk(b, "END ");
    putU64(b, end.header + 4, 1000);
    QCOMPARE_STR(decodeError(b), "END chunk at byte " + std::to_string(end.header) + " has length 1000, expected 32 (corrupted)");
    // a file cut short is still truncated: every length agrees with its chunk's counts
    for (const char* tag : {"META", "NODE", "MODE", "INVR", "SURF", "INTF"}) {
      const Chunk c = chunk(good, tag);
      for (std::size_t cut : {c.begin, c.begin + 8, c.begin + 20, c.end - 1}) {
        const std::string e = decodeError(good.substr(0, cut));
        QVERIFY2(e.find("file truncated") == 0, (std::string(tag) + " cut at " + std::to_string(cut) + ": " + e).c_str());
      }
    }
  }

  void inconsistentContents() {
    const std::string good = io::encodeReducedBody(fullBody());
    const auto corrupt = [&](fe::ReducedBody body) { return decodeError(io::encodeReducedBody(body)); };
    fe::ReducedBody body = fullBody();
    body.modes(4, 2) = std::numeric_limits<double>::quiet_NaN();
    QVERIFY2(corrupt(body).find("chunk MODE: mode shapes: non-finite number (NaN or Inf) at byte") == 0,
             corrupt(body).c_str());
    body = fullBody();
    body.invariants.J2[7](2, 0) = -std::numeric_limits<double>::infinity();
    QVERIFY2(corrupt(body).find("chunk INVR: J2: non-finite") == 0, corrupt(body).c_str());
    body = fullBody();
    body.coords[3].y() = std::numeric_limits<double>::infinity();
    QVERIFY2(corrupt(body).find("chunk NODE: node coordinates: non-finite") == 0, corrupt(body).c_str());
    body = fullBody();
    body.surface[2][1] = 7;
    QVERIFY2(corrupt(body).find("chunk SURF: triangle 2 refers to node index 7, but there are 7 nodes") == 0,
             corrupt(body).c_str());
    body = fullBody();
    body.interfaces[1].nodes[0] = -3;
    QVERIFY2(corrupt(body).find("chunk INTF: interface '' refers to node index -3") == 0, corrupt(body).c_str());
    body = fullBody();
    body.node_ids[6] = body.node_ids[2];
    QVERIFY2(corrupt(body).find("chunk NODE: duplicate node id") == 0, corrupt(body).c_str());
    body = fullBody();
    body.node_mass[1] = -0.5;
    QVERIFY2(corrupt(body).find("negative mass") != std::string::npos, corrupt(body).c_str());
    body = fullBody();
    body.invariants.I5.pop_back();  // invariants for fewer modes than the MODE chunk
    QVERIFY2(corrupt(body).find("chunk INVR: has") == 0, corrupt(body).c_str());

    // INVR for a different mode count, consistent in itself
    fe::ReducedBody four = fullBody();
    const std::string fourModes = [&] {
      four.modes.conservativeResize(Eigen::NoChange, 4);
      four.kinds.pop_back();
      four.eigenvalues.conservativeResize(4);
      four.invariants = fe::computeInvariants(four.coords, four.node_mass, four.modes, Eigen::MatrixXd::Identity(4, 4));
      return io::encodeReducedBody(four);
    }();
    std::string b = good;
    const Chunk inv4 = chunk(fourModes, "INVR");
    replacePayload(b, "INVR", fourModes.substr(inv4.begin, inv4.end - inv4.begin));
    QCOMPARE_STR(decodeError(b), std::string("chunk INVR: invariants are for 4 modes, but the MODE chunk has 5"));

    // unknown mode kind
    b = good;
    b[chunk(b, "MODE").begin + 16 + 2] = 9;
    reseal(b);
    QCOMPARE_STR(decodeError(b), std::string("chunk MODE: unknown kind 9 of mode 3"));

    // extra bytes in a known chunk
    b = good;
    const Chunk surf = chunk(b, "SURF");
    replacePayload(b, "SURF", b.substr(surf.begin, surf.end - surf.begin) + "ab");
    QVERIFY2(decodeError(b).find("chunk SURF: 2 unexpected bytes at its end") == 0, decodeError(b).c_str());
  }

  void chunksMissingDuplicatedUnknown() {
    const std::string good = io::encodeReducedBody(fullBody());
    for (const char* tag : {"META", "NODE", "MODE", "INVR"}) {
      std::string b = good;
      const Chunk c = chunk(b, tag);
      b.erase(c.header, c.end - c.header);
      reseal(b);
      QCOMPARE_STR(decodeError(b), std::string("required chunk ") + tag + " is missing");
    }
    // SURF and INTF are optional
    std::string b = good;
    for (const char* tag : {"SURF", "INTF"}) {
      const Chunk c = chunk(b, tag);
      b.erase(c.header, c.end - c.header);
    }
    reseal(b);
    fe::ReducedBody out;
    std::string error;
    QVERIFY2(io::decodeReducedBody(b, out, &error), error.c_str());
    QVERIFY(out.surface.empty() && out.interfaces.empty());

    // duplicated
    b = good;
    const Chunk node = chunk(b, "NODE");
    b.insert(node.end, b.substr(node.header, node.end - node.header));
    reseal(b);
    QVERIFY2(decodeError(b).find("duplicate chunk NODE") == 0, decodeError(b).c_str());

    // unknown chunks (a newer writer's additions) are skipped, before and after known ones
    b = good;
    const std::string extra = std::string("XTRA") + std::string(8, '\0') + "future data";
    std::string withExtra = extra;
    putU64(withExtra, 4, 11);
    b.insert(chunk(b, "END ").header, withExtra);
    b.insert(12, withExtra);
    reseal(b);
    QVERIFY2(io::decodeReducedBody(b, out, &error), error.c_str());
    compareBodies(fullBody(), out);

    // an invalid tag
    b = good;
    b[chunk(b, "SURF").header + 1] = '\x01';
    QVERIFY2(decodeError(b).find("corrupted chunk header at byte") == 0, decodeError(b).c_str());
  }

  void randomMutationsWithValidChecksum() {
    // hostile files that pass the checksum: random bytes in the payloads, then resealed; the
    // decoder must either load a consistent body or give a message, never crash
    const std::string good = io::encodeReducedBody(fullBody());
    std::vector<Chunk> parts = chunks(good);
    parts.pop_back();  // not END
    std::mt19937 rng(2024);
    int loaded = 0;
    for (int i = 0; i < 3000; ++i) {
      std::string b = good;
      const Chunk& c = parts[rng() % parts.size()];
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < edits; ++k) {
        // favour the count fields at the start of a payload
        const std::size_t span = (rng() % 2) ? 24 : c.end - c.begin;
        const std::size_t at = c.begin + rng() % std::min(span, c.end - c.begin);
        b[at] = static_cast<char>(rng() % 3 == 0 ? 0xff : rng());
      }
      reseal(b);
      fe::ReducedBody out;
      std::string error;
      if (io::decodeReducedBody(b, out, &error)) {
        ++loaded;
        QCOMPARE_STR(io::checkReducedBody(out), std::string());  // whatever loads is consistent
      } else {
        QVERIFY(!error.empty());
      }
    }
    QVERIFY(loaded > 0 && loaded < 3000);
  }

  void failedLoadLeavesOutputUnchanged() {
    std::string b = io::encodeReducedBody(fullBody());
    b[chunk(b, "INVR").begin + 20] ^= 1;
    fe::ReducedBody out;
    out.name = "keep";
    QVERIFY(!io::decodeReducedBody(b, out, nullptr));  // no error pointer: still no crash
    QCOMPARE(out.name, std::string("keep"));
  }

  // ---- display surface ----

  void surfaceTet4() {
    fe::FeModel mesh;
    const auto n = addNodes(mesh, kTetCorners);
    addElement(mesh, fe::ElementType::Tet4, n);
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(4));
    // Abaqus face order S1 (1-2-3), S2 (1-4-2), S3 (2-4-3), S4 (3-4-1), reversed to point out
    const std::vector<std::array<int, 3>> expected = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
    QVERIFY(tris == expected);
    QVERIFY(allOutward(mesh, tris, centroidOf(kTetCorners)));
    QVERIFY(closedAndConsistent(tris));
    QVERIFY(std::abs(enclosedVolume(mesh, tris) - tetVolume(kTetCorners)) < 1e-14);
  }

  void surfaceInvertedTetStillOutward() {
    fe::FeModel mesh;
    const auto n = addNodes(mesh, kTetCorners);
    addElement(mesh, fe::ElementType::Tet4, {n[0], n[2], n[1], n[3]});  // mirrored node order
    const auto tris = fe::outerSurface(mesh);
    QVERIFY(allOutward(mesh, tris, centroidOf(kTetCorners)));
    QVERIFY(std::abs(enclosedVolume(mesh, tris) - tetVolume(kTetCorners)) < 1e-14);
  }

  void surfaceTet10() {
    fe::FeModel mesh;
    std::vector<Eigen::Vector3d> corners = kTetCorners;
    corners[3] = Eigen::Vector3d(1.7, 1.2, 0.4);  // a flat, distorted tet
    const auto n = withMidNodes(mesh, addNodes(mesh, corners), kTet10Edges);
    addElement(mesh, fe::ElementType::Tet10, n);
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(16));
    std::set<int> used;
    for (const auto& t : tris) used.insert(t.begin(), t.end());
    QCOMPARE(used.size(), std::size_t(10));  // every corner and mid-edge node is on the surface
    QVERIFY(closedAndConsistent(tris));
    QVERIFY(allOutward(mesh, tris, centroidOf(corners)));
    QVERIFY(tetVolume(corners) > 0);
    QVERIFY2(std::abs(enclosedVolume(mesh, tris) - tetVolume(corners)) < 1e-14 * 100,
             std::to_string(enclosedVolume(mesh, tris) - tetVolume(corners)).c_str());
  }

  void surfaceTwoTetsSharingAFace() {
    fe::FeModel mesh;
    const auto n = addNodes(mesh, kTetCorners);
    // the second tet is the first mirrored through face 1-2-3 (nodes 0, 1, 2): apex below
    const int apex = addNode(mesh, Eigen::Vector3d(0.5, 0.3, -1.0));
    addElement(mesh, fe::ElementType::Tet4, n);
    addElement(mesh, fe::ElementType::Tet4, {n[0], n[2], n[1], apex});
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(6));
    for (const auto& t : tris) {
      std::array<int, 3> s = t;
      std::sort(s.begin(), s.end());
      QVERIFY(s != (std::array<int, 3>{n[0], n[1], n[2]}));  // the inner face is gone
    }
    QVERIFY(closedAndConsistent(tris));
    const double v = tetVolume(kTetCorners) + tetVolume({kTetCorners[0], kTetCorners[2], kTetCorners[1], mesh.coords[apex]});
    QVERIFY(std::abs(enclosedVolume(mesh, tris) - v) < 1e-14);
    QCOMPARE(fe::connectedParts(mesh), 1);
  }

  void surfaceHex8() {
    fe::FeModel mesh;
    const auto x = distortedHexCorners();
    addElement(mesh, fe::ElementType::Hex8, addNodes(mesh, x));
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(12));
    QVERIFY(closedAndConsistent(tris));
    QVERIFY(allOutward(mesh, tris, centroidOf(x)));
    QVERIFY(std::abs(enclosedVolume(mesh, tris) - hexVolume(x)) < 1e-12);
    mesh.elements[0].type = fe::ElementType::Hex8R;
    QVERIFY(fe::outerSurface(mesh) == tris);
  }

  void surfaceHex20() {
    fe::FeModel mesh;
    const auto x = distortedHexCorners();
    const auto n = withMidNodes(mesh, addNodes(mesh, x), kHex20Edges);
    addElement(mesh, fe::ElementType::Hex20, n);
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(36));
    std::set<int> used;
    for (const auto& t : tris) used.insert(t.begin(), t.end());
    QCOMPARE(used.size(), std::size_t(20));
    QVERIFY(closedAndConsistent(tris));
    QVERIFY(allOutward(mesh, tris, centroidOf(x)));
    const double v = hexVolume(x);
    QVERIFY(v > 1);
    QVERIFY2(std::abs(enclosedVolume(mesh, tris) - v) < 1e-12 * v,
             (std::to_string(enclosedVolume(mesh, tris)) + " vs " + std::to_string(v)).c_str());
    mesh.elements[0].type = fe::ElementType::Hex20R;
    QVERIFY(fe::outerSurface(mesh) == tris);
  }

  void surfaceTwoHex20SharingAFace() {
    fe::FeModel mesh;
    const auto x = distortedHexCorners();
    std::vector<Eigen::Vector3d> y(8);  // the next brick on top: its bottom is the first one's top
    for (int k = 0; k < 4; ++k) {
      y[k] = x[k + 4];
      y[k + 4] = x[k + 4] + (x[k + 4] - x[k]) * 0.5;
    }
    const auto a = withMidNodes(mesh, addNodes(mesh, x), kHex20Edges);
    std::vector<int> bc = {a[4], a[5], a[6], a[7]};
    for (int k = 4; k < 8; ++k) bc.push_back(addNode(mesh, y[k]));
    // the shared face's mid nodes are a[12..15]; the rest are new
    std::vector<int> b = bc;
    b.insert(b.end(), {a[12], a[13], a[14], a[15]});
    for (int e = 4; e < 12; ++e)
      b.push_back(addNode(mesh, 0.5 * (mesh.coords[bc[kHex20Edges[e][0]]] + mesh.coords[bc[kHex20Edges[e][1]]])));
    addElement(mesh, fe::ElementType::Hex20, a);
    addElement(mesh, fe::ElementType::Hex20, b);
    const auto tris = fe::outerSurface(mesh);
    QCOMPARE(tris.size(), std::size_t(2 * 36 - 2 * 6));
    QVERIFY(closedAndConsistent(tris));
    const double v = hexVolume(x) + hexVolume(y);
    QVERIFY(std::abs(enclosedVolume(mesh, tris) - v) < 1e-12 * v);
  }

  void connectedPartsCounts() {
    fe::FeModel mesh;
    QCOMPARE(fe::connectedParts(mesh), 0);
    addElement(mesh, fe::ElementType::Tet4, addNodes(mesh, kTetCorners));
    std::vector<Eigen::Vector3d> shifted = kTetCorners;
    for (auto& p : shifted) p.x() += 5;
    const auto second = addNodes(mesh, shifted);
    addNode(mesh, Eigen::Vector3d(9, 9, 9));  // a node of no element is not a part
    addElement(mesh, fe::ElementType::Tet4, second);
    QCOMPARE(fe::connectedParts(mesh), 2);
    QCOMPARE(fe::outerSurface(mesh).size(), std::size_t(8));
    std::vector<Eigen::Vector3d> third = kTetCorners;
    for (auto& p : third) p.y() += 5;
    auto t = addNodes(mesh, third);
    addElement(mesh, fe::ElementType::Tet4, t);
    QCOMPARE(fe::connectedParts(mesh), 3);
    t[0] = second[2];  // sharing a single node joins two parts
    addElement(mesh, fe::ElementType::Tet4, t);
    QCOMPARE(fe::connectedParts(mesh), 2);
  }

  void surfaceIntoReducedBody() {
    // the surface is a valid SURF chunk of a body on the same nodes
    fe::FeModel mesh;
    const auto x = distortedHexCorners();
    addElement(mesh, fe::ElementType::Hex20, withMidNodes(mesh, addNodes(mesh, x), kHex20Edges));
    fe::ReducedBody body;
    body.node_ids = mesh.node_ids;
    body.coords = mesh.coords;
    body.node_mass.assign(mesh.coords.size(), 0.1);
    body.surface = fe::outerSurface(mesh);
    std::string error;
    QVERIFY2(io::saveReducedBody(body, path("hex20.frb"), &error), error.c_str());
    fe::ReducedBody back;
    QVERIFY2(io::loadReducedBody(path("hex20.frb"), back, &error), error.c_str());
    QVERIFY(back.surface == body.surface);
  }

  /// Effective mass of the committed Craig-Bampton rod (both ends clamped by rigid
  /// interfaces): the first bending pair carries 69.03 % of the mass in each transverse
  /// direction, the third 13.23 % (Euler-Bernoulli clamped-clamped beam, integrals of the
  /// mode shape computed independently). Axial effective mass of bending modes is nil, and
  /// the free-free rod's elastic modes carry none (no net momentum).
  void effectiveMassOfClampedRod() {
    fe::ReducedBody cb;
    std::string error;
    QVERIFY2(io::loadReducedBody(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_cb.frb", cb, &error), error.c_str());
    const Eigen::MatrixXd shares = fe::effectiveMassShares(cb);
    std::vector<long> fixed;
    for (long j = 0; j < shares.cols(); ++j)
      if (cb.kinds[std::size_t(j)] == fe::ModeKind::FixedInterface) fixed.push_back(j);
    QVERIFY(fixed.size() >= 4);
    // the lowest two fixed-interface modes are the first bending pair (degenerate: any split
    // between y and z), the pair's y and z sums are each the first mode's share
    const double y = shares(1, fixed[0]) + shares(1, fixed[1]), z = shares(2, fixed[0]) + shares(2, fixed[1]);
    QVERIFY2(std::abs(y - 0.6903) < 0.01 && std::abs(z - 0.6903) < 0.01, qPrintable(QString("%1 %2").arg(y).arg(z)));
    QVERIFY(shares(0, fixed[0]) < 1e-6);
    double total = 0.0;
    for (long j : fixed) total += shares(1, j);
    QVERIFY2(std::abs(total - (0.6903 + 0.1323)) < 0.015, qPrintable(QString::number(total)));

    fe::ReducedBody free;
    QVERIFY2(io::loadReducedBody(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.frb", free, &error), error.c_str());
    const Eigen::MatrixXd none = fe::effectiveMassShares(free);
    for (long j = 0; j < none.cols(); ++j)
      if (free.kinds[std::size_t(j)] == fe::ModeKind::Elastic) QVERIFY2(none.col(j).maxCoeff() < 1e-3, qPrintable(QString::number(none.col(j).maxCoeff())));
    // rigid translations move the whole mass
    QVERIFY(std::abs(none.col(0).sum() - 1.0) < 1e-9);
    fe::ValidationReport report;
    fe::reportReducedBody(cb, report);
    QVERIFY(report.str().find("effective mass of the") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(ReducedBodyTest)
#include "reduced_body_test.moc"
