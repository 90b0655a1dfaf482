// Gmsh .msh 4.1 and Nastran bulk data importers on the real fixtures of tests/data/fe:
//  * the same gmsh mesh read from .msh (gmsh node order, mapped) and from gmsh's own .inp
//    (already in Abaqus order) gives identical nodes, elements and sets — checked against an
//    independent mini-parser of the .inp text written here, and against readCalculixInp;
//  * the mapped node order is right geometrically: every mid-edge node lies at the midpoint of
//    its Abaqus edge (straight-edged meshes), and the unmapped gmsh order would not;
//  * physical groups become sets of the expected size and position;
//  * the hand-written Nastran model (small, free and large field) equals its .inp twin;
//  * malformed input gives "file:line" errors with a readable message, never a crash or hang.
#include "io/fe/calculix_inp.h"
#include "io/fe/gmsh_msh.h"
#include "io/fe/nastran.h"
#include "tests/io_fe/damage.h"

#include <Eigen/Geometry>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace flexim;

namespace {

const std::string kData = FLEXIM_FE_DATA;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> splitComma(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, ',');) {
    const auto b = f.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;  // gmsh's trailing ", "
    out.push_back(f.substr(b, f.find_last_not_of(" \t\r") - b + 1));
  }
  return out;
}

/// Independent reading of a gmsh-written .inp (not the project's importer): nodes, elements of
/// one type (node ids as written, i.e. Abaqus order) and the members of a set.
struct InpText {
  std::map<int, Eigen::Vector3d> nodes;
  std::map<int, std::vector<int>> elements;
  std::map<std::string, std::set<int>> nsets, elsets;
};

InpText readInpText(const std::string& path, const std::string& type, int nodesPerElement) {
  InpText t;
  std::ifstream in(path);
  enum { None, Node, Elem, NSet, ElSet } block = None;
  std::string setName;
  std::vector<int> pending;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("**", 0) == 0) continue;
    if (line.rfind("*", 0) == 0) {
      const std::string u = upper(line);
      std::string compact;
      for (char c : u)
        if (c != ' ') compact += c;
      block = None;
      if (compact.rfind("*NODE", 0) == 0 && compact.rfind("*NODEFILE", 0) != 0) block = Node;
      if (compact.rfind("*ELEMENT,", 0) == 0 && compact.find("TYPE=" + type + ",") != std::string::npos) block = Elem;
      if (compact.rfind("*NSET,NSET=", 0) == 0) {
        block = NSet;
        setName = compact.substr(11);
      }
      if (compact.rfind("*ELSET,ELSET=", 0) == 0) {
        block = ElSet;
        setName = compact.substr(13);
      }
      continue;
    }
    const auto f = splitComma(line);
    if (block == Node && f.size() == 4)
      t.nodes[std::stoi(f[0])] = Eigen::Vector3d(std::stod(f[1]), std::stod(f[2]), std::stod(f[3]));
    if (block == Elem) {
      for (const auto& x : f) pending.push_back(std::stoi(x));
      if (static_cast<int>(pending.size()) == nodesPerElement + 1) {
        t.elements[pending[0]] = std::vector<int>(pending.begin() + 1, pending.end());
        pending.clear();
      }
    }
    if (block == NSet)
      for (const auto& x : f) t.nsets[setName].insert(std::stoi(x));
    if (block == ElSet)
      for (const auto& x : f) t.elsets[setName].insert(std::stoi(x));
  }
  return t;
}

/// Abaqus edges of the mid-edge nodes (0-based corner pairs), for positions first.. of the type.
const std::vector<std::array<int, 2>> kTet10Edges{{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
const std::vector<std::array<int, 2>> kHex20Edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                  {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

/// Largest distance of a mid-edge node from the midpoint of its edge, using the given edge
/// table for node positions corners.. (edges[i] belongs to node corners + firstEdge + i),
/// relative to the edge length.
double worstMidpoint(const fe::FeModel& m, const fe::Element& e, int corners,
                     const std::vector<std::array<int, 2>>& edges, const std::vector<int>* order = nullptr,
                     int firstEdge = 0) {
  auto x = [&](int k) { return m.coords[e.nodes[order ? (*order)[k] : k]]; };
  double worst = 0.0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Eigen::Vector3d a = x(edges[i][0]), b = x(edges[i][1]), c = x(corners + firstEdge + static_cast<int>(i));
    worst = std::max(worst, (c - 0.5 * (a + b)).norm() / (b - a).norm());
  }
  return worst;
}

/// Signed volume of the corner tetrahedron 0-1-2-3 (tets) or of 0-1-3-4 (hexes, the corner at
/// node 0): positive for Abaqus-oriented elements.
double cornerVolume(const fe::FeModel& m, const fe::Element& e) {
  const bool hex = e.type != fe::ElementType::Tet4 && e.type != fe::ElementType::Tet10;
  const Eigen::Vector3d o = m.coords[e.nodes[0]];
  const Eigen::Vector3d a = m.coords[e.nodes[1]] - o, b = m.coords[e.nodes[hex ? 3 : 2]] - o,
                        c = m.coords[e.nodes[hex ? 4 : 3]] - o;
  return a.cross(b).dot(c) / 6.0;
}

std::set<int> ids(const fe::FeModel& m, const std::vector<int>& indices, bool elements) {
  std::set<int> out;
  for (int i : indices) out.insert(elements ? m.elements[i].id : m.node_ids[i]);
  return out;
}

std::vector<int> elementNodeIds(const fe::FeModel& m, const fe::Element& e) {
  std::vector<int> out;
  for (int k = 0; k < fe::nodeCount(e.type); ++k) out.push_back(m.node_ids[e.nodes[k]]);
  return out;
}

/// "where: message" of the first error, or "" if none.
std::string firstError(const Diagnostics& diag) {
  for (const auto& d : diag.items())
    if (d.severity == Severity::Error) return d.where + ": " + d.message;
  return {};
}

bool hasMessage(const Diagnostics& diag, Severity s, const std::string& text) {
  for (const auto& d : diag.items())
    if (d.severity == s && (d.where + ": " + d.message).find(text) != std::string::npos) return true;
  return false;
}

fe::FeModel loadMsh(const std::string& rel) {
  fe::FeModel m;
  Diagnostics diag;
  const bool ok = io::readGmshMsh(kData + "/" + rel, m, diag);
  if (!ok || diag.hasErrors()) qFatal("%s: %s", rel.c_str(), diag.str().c_str());
  return m;
}

// A complete small .msh: one tet4 and a physical surface triangle.
const char* kTinyMsh =
    "$MeshFormat\n"            // 1
    "4.1 0 8\n"                // 2
    "$EndMeshFormat\n"         // 3
    "$PhysicalNames\n"         // 4
    "2\n"                      // 5
    "2 1 \"bottom face\"\n"    // 6
    "3 2 \"Solid\"\n"          // 7
    "$EndPhysicalNames\n"      // 8
    "$Entities\n"              // 9
    "0 0 1 1\n"                // 10
    "1 0 0 0 1 1 0 1 1 0\n"    // 11
    "1 0 0 0 1 1 1 1 2 1 1\n"  // 12
    "$EndEntities\n"           // 13
    "$Nodes\n"                 // 14
    "1 4 1 4\n"                // 15
    "3 1 0 4\n"                // 16
    "1\n"                      // 17
    "2\n"                      // 18
    "3\n"                      // 19
    "4\n"                      // 20
    "0 0 0\n"                  // 21
    "1 0 0\n"                  // 22
    "0 1 0\n"                  // 23
    "0 0 1\n"                  // 24
    "$EndNodes\n"              // 25
    "$Elements\n"              // 26
    "2 2 1 2\n"                // 27
    "2 1 2 1\n"                // 28
    "1 1 3 2\n"                // 29
    "3 1 4 1\n"                // 30
    "2 1 2 3 4\n"              // 31
    "$EndElements\n";          // 32

std::string replaceLine(std::string text, int lineNo, const std::string& with) {
  std::size_t start = 0;
  for (int i = 1; i < lineNo; ++i) start = text.find('\n', start) + 1;
  const std::size_t end = text.find('\n', start);
  return text.replace(start, end - start, with);
}

std::string mshError(const std::string& text, bool* ok = nullptr) {
  fe::FeModel m;
  Diagnostics diag;
  const bool r = io::readGmshMshFromString(text, "in.msh", m, diag);
  if (ok) *ok = r;
  if (!r && !diag.hasErrors()) qFatal("failed without an error");
  if (r && diag.hasErrors()) qFatal("succeeded with an error");
  return firstError(diag);
}

std::string bdfError(const std::string& text, Diagnostics* all = nullptr) {
  fe::FeModel m;
  Diagnostics diag;
  const bool r = io::readNastranBulkFromString(text, "in.bdf", m, diag);
  if (!r && !diag.hasErrors()) qFatal("failed without an error");
  if (r && diag.hasErrors()) qFatal("succeeded with an error");
  if (all) *all = diag;
  return firstError(diag);
}

// A small valid Nastran deck: one CTETRA (4) on 4 grids.
const char* kTinyBdf =
    "BEGIN BULK\n"                                         // 1
    "GRID    1               0.      0.      0.\n"         // 2
    "GRID    2               1.      0.      0.\n"         // 3
    "GRID    3               0.      1.      0.\n"         // 4
    "GRID    4               0.      0.      1.\n"         // 5
    "CTETRA  1       1       1       2       3       4\n"  // 6
    "PSOLID  1       1\n"                                  // 7
    "MAT1    1       2.1+11          .3      7850.\n"      // 8
    "ENDDATA\n";                                           // 9

}  // namespace

class GmshNastranTest : public QObject {
  Q_OBJECT

 private slots:
  void orderTables();
  void beamMshEqualsGmshInp_data();
  void beamMshEqualsGmshInp();
  void midEdgeNodesAtMidpoints();
  void physicalGroupsBecomeSets();
  void mshMatchesCalculixImporter();
  void nastranEqualsInp_data();
  void nastranEqualsInp();
  void nastranReals();
  void mshMalformed();
  void mshFuzz();
  void nastranMalformed();
  void nastranIncludes();
  void nastranFuzz();
};

void GmshNastranTest::orderTables() {
  const auto tet10 = io::gmshToAbaqus(11);
  QCOMPARE(std::vector<int>(tet10.begin(), tet10.end()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 9, 8}));
  const auto hex20 = io::gmshToAbaqus(17);
  QCOMPARE(std::vector<int>(hex20.begin(), hex20.end()),
           (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15}));
  QCOMPARE(io::gmshToAbaqus(4).size(), std::size_t(4));
  QCOMPARE(io::gmshToAbaqus(5).size(), std::size_t(8));
  QVERIFY(io::gmshToAbaqus(13).empty());  // prism18: not imported
  QVERIFY(io::gmshToAbaqus(9).empty());  // tri6: boundary only
  const auto nh = io::nastranToAbaqus(fe::ElementType::Hex20);
  QCOMPARE(std::vector<int>(nh.begin(), nh.end()),
           (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15}));
  const auto nt = io::nastranToAbaqus(fe::ElementType::Tet10);
  QCOMPARE(std::vector<int>(nt.begin(), nt.end()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  for (int type : {4, 5, 11, 17}) {  // permutations
    auto p = io::gmshToAbaqus(type);
    std::vector<int> s(p.begin(), p.end());
    std::sort(s.begin(), s.end());
    for (std::size_t i = 0; i < s.size(); ++i) QCOMPARE(s[i], static_cast<int>(i));
  }
}

void GmshNastranTest::beamMshEqualsGmshInp_data() {
  QTest::addColumn<QString>("msh");
  QTest::addColumn<QString>("inp");
  QTest::addColumn<QString>("type");
  QTest::addColumn<int>("nodes");
  QTest::newRow("beam tet10") << "beam/mesh.msh"
                              << "beam/mesh_gmsh.inp"
                              << "C3D10" << 10;
  QTest::newRow("beam tet10 (ccx)") << "beam/mesh.msh"
                                    << "beam/mesh_ccx.inp"
                                    << "C3D10" << 10;
  QTest::newRow("beam hex20") << "beam/mesh_hex.msh"
                              << "beam/mesh_hex_gmsh.inp"
                              << "C3D20" << 20;
  QTest::newRow("conrod tet10") << "conrod/mesh.msh"
                                << "conrod/mesh_gmsh.inp"
                                << "C3D10" << 10;
  QTest::newRow("bracket tet4") << "bracket/mesh.msh"
                                << "bracket/mesh_gmsh.inp"
                                << "C3D4" << 4;
}

// The .msh (gmsh order, mapped by the importer) and gmsh's .inp of the same meshing run (gmsh
// wrote it in Abaqus order) must agree element by element.
void GmshNastranTest::beamMshEqualsGmshInp() {
  QFETCH(QString, msh);
  QFETCH(QString, inp);
  QFETCH(QString, type);
  QFETCH(int, nodes);
  const fe::FeModel m = loadMsh(msh.toStdString());
  const InpText t = readInpText(kData + "/" + inp.toStdString(), type.toStdString(), nodes);

  QCOMPARE(m.nodeCount(), static_cast<int>(t.nodes.size()));
  for (int i = 0; i < m.nodeCount(); ++i) {
    const auto it = t.nodes.find(m.node_ids[i]);
    QVERIFY(it != t.nodes.end());
    // .msh has 16 digits, gmsh's .inp about 14
    QVERIFY2((it->second - m.coords[i]).norm() < 1e-12, qPrintable(QString::number(m.node_ids[i])));
  }
  QCOMPARE(m.elements.size(), t.elements.size());
  for (const auto& e : m.elements) {
    QCOMPARE(fe::nodeCount(e.type), nodes);
    const auto it = t.elements.find(e.id);
    QVERIFY(it != t.elements.end());
    QCOMPARE(elementNodeIds(m, e), it->second);
  }
  // sets: every NSET of the .inp; the volume ELSET
  for (const auto& [name, members] : t.nsets) {
    QVERIFY2(m.node_sets.count(name), name.c_str());
    QCOMPARE(ids(m, m.node_sets.at(name), false), members);
  }
  for (const auto& [name, members] : t.elsets) {
    if (name.rfind("VOLUME", 0) == 0 || name.rfind("SURFACE", 0) == 0) continue;  // entity sets
    bool solid = true;
    for (int id : members) solid = solid && t.elements.count(id);
    if (!solid) continue;  // a physical surface's CPS elements
    QVERIFY2(m.element_sets.count(name), name.c_str());
    QCOMPARE(ids(m, m.element_sets.at(name), true), members);
  }
}

void GmshNastranTest::midEdgeNodesAtMidpoints() {
  // straight-edged meshes: mid-edge nodes exactly at the midpoints of the Abaqus edges
  {
    const fe::FeModel m = loadMsh("beam/mesh.msh");
    double worst = 0.0, worstGmshOrder = 0.0;
    // the importer's order read as if it were gmsh's (i.e. without the map) must fail
    const std::vector<int> inv = [] {
      auto p = io::gmshToAbaqus(11);
      std::vector<int> v(10);
      for (int i = 0; i < 10; ++i) v[p[i]] = i;
      return v;
    }();
    for (const auto& e : m.elements) {
      QCOMPARE(e.type, fe::ElementType::Tet10);
      QVERIFY(cornerVolume(m, e) > 0.0);
      worst = std::max(worst, worstMidpoint(m, e, 4, kTet10Edges));
      // positions in gmsh order with Abaqus edge definitions = the mistake a missing map makes
      worstGmshOrder = std::max(worstGmshOrder, worstMidpoint(m, e, 4, kTet10Edges, &inv));
    }
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
    QVERIFY(worstGmshOrder > 0.1);
  }
  {
    const fe::FeModel m = loadMsh("beam/mesh_hex.msh");
    double worst = 0.0;
    for (const auto& e : m.elements) {
      QCOMPARE(e.type, fe::ElementType::Hex20);
      QVERIFY(cornerVolume(m, e) > 0.0);
      worst = std::max(worst, worstMidpoint(m, e, 8, kHex20Edges));
    }
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
  }
  // curved bores and rims: mid-edge nodes there lie on the circles, so they are only close to
  // the midpoints (an arc of radius R is off the chord midpoint by about L / (8 R)); the
  // straight edges inside are exact
  {
    const fe::FeModel m = loadMsh("conrod/mesh.msh");
    int exact = 0, edges = 0;
    double worst = 0.0;
    for (const auto& e : m.elements) {
      QVERIFY(cornerVolume(m, e) > 0.0);
      for (int i = 0; i < 6; ++i) {
        const double w = worstMidpoint(m, e, 4, {kTet10Edges[i]}, nullptr, i);
        worst = std::max(worst, w);
        exact += w < 1e-9;
        ++edges;
      }
    }
    QVERIFY2(worst < 0.15, qPrintable(QString::number(worst)));
    QVERIFY2(exact > edges * 3 / 4, qPrintable(QString("%1 of %2").arg(exact).arg(edges)));
  }
  {
    const fe::FeModel m = loadMsh("bracket/mesh.msh");
    for (const auto& e : m.elements) {
      QCOMPARE(e.type, fe::ElementType::Tet4);
      QVERIFY(cornerVolume(m, e) > 0.0);
    }
  }
}

void GmshNastranTest::physicalGroupsBecomeSets() {
  {
    const fe::FeModel m = loadMsh("beam/mesh.msh");
    QCOMPARE(m.nodeCount(), 1365);
    QCOMPARE(m.elements.size(), std::size_t(616));
    QCOMPARE(m.elements.front().id, 9);  // tags 1..8 are the END0/END1 triangles
    QCOMPARE(m.node_sets.size(), std::size_t(3));
    QCOMPARE(m.node_sets.at("END0").size(), std::size_t(13));
    QCOMPARE(m.node_sets.at("END1").size(), std::size_t(13));
    QCOMPARE(m.node_sets.at("BEAM").size(), std::size_t(1365));
    QCOMPARE(m.element_sets.size(), std::size_t(1));
    QCOMPARE(m.element_sets.at("BEAM").size(), std::size_t(616));
    for (int i : m.node_sets.at("END0")) QVERIFY(std::abs(m.coords[i].x()) < 1e-12);
    for (int i : m.node_sets.at("END1")) QVERIFY(std::abs(m.coords[i].x() - 0.3) < 1e-12);
    for (const auto& e : m.elements) QCOMPARE(e.material, -1);
    QCOMPARE(m.sources, std::vector<std::string>{kData + "/beam/mesh.msh"});
  }
  {
    const fe::FeModel m = loadMsh("beam/mesh_hex.msh");
    QCOMPARE(m.nodeCount(), 248);
    QCOMPARE(m.elements.size(), std::size_t(20));
    QCOMPARE(m.node_sets.at("END0").size(), std::size_t(8));
    QCOMPARE(m.node_sets.at("END1").size(), std::size_t(8));
  }
  {
    const fe::FeModel m = loadMsh("conrod/mesh.msh");
    QCOMPARE(m.nodeCount(), 2040);
    QCOMPARE(m.elements.size(), std::size_t(906));
    QCOMPARE(m.node_sets.at("BORE_BIG").size(), std::size_t(200));
    QCOMPARE(m.node_sets.at("BORE_SMALL").size(), std::size_t(116));
    QCOMPARE(m.element_sets.at("CONROD").size(), std::size_t(906));
    for (int i : m.node_sets.at("BORE_BIG"))
      QVERIFY(std::abs(std::hypot(m.coords[i].x(), m.coords[i].y()) - 0.013) < 1e-7);
    for (int i : m.node_sets.at("BORE_SMALL"))
      QVERIFY(std::abs(std::hypot(m.coords[i].x() - 0.12, m.coords[i].y()) - 0.007) < 1e-7);
  }
  {
    const fe::FeModel m = loadMsh("bracket/mesh.msh");
    QCOMPARE(m.nodeCount(), 856);
    QCOMPARE(m.elements.size(), std::size_t(2342));
    QCOMPARE(m.node_sets.at("HOLE").size(), std::size_t(22));
    QCOMPARE(m.node_sets.at("TOP").size(), std::size_t(34));
    for (int i : m.node_sets.at("HOLE"))
      QVERIFY(std::abs(std::hypot(m.coords[i].x() - 0.04, m.coords[i].y() - 0.02) - 0.004) < 1e-7);
    for (int i : m.node_sets.at("TOP")) QVERIFY(std::abs(m.coords[i].z() - 0.05) < 1e-12);
  }
  {  // names with blanks, upper case; unnamed-group fallback is not needed here
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readGmshMshFromString(kTinyMsh, "tiny.msh", m, diag), qPrintable(QString::fromStdString(diag.str())));
    QCOMPARE(m.elements.size(), std::size_t(1));
    QCOMPARE(m.elements[0].id, 2);
    QCOMPARE(ids(m, m.node_sets.at("BOTTOM FACE"), false), (std::set<int>{1, 2, 3}));
    QCOMPARE(ids(m, m.node_sets.at("SOLID"), false), (std::set<int>{1, 2, 3, 4}));
    QCOMPARE(ids(m, m.element_sets.at("SOLID"), true), (std::set<int>{2}));
    QVERIFY(!m.element_sets.count("BOTTOM FACE"));
  }
}

// The project's .inp importer and the .msh importer agree on all fixtures that exist in both forms.
void GmshNastranTest::mshMatchesCalculixImporter() {
  const std::vector<std::pair<std::string, std::string>> pairs{{"beam/mesh.msh", "beam/mesh_ccx.inp"},
                                                               {"beam/mesh_hex.msh", "beam/mesh_hex_ccx.inp"},
                                                               {"conrod/mesh.msh", "conrod/mesh_ccx.inp"},
                                                               {"bracket/mesh.msh", "bracket/mesh_ccx.inp"}};
  for (const auto& [msh, inp] : pairs) {
    const fe::FeModel a = loadMsh(msh);
    fe::FeModel b;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInp(kData + "/" + inp, b, diag), qPrintable(QString::fromStdString(diag.str())));
    QCOMPARE(a.node_ids, b.node_ids);
    for (int i = 0; i < a.nodeCount(); ++i) QVERIFY((a.coords[i] - b.coords[i]).norm() < 1e-12);
    QCOMPARE(a.elements.size(), b.elements.size());
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
      QCOMPARE(a.elements[i].id, b.elements[i].id);
      QCOMPARE(a.elements[i].type, b.elements[i].type);
      QCOMPARE(elementNodeIds(a, a.elements[i]), elementNodeIds(b, b.elements[i]));
    }
    for (const auto& [name, members] : a.node_sets) {
      QVERIFY2(b.node_sets.count(name), name.c_str());
      QCOMPARE(ids(a, members, false), ids(b, b.node_sets.at(name), false));
    }
  }
}

void GmshNastranTest::nastranEqualsInp_data() {
  QTest::addColumn<QString>("bdf");
  QTest::newRow("small field") << "tiny/two_solids_small.bdf";
  QTest::newRow("free field + INCLUDE") << "tiny/two_solids_free.bdf";
  QTest::newRow("large field GRID*") << "tiny/two_solids_large.bdf";
}

void GmshNastranTest::nastranEqualsInp() {
  QFETCH(QString, bdf);
  fe::FeModel n, a;
  Diagnostics dn, da;
  QVERIFY2(io::readNastranBulk(kData + "/" + bdf.toStdString(), n, dn), qPrintable(QString::fromStdString(dn.str())));
  QVERIFY2(io::readCalculixInp(kData + "/tiny/two_solids.inp", a, da), qPrintable(QString::fromStdString(da.str())));
  QVERIFY(!dn.hasErrors());
  for (const auto& d : dn.items()) QVERIFY2(d.severity == Severity::Info, d.str().c_str());  // PARAM at most

  QCOMPARE(n.node_ids, a.node_ids);
  for (int i = 0; i < n.nodeCount(); ++i) QVERIFY((n.coords[i] - a.coords[i]).norm() < 1e-15);
  QCOMPARE(n.elements.size(), std::size_t(3));
  QCOMPARE(n.elements.size(), a.elements.size());
  for (std::size_t i = 0; i < n.elements.size(); ++i) {
    const auto &en = n.elements[i], &ea = a.elements[i];
    QCOMPARE(en.id, ea.id);
    QCOMPARE(en.type, ea.type);
    QCOMPARE(elementNodeIds(n, en), elementNodeIds(a, ea));
    const auto &mn = n.materials.at(en.material), &ma = a.materials.at(ea.material);
    QVERIFY(std::abs(mn.E / ma.E - 1.0) < 1e-5);
    QVERIFY(std::abs(mn.nu - ma.nu) < 1e-4);
    QCOMPARE(mn.rho, ma.rho);
    QVERIFY(mn.has_elastic && mn.has_density);
  }
  // the CHEXA's mid-edge grids are labelled in Abaqus order: mapped list is 1..20
  std::vector<int> one20(20);
  for (int i = 0; i < 20; ++i) one20[i] = i + 1;
  QCOMPARE(elementNodeIds(n, n.elements[0]), one20);
  QCOMPARE(elementNodeIds(n, n.elements[1]), (std::vector<int>{5, 6, 8, 21, 13, 22, 16, 23, 24, 25}));
  QCOMPARE(n.elements[2].type, fe::ElementType::Tet4);
  QVERIFY(worstMidpoint(n, n.elements[0], 8, kHex20Edges) < 1e-15);
  QVERIFY(worstMidpoint(n, n.elements[1], 4, kTet10Edges) < 1e-15);
  for (const auto& e : n.elements) QVERIFY(cornerVolume(n, e) > 0.0);
  QCOMPARE(ids(n, n.element_sets.at("PSOLID_1"), true), (std::set<int>{10}));
  QCOMPARE(ids(n, n.element_sets.at("PSOLID_2"), true), (std::set<int>{20, 30}));
  QCOMPARE(n.materials.size(), std::size_t(2));
  QCOMPARE(n.materials[0].name, std::string("MAT1_1"));
  QCOMPARE(n.materials[0].E, 2.1e11);
  QCOMPARE(n.materials[0].nu, 0.3);
  QCOMPARE(n.materials[0].rho, 7850.0);
  if (bdf.contains("free")) QCOMPARE(n.sources.size(), std::size_t(2));
  if (bdf.contains("small")) QVERIFY(hasMessage(dn, Severity::Info, "PARAM: 1 card skipped"));
}

void GmshNastranTest::nastranReals() {
  const std::vector<std::pair<std::string, double>> good{{"1.5", 1.5},           {"1.", 1.0},        {".5", 0.5},
                                                         {"-.5", -0.5},          {"1.5E+3", 1500.0}, {"1.5e3", 1500.0},
                                                         {"1.5D3", 1500.0},      {"2.1+11", 2.1e11}, {"-.5-3", -0.5e-3},
                                                         {"7850", 7850.0},       {" 2.5-1 ", 0.25},  {"+1.0+2", 100.0},
                                                         {"80769.+6", 8.0769e10}};
  for (const auto& [s, v] : good) {
    double x = 0.0;
    std::string problem;
    QVERIFY2(io::parseNastranReal(s, x, &problem), (s + ": " + problem).c_str());
    QVERIFY2(std::abs(x - v) <= 1e-15 * std::abs(v), s.c_str());
  }
  for (std::string s : {"", "nan", "inf", "-inf", "1.0+", "1.2.3", "1.0e5x", "abc", "1.0+400", "1,0", "1 0"}) {
    double x = 0.0;
    std::string problem;
    QVERIFY2(!io::parseNastranReal(s, x, &problem), s.c_str());
    QVERIFY(!problem.empty());
  }
}

void GmshNastranTest::mshMalformed() {
  const std::string ok = kTinyMsh;
  QCOMPARE(mshError(ok), std::string());

  // truncated inside $Nodes, in $Elements, and before the end marker
  QCOMPARE(mshError(ok.substr(0, ok.find("0 1 0\n"))),
           std::string("in.msh:22: unexpected end of file in $Nodes: expected coordinates of node 3"));
  QCOMPARE(mshError(ok.substr(0, ok.find("2 1 2 3 4"))),
           std::string("in.msh:30: unexpected end of file in $Elements: expected an element (1 more in the block "
                       "on line 30)"));
  QCOMPARE(mshError(ok.substr(0, ok.find("$EndElements"))),
           std::string("in.msh:26: unexpected end of file: $Elements has no $EndElements"));
  // a section ends before its counts are reached
  QCOMPARE(mshError(replaceLine(ok, 24, "$EndNodes")),
           std::string("in.msh:24: $Nodes ends early: expected coordinates of node 4, got '$EndNodes'"));
  // NaN / Inf / garbage numbers
  QCOMPARE(mshError(replaceLine(ok, 23, "nan 1 0")),
           std::string("in.msh:23: coordinate of node 3: 'nan' is not a finite number"));
  QCOMPARE(mshError(replaceLine(ok, 23, "0 inf 0")),
           std::string("in.msh:23: coordinate of node 3: 'inf' is not a finite number"));
  QCOMPARE(mshError(replaceLine(ok, 23, "0 1 0x")),
           std::string("in.msh:23: coordinate of node 3: '0x' is not a number"));
  QCOMPARE(mshError(replaceLine(ok, 23, "0 1")),
           std::string("in.msh:23: expected 3 numbers (coordinates) for node 3, got 2"));
  // missing node referenced
  QCOMPARE(mshError(replaceLine(ok, 31, "2 1 2 3 7")),
           std::string("in.msh:31: element 2 uses node 7, which is not in $Nodes"));
  // wrong number of nodes for the type
  QCOMPARE(mshError(replaceLine(ok, 31, "2 1 2 3")),
           std::string("in.msh:31: expected an element tag and 4 node tags (tet4), got 4 numbers"));
  // unknown and unsupported element types
  QCOMPARE(mshError(replaceLine(ok, 30, "3 1 99 1")), std::string("in.msh:30: unknown element type 99"));
  QCOMPARE(mshError(replaceLine(replaceLine(ok, 30, "3 1 14 1"), 31, "2 1 2 3 4 4 4 4 4 4 4 4 4 4 4")),
           std::string("in.msh:30: volume element type 14 (pyramid14) is not supported; supported: tet4 (4), tet10 "
                       "(11), hex8 (5), hex20 (17), prism6 (6), prism15 (18), pyramid5 (7), pyramid13 (19) (save "
                       "serendipity elements: Mesh.SecondOrderIncomplete = 1)"));
  QCOMPARE(
      mshError(replaceLine(ok, 30, "2 1 4 1")),
      std::string("in.msh:30: element type 4 (tet4) has dimension 3 but the block is on an entity of dimension 2"));
  // binary, other versions, not a msh file
  QCOMPARE(mshError(replaceLine(ok, 2, "4.1 1 8")),
           std::string("in.msh:2: binary .msh files are not supported; save the mesh as ASCII (Mesh.Binary = 0)"));
  QCOMPARE(mshError(replaceLine(ok, 2, "2.2 0 8")),
           std::string("in.msh:2: mesh format version 2.2 is not supported; save the mesh as version 4.1 ASCII "
                       "(Mesh.MshFileVersion = 4.1)"));
  QCOMPARE(mshError(replaceLine(ok, 2, "4 0 8")),
           std::string("in.msh:2: mesh format version 4 is not supported; save the mesh as version 4.1 ASCII "
                       "(Mesh.MshFileVersion = 4.1)"));
  QCOMPARE(mshError("*NODE\n1, 0, 0, 0\n"),
           std::string("in.msh:1: not a gmsh .msh file: it must start with $MeshFormat, got '*NODE'"));
  QCOMPARE(mshError(""), std::string("in.msh:0: empty file: not a gmsh .msh file"));
  QVERIFY(mshError(std::string("\x01\x02\xff\xfe\0\0\n", 7))
              .rfind("in.msh:1: not a gmsh .msh file: it must start with $MeshFormat, got '??", 0) == 0);
  // mismatched counts
  QCOMPARE(mshError(replaceLine(ok, 15, "1 5 1 5")),
           std::string("in.msh:15: the header announces 5 nodes, the blocks hold 4"));
  QCOMPARE(mshError(replaceLine(ok, 15, "1 3 1 4")),
           std::string("in.msh:16: node blocks hold more nodes than the 3 announced on line 15"));
  QCOMPARE(mshError(replaceLine(ok, 27, "2 3 1 2")),
           std::string("in.msh:27: the header announces 3 elements, the blocks hold 2"));
  QCOMPARE(mshError(replaceLine(ok, 16, "3 1 0 3")),
           std::string("in.msh:20: expected 3 numbers (coordinates) for node 1, got 1"));
  QCOMPARE(
      mshError(replaceLine(ok, 5, "1")),
      std::string("in.msh:7: expected $EndPhysicalNames (more data than the counts announce?), got '3 2 \"Solid\"'"));
  QCOMPARE(mshError(replaceLine(ok, 5, "3")),
           std::string("in.msh:8: $PhysicalNames ends early: expected 'dim tag \"name\"' (1 more), got "
                       "'$EndPhysicalNames'"));
  // duplicates
  QCOMPARE(mshError(replaceLine(ok, 18, "1")), std::string("in.msh:22: node 1 is defined twice"));
  // partitioned meshes, no volume elements
  QCOMPARE(mshError(ok + "$PartitionedEntities\n1\n$EndPartitionedEntities\n"),
           std::string("in.msh:33: partitioned meshes are not supported; save the mesh without partitions"));
  QCOMPARE(mshError(ok.substr(0, ok.find("$Elements")) + "$Elements\n1 1 1 1\n2 1 2 1\n1 1 3 2\n$EndElements\n"),
           std::string("in.msh: no volume elements (supported: tet4 (4), tet10 (11), hex8 (5), hex20 (17), prism6 (6), "
                       "prism15 (18), pyramid5 (7), pyramid13 (19)); was the mesh generated in 3-D, and are its "
                       "volumes in a physical group?"));
  // unknown sections are skipped with an info
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(io::readGmshMshFromString(ok + "$Comments\nanything\n$EndComments\n", "in.msh", m, diag));
    QVERIFY(hasMessage(diag, Severity::Info, "in.msh:33: section $Comments skipped"));
  }
  // the reader reports the file when it cannot be opened
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(!io::readGmshMsh(kData + "/does_not_exist.msh", m, diag));
    QVERIFY(firstError(diag).find("does_not_exist.msh: cannot open file") != std::string::npos);
  }
  // a failed read leaves the model unchanged
  {
    fe::FeModel m = loadMsh("beam/mesh_hex.msh");
    Diagnostics diag;
    QVERIFY(!io::readGmshMshFromString(replaceLine(ok, 23, "nan 1 0"), "in.msh", m, diag));
    QCOMPARE(m.nodeCount(), 248);
  }
}

// Random damage to real files: never a crash or hang; every failure names file:line.
void GmshNastranTest::mshFuzz() {
  const std::string base = readFile(kData + "/beam/mesh_hex.msh");
  std::mt19937 rng(12345);
  int failures = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::string t = base;
    const int kind = iter % 4;
    std::uniform_int_distribution<std::size_t> pos(0, t.size() - 1);
    if (kind == 0) {
      t.resize(pos(rng));  // truncate
    } else if (kind == 1) {
      t[pos(rng)] = "0123456789 -.e$\n\x00x"[rng() % 18];  // replace a byte
    } else if (kind == 2) {
      const std::size_t p = pos(rng);
      t.erase(p, std::min<std::size_t>(t.size() - p, 1 + rng() % 40));  // delete a run
    } else {
      const std::size_t p = t.rfind('\n', pos(rng));
      const std::size_t q = t.find('\n', p == std::string::npos ? 0 : p + 1);
      if (q != std::string::npos) t.insert(q + 1, t.substr(p == std::string::npos ? 0 : p + 1, q - p));  // dup line
    }
    fe::FeModel m;
    Diagnostics diag;
    const bool ok = io::readGmshMshFromString(t, "fuzz.msh", m, diag);
    QVERIFY(ok != diag.hasErrors());
    if (!ok) {
      ++failures;
      const std::string e = firstError(diag);
      QVERIFY2(e.rfind("fuzz.msh:", 0) == 0 && e.size() > 12, e.c_str());
    }
  }
  QVERIFY(failures > 100);
}

void GmshNastranTest::nastranMalformed() {
  const std::string ok = kTinyBdf;
  QCOMPARE(bdfError(ok), std::string());

  // truncated: a CHEXA with its continuation lines missing, a file cut inside a card
  QCOMPARE(bdfError(ok.substr(0, ok.find("ENDDATA")) +
                    "CHEXA   2       1       1       2       3       4       5       6       +C1\n"),
           std::string("in.bdf:9: CHEXA 2 has 6 grids; CHEXA needs 8 or 20 (card truncated?)"));
  QCOMPARE(bdfError(ok.substr(0, ok.find("       4\nPSOLID"))),
           std::string("in.bdf:6: CTETRA 1 has 3 grids; CTETRA needs 4 or 10 (card truncated?)"));
  QCOMPARE(bdfError(replaceLine(ok, 6, "CTETRA  1       1       1       2       3       4       5")),
           std::string("in.bdf:6: CTETRA 1 has 5 grids; CTETRA needs 4 or 10"));
  // NaN, Inf, garbage reals and integers
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID    2               nan     0.      0.")),
           std::string("in.bdf:3: GRID 2: X1: 'nan' is not a finite number"));
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID,2,,1.,inf,0.")),
           std::string("in.bdf:3: GRID 2: X2: 'inf' is not a finite number"));
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID    2               1.0.0   0.      0.")),
           std::string("in.bdf:3: GRID 2: X1: '1.0.0' is not a real number"));
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID    2x              1.      0.      0.")),
           std::string("in.bdf:3: GRID 2x: grid id: '2x' is not an integer"));
  QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1       1.0+999         .3      7850.")),
           std::string("in.bdf:8: MAT1 1: E: '1.0+999' is out of range"));
  // missing grid, property, material
  QCOMPARE(bdfError(replaceLine(ok, 6, "CTETRA  1       1       1       2       3       99")),
           std::string("in.bdf:6: CTETRA 1 uses grid 99, which is not defined (no GRID 99)"));
  QCOMPARE(bdfError(replaceLine(ok, 7, "PSOLID  2       1")),
           std::string("in.bdf:6: CTETRA 1: property 1 is not defined (no PSOLID 1)"));
  QCOMPARE(bdfError(replaceLine(ok, 7, "PSOLID  1       5")),
           std::string("in.bdf:7: PSOLID 1: material 5 is not defined (no MAT1 5)"));
  // unsupported elements, coordinate systems, unknown cards
  QCOMPARE(bdfError(ok.substr(0, ok.find("ENDDATA")) +
                    "CPENTA  2       1       1       2       3       4       5\n"),
           std::string("in.bdf:9: CPENTA 2 has 5 grids; CPENTA needs 6 or 15 (card truncated?)"));
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID    2       5       1.      0.      0.")),
           std::string("in.bdf:3: GRID 2: coordinate system CP = 5 is not defined (no CORD1R/1C/1S/2R/2C/2S 5)"));
  QCOMPARE(bdfError(replaceLine(ok, 3, "GRID    2               1.      0.      0.      3")),
           std::string("in.bdf:3: GRID 2: displacement coordinate system CD = 3 is not defined (no "
                       "CORD1R/1C/1S/2R/2C/2S 3)"));
  {
    Diagnostics all;
    QCOMPARE(bdfError(replaceLine(ok, 9,
                                  "FOO     1\nRBAR    5       1       2       123456\nSPC1    1       123     1\nENDDATA"),
                      &all),
             std::string());
    QVERIFY(hasMessage(all, Severity::Warning, "in.bdf:9: FOO: 1 card skipped (a card this importer does not know"));
    QVERIFY(hasMessage(all, Severity::Warning, "in.bdf:10: RBAR: 1 card skipped (rigid elements other than RBE2/RBE3"));
    QVERIFY(hasMessage(all, Severity::Info, "in.bdf:11: SPC1: 1 card skipped (single-point constraints"));
  }
  // syntax: continuation without a card, garbage card names, too many free fields, duplicates
  QCOMPARE(bdfError("BEGIN BULK\n+C1     1       2\n" + ok.substr(11)),
           std::string("in.bdf:2: continuation line '+C1     1       2' without a "
                       "card before it"));
  QCOMPARE(bdfError(replaceLine(ok, 4, "%!#     3")), std::string("in.bdf:4: not a bulk data card: '%!#     3'"));
  QCOMPARE(bdfError(replaceLine(ok, 4, "GRID,3,,0.,1.,0.,,,,,9,9")),
           std::string("in.bdf:4: free-field line has 12 fields; at most 10 (name, 8 data fields, continuation) are "
                       "allowed"));
  QCOMPARE(bdfError(replaceLine(ok, 4, "GRID    2               0.      1.      0.")),
           std::string("in.bdf:4: GRID 2 is defined twice (first at in.bdf:3)"));
  QCOMPARE(bdfError(ok.substr(0, ok.find("PSOLID")) + "CTETRA  1       1       1       2       3       4\n" +
                    ok.substr(ok.find("PSOLID"))),
           std::string("in.bdf:7: CTETRA 1: element id is used twice"));
  QCOMPARE(bdfError(replaceLine(ok, 6, "CTETRA  1       1       1       2       3       3")),
           std::string("in.bdf:6: CTETRA 1 uses grid 3 twice"));
  // materials: derived values and bad ones
  QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1                       .3      7850.")),
           std::string("in.bdf:8: MAT1 1: E and G are both blank; at least one of them is needed"));
  {
    // a bad Poisson's ratio is kept with a warning, as every reader does (an import may override
    // the material); the assembly refuses it where an element uses it
    Diagnostics all;
    QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1       2.1+11          .6      7850."), &all), std::string());
    QVERIFY2(all.str().find("in.bdf:8") != std::string::npos &&
                 all.str().find("MAT1 1: Poisson's ratio nu = 0.6 must be in (-1, 0.5)") != std::string::npos,
             all.str().c_str());
  }
  {
    // the one material rule (fe::materialProblem): an auxetic -0.2 is a material, 0.5 is not, and
    // a negative density is a warning like the rest, at its field
    Diagnostics all;
    QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1       2.1+11          -.2     7850."), &all), std::string());
    QVERIFY2(all.str().find("MAT1 1") == std::string::npos, all.str().c_str());
    QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1       2.1+11          .5      7850."), &all), std::string());
    QVERIFY2(hasMessage(all, Severity::Warning, "in.bdf:8: MAT1 1: Poisson's ratio nu = 0.5 must be in (-1, 0.5)"),
             all.str().c_str());
    QCOMPARE(bdfError(replaceLine(ok, 8, "MAT1    1       2.1+11          .3      -1."), &all), std::string());
    QVERIFY2(hasMessage(all, Severity::Warning, "in.bdf:8: MAT1 1: density rho = -1 must be > 0"), all.str().c_str());
  }
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(io::readNastranBulkFromString(replaceLine(ok, 8, "MAT1,1,2.0E11,8.0E10,,7850."), "in.bdf", m, diag));
    QVERIFY(std::abs(m.materials[0].nu - 0.25) < 1e-15);
    QVERIFY(io::readNastranBulkFromString(replaceLine(ok, 8, "MAT1,1,2.0E11"), "in.bdf", m, diag));
    QCOMPARE(m.materials[0].nu, 0.0);
    QVERIFY(!m.materials[0].has_density);
    QVERIFY(hasMessage(diag, Severity::Warning, "in.bdf:8: MAT1 1: G and NU are blank; NU = 0 assumed"));
  }
  // no elements, empty file, binary garbage
  QCOMPARE(bdfError("BEGIN BULK\nENDDATA\n"), std::string("in.bdf: no solid elements (CTETRA, CPYRAM, CPENTA, CHEXA) found"));
  QCOMPARE(bdfError(""), std::string("in.bdf: no solid elements (CTETRA, CPYRAM, CPENTA, CHEXA) found"));
  QCOMPARE(bdfError(std::string("\x7f"
                                "ELF\x01\x01\0\0",
                                8))
               .substr(0, 34),
           std::string("in.bdf:1: not a bulk data card: '?"));
  // text after column 80 is reported (warning), tabs expand to 8-column fields
  {
    Diagnostics all;
    QCOMPARE(bdfError(replaceLine(ok, 2, "GRID\t1\t\t0.\t0.\t0.\t\t\t\t\t\tjunk"), &all), std::string());
    QVERIFY(hasMessage(all, Severity::Warning, "in.bdf:2: text after column 80 ignored"));
  }
  // ENDDATA ends the data; the executive/case control before BEGIN BULK is skipped
  QCOMPARE(bdfError("SOL 103\nCEND\nSUBCASE 1\n  METHOD = 1\n" + ok + "garbage after enddata\n"), std::string());
}

void GmshNastranTest::nastranIncludes() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string d = dir.path().toStdString();
  const std::string ok = kTinyBdf;
  // a missing include file
  writeFile(d + "/main.bdf", "BEGIN BULK\nINCLUDE 'missing.bdf'\n" + ok.substr(11));
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(!io::readNastranBulk(d + "/main.bdf", m, diag));
    QCOMPARE(firstError(diag).substr(0, (d + "/main.bdf:2: INCLUDE 'missing.bdf': cannot open file").size()),
             d + "/main.bdf:2: INCLUDE 'missing.bdf': cannot open file");
  }
  // a cycle
  writeFile(d + "/a.bdf", "INCLUDE 'b.bdf'\n");
  writeFile(d + "/b.bdf", "$ comment\nINCLUDE 'a.bdf'\n");
  writeFile(d + "/main.bdf", "BEGIN BULK\nINCLUDE 'a.bdf'\n" + ok.substr(11));
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(!io::readNastranBulk(d + "/main.bdf", m, diag));
    QVERIFY2(firstError(diag).find("b.bdf:2: INCLUDE 'a.bdf' includes itself") != std::string::npos,
             firstError(diag).c_str());
  }
  // errors inside an included file name that file
  writeFile(d + "/grids.bdf", "GRID    1               0.      0.      0.\nGRID    2               nan\n");
  writeFile(d + "/main.bdf", "BEGIN BULK\nINCLUDE 'grids.bdf'\n" + ok.substr(ok.find("GRID    3")));
  {
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(!io::readNastranBulk(d + "/main.bdf", m, diag));
    QVERIFY2(firstError(diag).find("grids.bdf:2: GRID 2: X1: 'nan' is not a finite number") != std::string::npos,
             firstError(diag).c_str());
  }
  // in-memory decks may forbid includes
  {
    fe::FeModel m;
    Diagnostics diag;
    io::NastranOptions opt;
    opt.follow_includes = false;
    QVERIFY(!io::readNastranBulkFromString("BEGIN BULK\nINCLUDE 'x.bdf'\n" + ok, "in.bdf", m, diag, opt));
    QCOMPARE(firstError(diag), std::string("in.bdf:2: INCLUDE is not allowed here ('x.bdf')"));
  }
}

void GmshNastranTest::nastranFuzz() {
  const std::string base = readFile(kData + "/tiny/two_solids_small.bdf");
  std::mt19937 rng(777);
  int failures = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    const std::string t = test::damage(base, iter, rng, "0123456789 +-.*,$E\t\nx");
    fe::FeModel m;
    Diagnostics diag;
    io::NastranOptions opt;
    opt.follow_includes = false;
    const bool ok = io::readNastranBulkFromString(t, "fuzz.bdf", m, diag, opt);
    QVERIFY(ok != diag.hasErrors());
    if (!ok) {
      ++failures;
      const std::string e = firstError(diag);
      QVERIFY2(e.rfind("fuzz.bdf", 0) == 0 && e.size() > 12, e.c_str());
    }
  }
  QVERIFY(failures > 200);
}

QTEST_GUILESS_MAIN(GmshNastranTest)
#include "gmsh_nastran_test.moc"
