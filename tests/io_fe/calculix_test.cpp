// CalculiX/Abaqus importers: input decks (.inp), results (.frd), eigenvalue tables (.dat),
// matrix export (.sti/.mas/.dof), Abaqus and MatrixMarket .mtx, and the importFe dispatcher.
// Hand-written decks are written to a temporary directory; the real ccx/gmsh fixtures in
// tests/data/fe (see its README) check the readers against each other and against geometry.
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_frd.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/import.h"
#include "io/fe/line_reader.h"
#include "io/fe/matrix_files.h"

#include <QTemporaryDir>
#include <QtTest>

#include <Eigen/Dense>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace flexim;

namespace {

const std::string kData = FLEXIM_FE_DATA;
constexpr double kPi = 3.14159265358979323846;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool fixturesReady() { return readFile(kData + "/README.md").rfind("FIXTURES READY", 0) == 0; }

#define REQUIRE_FIXTURES()                                          \
  if (!fixturesReady()) QSKIP("tests/data/fe fixtures not ready"); \
  else (void)0

/// The first error as "where: message", or "" if none.
std::string firstError(const Diagnostics& d) {
  for (const auto& i : d.items())
    if (i.severity == Severity::Error) return i.where + ": " + i.message;
  return {};
}

bool hasItem(const Diagnostics& d, Severity s, const std::string& fragment) {
  for (const auto& i : d.items())
    if (i.severity == s && i.str().find(fragment) != std::string::npos) return true;
  return false;
}

int count(const Diagnostics& d, Severity s) {
  int n = 0;
  for (const auto& i : d.items()) n += i.severity == s;
  return n;
}

/// Ids of the members of a set.
std::vector<int> nodeIds(const fe::FeModel& m, const std::vector<int>& indices) {
  std::vector<int> ids;
  for (int i : indices) ids.push_back(m.node_ids[static_cast<std::size_t>(i)]);
  return ids;
}
std::vector<int> elementIds(const fe::FeModel& m, const std::vector<int>& indices) {
  std::vector<int> ids;
  for (int i : indices) ids.push_back(m.elements[static_cast<std::size_t>(i)].id);
  return ids;
}
std::vector<int> range(int first, int last, int step = 1) {
  std::vector<int> v;
  for (int i = first; i <= last; i += step) v.push_back(i);
  return v;
}

/// Node ids of element e in model order.
std::vector<int> elementNodeIds(const fe::FeModel& m, const fe::Element& e) {
  std::vector<int> ids;
  for (int i = 0; i < fe::nodeCount(e.type); ++i) ids.push_back(m.node_ids[static_cast<std::size_t>(e.nodes[static_cast<std::size_t>(i)])]);
  return ids;
}

/// Volume of a trilinear hexahedron (2x2x2 Gauss is exact for det J of the trilinear map).
double hex8Volume(const std::array<Eigen::Vector3d, 8>& x) {
  static const double s[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                 {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const double g = 1.0 / std::sqrt(3.0);
  double v = 0;
  for (int a = 0; a < 8; ++a) {
    const double xi = s[a][0] * g, eta = s[a][1] * g, zeta = s[a][2] * g;
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    for (int n = 0; n < 8; ++n) {
      const double dn[3] = {s[n][0] * (1 + s[n][1] * eta) * (1 + s[n][2] * zeta) / 8,
                            s[n][1] * (1 + s[n][0] * xi) * (1 + s[n][2] * zeta) / 8,
                            s[n][2] * (1 + s[n][0] * xi) * (1 + s[n][1] * eta) / 8};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) J(r, c) += dn[c] * x[static_cast<std::size_t>(n)][r];
    }
    v += J.determinant();
  }
  return v;
}

/// Total mass r_x^T M r_x over the x DOFs of a free body.
double translationalMass(const fe::FeModel& m, int component = 0) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(m.M.rows());
  for (std::size_t k = 0; k < m.dofs.size(); ++k) r[static_cast<Eigen::Index>(k)] = m.dofs[k].component == component;
  return r.dot(m.M * r);
}

// ---- hand-made frd text in ccx's exact layout -------------------------------------------------

struct FrdNode {
  int id;
  double x, y, z;
};

std::string frdNodeBlock(const std::vector<FrdNode>& nodes) {
  char buf[128];
  std::string s;
  std::snprintf(buf, sizeof buf, "    2C%18s%12zu%37s1\n", "", nodes.size(), "");
  s += buf;
  for (const auto& n : nodes) {
    std::snprintf(buf, sizeof buf, " -1%10d%12.5E%12.5E%12.5E\n", n.id, n.x, n.y, n.z);
    s += buf;
  }
  return s + " -3\n";
}

std::string frdElementBlock(int id, int type, const std::vector<int>& nodes) {
  char buf[128];
  std::string s;
  std::snprintf(buf, sizeof buf, "    3C%18s%12d%37s1\n", "", 1, "");
  s += buf;
  std::snprintf(buf, sizeof buf, " -1%10d%5d%5d%5d\n", id, type, 0, 1);
  s += buf;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i % 10 == 0) s += " -2";
    std::snprintf(buf, sizeof buf, "%10d", nodes[i]);
    s += buf;
    if (i % 10 == 9 || i + 1 == nodes.size()) s += "\n";
  }
  return s + " -3\n";
}

std::string frdDispBlock(int mode, double freq, const std::vector<std::pair<int, Eigen::Vector3d>>& u) {
  char buf[160];
  std::string s;
  std::snprintf(buf, sizeof buf, "    1PMODE%15s%12d\n", "", mode);
  s += buf;
  std::snprintf(buf, sizeof buf, "  100CL%5d%12.5E%12zu%20s%2d%5d%-10s%2d\n", 100 + mode, freq, u.size(), "", 2, mode,
                "MODAL", 1);
  s += buf;
  s += " -4  DISP        4    1\n -5  D1          1    2    1    0\n -5  D2          1    2    2    0\n"
       " -5  D3          1    2    3    0\n -5  ALL         1    2    0    0    1ALL\n";
  for (const auto& [id, v] : u) {
    std::snprintf(buf, sizeof buf, " -1%10d%12.5E%12.5E%12.5E\n", id, v.x(), v.y(), v.z());
    s += buf;
  }
  return s + " -3\n";
}

const std::vector<FrdNode> kTetNodes{{1, 0, 0, 0}, {2, 1, 0, 0}, {3, 0, 1, 0}, {5, 0, 0, 1}};

std::string tetFrd() {
  return "    1C\n    1UMAT    1STEEL\n" + frdNodeBlock(kTetNodes) + frdElementBlock(9, 3, {1, 2, 3, 5}) +
         frdDispBlock(1, 123.456789,
                      {{1, {0.1, 0.2, 0.3}}, {2, {-1e-3, 0, 2.5}}, {3, {0, 0, 0}}, {5, {1, 1, 1}}}) +
         frdDispBlock(2, 0.0, {{1, {1, 0, 0}}, {2, {1, 0, 0}}, {3, {1, 0, 0}}, {5, {1, 0, 0}}}) + " 9999\n";
}

const char* kTetInp = R"(*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 0, 1, 0
5, 0, 0, 1
*ELEMENT, TYPE=C3D4
9, 1, 2, 3, 5
)";

}  // namespace

class CalculixTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

  std::string path(const std::string& name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = path(name);
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  /// Reads a deck written to a file; returns the first error (with the path replaced by "%").
  std::string inpError(const std::string& text, bool* ok = nullptr) const {
    const std::string p = write("bad.inp", text);
    fe::FeModel m;
    Diagnostics d;
    const bool r = io::readCalculixInp(p, m, d);
    if (ok) *ok = r;
    if (!r && !d.hasErrors()) return "failed without an error";
    const std::string e = firstError(d);
    std::string out;  // e with the path replaced by "%"
    for (std::size_t pos = 0;;) {
      const std::size_t hit = e.find(p, pos);
      out += e.substr(pos, hit == std::string::npos ? std::string::npos : hit - pos);
      if (hit == std::string::npos) break;
      out += '%';
      pos = hit + p.size();
    }
    return out;
  }

 private slots:
  void initTestCase() { QVERIFY(m_dir.isValid()); }

  // ============================== .inp ======================================================

  void inpElementTypes() {
    // one element of each type on the same 20 nodes (nodes need not be geometric here)
    std::string deck = "*NODE, NSET=N\n";
    for (int i = 1; i <= 20; ++i) deck += std::to_string(i) + ", " + std::to_string(i) + ".0, 0.5, -1e-3\n";
    deck += "*ELEMENT, TYPE=C3D4, ELSET=A\n1, 1, 2, 3, 4\n"
            "*ELEMENT, TYPE=C3D10, ELSET=A\n2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\n"
            "*ELEMENT, TYPE=C3D8, ELSET=A\n3, 1, 2, 3, 4, 5, 6, 7, 8\n"
            "*ELEMENT, TYPE=C3D8R, ELSET=A\n4, 8, 7, 6, 5, 4, 3, 2, 1\n"
            "*ELEMENT, TYPE=C3D20, ELSET=A\n5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,\n16, 17, 18, 19, 20\n"
            "*ELEMENT, TYPE=C3D20R, ELSET=A\n6, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5\n4, 3, 2, 1\n";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "types.inp", m, d), d.str().c_str());
    QCOMPARE(m.nodeCount(), 20);
    QCOMPARE(m.elements.size(), std::size_t(6));
    const fe::ElementType types[] = {fe::ElementType::Tet4,  fe::ElementType::Tet10,  fe::ElementType::Hex8,
                                     fe::ElementType::Hex8R, fe::ElementType::Hex20, fe::ElementType::Hex20R};
    const int counts[] = {4, 10, 8, 8, 20, 20};
    for (int e = 0; e < 6; ++e) {
      QCOMPARE(m.elements[static_cast<std::size_t>(e)].id, e + 1);
      QVERIFY(m.elements[static_cast<std::size_t>(e)].type == types[e]);
      QCOMPARE(fe::nodeCount(m.elements[static_cast<std::size_t>(e)].type), counts[e]);
      QCOMPARE(m.elements[static_cast<std::size_t>(e)].material, -1);
    }
    QCOMPARE(elementNodeIds(m, m.elements[3]), (std::vector<int>{8, 7, 6, 5, 4, 3, 2, 1}));
    QCOMPARE(elementNodeIds(m, m.elements[4]), range(1, 20));
    // a full line of 16 entries continues without a trailing comma
    std::vector<int> reversed = range(1, 20);
    std::reverse(reversed.begin(), reversed.end());
    QCOMPARE(elementNodeIds(m, m.elements[5]), reversed);
    QCOMPARE(m.coords[4], Eigen::Vector3d(5.0, 0.5, -1e-3));
    QCOMPARE(m.node_sets.at("N").size(), std::size_t(20));
    QCOMPARE(elementIds(m, m.element_sets.at("A")), range(1, 6));
  }

  void inpSyntax() {
    // case-insensitive keywords and parameters, blanks in keywords, keyword continuation,
    // element continuation with trailing comma, comments inside data, blank fields, '+' signs,
    // Fortran exponents, gmsh's trailing ", " in set lists
    const std::string deck = R"(** comment
*Heading
 anything, even *stars in the heading text are fine? no: only lines starting with '*'
*node,
   nset=Corners
1, 0., 0, 0
2, +1.0, , 0
** comment inside a data block
3, 1.0D0, 1.E0, 0
4, 0, 1, 0
5,0,0,1
6,1,0,1
7,1,1,1
8,0,1,1
*Element,Type=c3d8,
  ELSET = eAll
1, 1, 2, 3, 4,
   5, 6, 7, 8
*  solid   section, Elset=EALL, material=mat
*Material, Name=Mat
*Elastic, type=ISO
 1e9, 0.25, 293.
 2e9, 0.25, 393.
*DENSITY
1000.
*NSET, NSET=bottom
1, 2, 3, 4, 
*Step
*Static
*Boundary
bottom, 1, 3
*End Step
)";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "syntax.inp", m, d), d.str().c_str());
    QCOMPARE(m.nodeCount(), 8);
    QCOMPARE(m.coords[1], Eigen::Vector3d(1, 0, 0));
    QCOMPARE(m.coords[2], Eigen::Vector3d(1, 1, 0));
    QCOMPARE(m.elements.size(), std::size_t(1));
    QCOMPARE(elementNodeIds(m, m.elements[0]), range(1, 8));
    QCOMPARE(nodeIds(m, m.node_sets.at("CORNERS")), range(1, 8));
    QCOMPARE(nodeIds(m, m.node_sets.at("BOTTOM")), range(1, 4));
    QCOMPARE(elementIds(m, m.element_sets.at("EALL")), std::vector<int>{1});
    QCOMPARE(m.materials.size(), std::size_t(1));
    QCOMPARE(m.materials[0].name, std::string("MAT"));
    QCOMPARE(m.materials[0].E, 1e9);
    QCOMPARE(m.materials[0].nu, 0.25);
    QCOMPARE(m.materials[0].rho, 1000.0);
    QVERIFY(m.materials[0].has_elastic && m.materials[0].has_density);
    QCOMPARE(m.elements[0].material, 0);  // section before its material: resolved at the end
    // temperature-dependent data: the first line is used, with a warning; *STEP etc. silent
    QVERIFY(hasItem(d, Severity::Warning, "syntax.inp:23: warning: *ELASTIC of material MAT: only the first data line"));
    QCOMPARE(count(d, Severity::Warning), 1);
    QCOMPARE(count(d, Severity::Info), 0);
  }

  void inpWindowsLineEndsAndTabs() {
    std::string deck = std::string(kTetInp) + "*NSET,\tNSET=S\n1,\t2\n";
    std::string crlf;
    for (char c : deck) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(crlf, "crlf.inp", m, d), d.str().c_str());
    QCOMPARE(m.nodeCount(), 4);
    QCOMPARE(nodeIds(m, m.node_sets.at("S")), (std::vector<int>{1, 2}));
    QCOMPARE(m.coords[3], Eigen::Vector3d(0, 0, 1));
  }

  void inpSets() {
    const std::string deck = R"(*NODE, NSET=ALLN
1,0,0,0
2,1,0,0
3,2,0,0
4,3,0,0
5,4,0,0
6,5,0,0
7,6,0,0
8,7,0,0
9,8,0,0
10,9,0,0
*ELEMENT, TYPE=C3D4, ELSET=TETS
11, 1, 2, 3, 4
12, 2, 3, 4, 5
13, 3, 4, 5, 6
14, 4, 5, 6, 7
*NSET, NSET=ODD, GENERATE
1, 9, 2
*NSET, NSET=FIRST3, generate
1, 3
*NSET, NSET=MIXED
10, ODD,
FIRST3, 10,
*ELSET, ELSET=E2, GENERATE
12, 14
*ELSET, ELSET=SOME
11, e2
*NSET, NSET=GAPPY, GENERATE
8, 20, 4
)";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "sets.inp", m, d), d.str().c_str());
    QCOMPARE(nodeIds(m, m.node_sets.at("ODD")), (std::vector<int>{1, 3, 5, 7, 9}));
    QCOMPARE(nodeIds(m, m.node_sets.at("FIRST3")), (std::vector<int>{1, 2, 3}));
    // members in order of first appearance, each once
    QCOMPARE(nodeIds(m, m.node_sets.at("MIXED")), (std::vector<int>{10, 1, 3, 5, 7, 9, 2}));
    QCOMPARE(elementIds(m, m.element_sets.at("E2")), (std::vector<int>{12, 13, 14}));
    QCOMPARE(elementIds(m, m.element_sets.at("SOME")), (std::vector<int>{11, 12, 13, 14}));
    QCOMPARE(elementIds(m, m.element_sets.at("TETS")), (std::vector<int>{11, 12, 13, 14}));
    QCOMPARE(nodeIds(m, m.node_sets.at("ALLN")), range(1, 10));
    // a generated range may have holes: warning, missing ids left out
    QCOMPARE(nodeIds(m, m.node_sets.at("GAPPY")), std::vector<int>{8});
    QVERIFY(hasItem(d, Severity::Warning, "sets.inp:29: warning: *NSET GAPPY: 3 of the generated node ids are not defined (first: 12)"));
    QVERIFY(hasItem(d, Severity::Info, "3 nodes are not used by any element"));
  }

  void inpInclude() {
    write("inc/main.inp", "*NODE\n*INCLUDE, INPUT=parts/nodes.inp\n5, 0, 0, 1\n*INCLUDE,INPUT=\"parts/elements.inp\"\n");
    write("inc/parts/nodes.inp", "1, 0, 0, 0\n2, 1, 0, 0\n*include, input=more_nodes.inp\n");
    write("inc/parts/more_nodes.inp", "** data lines continue the *NODE block of main.inp\n3, 0, 1, 0\n");
    write("inc/parts/elements.inp", "*ELEMENT, TYPE=C3D4, ELSET=E\n1, 1, 2, 3, 5\n");
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInp(path("inc/main.inp"), m, d), d.str().c_str());
    QCOMPARE(m.nodeCount(), 4);
    QCOMPARE(m.node_ids, (std::vector<int>{1, 2, 3, 5}));
    QCOMPARE(m.elements.size(), std::size_t(1));
    QCOMPARE(m.sources.size(), std::size_t(4));
    QCOMPARE(m.sources.front(), path("inc/main.inp"));

    // a cycle through two files
    write("cyc/a.inp", "*NODE\n1, 0, 0, 0\n*INCLUDE, INPUT=sub/b.inp\n");
    write("cyc/sub/b.inp", "*INCLUDE, INPUT=../a.inp\n");
    fe::FeModel m2;
    Diagnostics d2;
    QVERIFY(!io::readCalculixInp(path("cyc/a.inp"), m2, d2));
    QCOMPARE(firstError(d2), path("cyc/sub/b.inp") + ":1: *INCLUDE cycle: " + path("cyc/a.inp") + " is already being read");
    QCOMPARE(m2.nodeCount(), 0);  // unchanged on failure

    // self-include and a missing file
    write("cyc/self.inp", "*INCLUDE, INPUT=self.inp\n");
    Diagnostics d3;
    QVERIFY(!io::readCalculixInp(path("cyc/self.inp"), m2, d3));
    QCOMPARE(firstError(d3), path("cyc/self.inp") + ":1: *INCLUDE cycle: " + path("cyc/self.inp") + " is already being read");
    write("cyc/missing.inp", "*NODE\n1,0,0,0\n*INCLUDE, INPUT=nothere.inp\n");
    Diagnostics d4;
    QVERIFY(!io::readCalculixInp(path("cyc/missing.inp"), m2, d4));
    QCOMPARE(firstError(d4), path("cyc/missing.inp") + ":3: *INCLUDE: cannot open " + path("cyc/nothere.inp"));
    // in-memory decks may refuse includes
    io::InpOptions noInclude;
    noInclude.follow_includes = false;
    Diagnostics d5;
    QVERIFY(!io::readCalculixInpFromString("*INCLUDE, INPUT=/etc/passwd\n", "mem.inp", m2, d5, noInclude));
    QCOMPARE(firstError(d5), std::string("mem.inp:1: *INCLUDE is not allowed here (in-memory deck)"));
  }

  void inpKeywordsSkipped() {
    const std::string deck = std::string(kTetInp) + R"(*TRANSFORM, NSET=N1

1, 0, 0, 0, 1, 0
*ORIENTATION, NAME=OR1
1,0,0, 0,1,0
*TRANSFORM, NSET=N2

1, 0, 0, 0, 1, 0
*FOOBAR, X=1
1, 2, 3
*STEP
*FREQUENCY
10
*BOUNDARY
1, 1, 3
*NODE FILE
U
*END STEP
)";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "kw.inp", m, d), d.str().c_str());
    QCOMPARE(m.nodeCount(), 4);
    QCOMPARE(count(d, Severity::Error), 0);
    QCOMPARE(count(d, Severity::Warning), 2);
    QVERIFY(hasItem(d, Severity::Warning, "kw.inp:16: warning: unknown keyword *FOOBAR (skipped with its data lines)"));
    // a keyword that changes the model: one warning (not per occurrence) and one counted model
    // change; *ORIENTATION changes nothing for isotropic materials (info); step keywords: silent
    QVERIFY(hasItem(d, Severity::Warning, "kw.inp:8: warning: *TRANSFORM is not supported: local node directions"));
    QCOMPARE(m.model_changes, std::vector<std::string>{"*TRANSFORM: local node directions not applied (2 definitions)"});
    QVERIFY(hasItem(d, Severity::Info, "kw.inp:11: info: *ORIENTATION is not imported: every material is isotropic"));
    int infos = 0;
    for (const auto& i : d.items()) infos += i.severity == Severity::Info && i.message.find("is not imported") != std::string::npos;
    QCOMPARE(infos, 1);
  }

  /// *MATRIX ASSEMBLE adds matrices from files to the model: a named model change, not an
  /// unknown keyword.
  void matrixAssembleIsAModelChange() {
    const std::string deck = std::string(kTetInp) + "*MATRIX ASSEMBLE, STIFFNESS=k.sti, MASS=m.mas\n";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "ma.inp", m, d), d.str().c_str());
    QVERIFY2(hasItem(d, Severity::Warning, "*MATRIX ASSEMBLE is not supported: stiffness and mass matrices read from "
                                           "files not added"),
             d.str().c_str());
    QVERIFY(d.str().find("unknown keyword") == std::string::npos);
    QCOMPARE(m.model_changes.size(), std::size_t(1));
  }

  void inpNonSolidElementsSkipped() {
    const std::string deck = std::string(kTetInp) + R"(*ELEMENT, TYPE=CPS3, ELSET=SURF
20, 1, 2, 3
*ELSET, ELSET=MIX
9, 20
)";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInpFromString(deck, "mix.inp", m, d), d.str().c_str());
    QCOMPARE(m.elements.size(), std::size_t(1));
    QVERIFY(hasItem(d, Severity::Warning, "mix.inp:8: warning: element type CPS3 is not a solid element; its elements are skipped"));
    QCOMPARE(elementIds(m, m.element_sets.at("MIX")), std::vector<int>{9});
    QVERIFY(m.element_sets.at("SURF").empty());
  }

  void inpErrors_data() {
    QTest::addColumn<QString>("deck");
    QTest::addColumn<QString>("expected");  // "%" stands for the file path
    const QString tet = QString::fromLatin1(kTetInp);
    QTest::newRow("NaN coordinate") << "*NODE\n1, 0, 0, 0\n2, nan, 0, 0\n" << "%:3: node 2: 'nan' is not a finite number";
    QTest::newRow("Inf coordinate") << "*NODE\n1, 0, -inf, 0\n" << "%:2: node 1: '-inf' is not a finite number";
    QTest::newRow("overflow") << "*NODE\n1, 0, 1e999, 0\n" << "%:2: node 1: '1e999' is out of range";
    QTest::newRow("garbage coordinate") << "*NODE\n1, 0, 1.2.3, 0\n" << "%:2: node 1: '1.2.3' is not a number";
    QTest::newRow("fractional node id") << "*NODE\n1.5, 0, 0, 0\n" << "%:2: *NODE: node id: '1.5' is not an integer";
    QTest::newRow("negative node id") << "*NODE\n-3, 0, 0, 0\n" << "%:2: *NODE: node id -3 must be positive";
    QTest::newRow("missing node") << tet + "*ELEMENT, TYPE=C3D4\n10, 1, 2, 3, 99\n"
                                  << "%:9: element 10 refers to node 99, which is not defined";
    QTest::newRow("unknown element type") << tet + "*ELEMENT, TYPE=XYZ9\n10, 1, 2, 3, 5\n" << "%:8: unknown element type 'XYZ9'";
    QTest::newRow("unsupported solid type") << tet + "*ELEMENT, TYPE=C3D10H\n10, 1, 2, 3, 5, 1, 2\n"
                                            << "%:8: element type C3D10H is not supported (supported: C3D4, C3D10, C3D8, "
                                               "C3D8R, C3D20, C3D20R, C3D6, C3D15, C3D8I, C3D5, C3D13)";
    QTest::newRow("element type missing") << tet + "*ELEMENT, ELSET=X\n10, 1, 2, 3, 5\n" << "%:8: *ELEMENT needs TYPE=<element type>";
    QTest::newRow("too few nodes") << tet + "*ELEMENT, TYPE=C3D10\n10, 1, 2, 3, 5\n" << "%:9: element 10: C3D10 needs 10 nodes, got 4";
    QTest::newRow("truncated continuation") << tet + "*ELEMENT, TYPE=C3D20\n10, 1, 2, 3, 5, 1, 2, 3, 5, 1, 2, 3,\n"
                                            << "%:9: element 10: C3D20 needs 20 nodes, got 11";
    QTest::newRow("continuation cut by keyword") << tet + "*ELEMENT, TYPE=C3D20\n10, 1, 2, 3, 5,\n*NSET, NSET=A\n1\n"
                                                 << "%:9: element 10: C3D20 needs 20 nodes, got 4";
    QTest::newRow("bad node in element") << tet + "*ELEMENT, TYPE=C3D4\n10, 1, 2, x, 5\n" << "%:9: element 10: node 'x' is not an integer";
    QTest::newRow("duplicate element") << tet + "*ELEMENT, TYPE=C3D4\n9, 1, 2, 3, 5\n" << "%:9: element 9 is defined twice (first at %:7)";
    QTest::newRow("elastic outside material") << tet + "*ELASTIC\n1e9, 0.3\n" << "%:8: *ELASTIC outside a *MATERIAL definition";
    QTest::newRow("elastic one value") << tet + "*MATERIAL, NAME=A\n*ELASTIC\n1e9\n" << "%:10: *ELASTIC needs Young's modulus and Poisson's ratio";
    QTest::newRow("density NaN") << tet + "*MATERIAL, NAME=A\n*DENSITY\nNaN\n" << "%:10: *DENSITY: 'NaN' is not a finite number";
    QTest::newRow("material twice") << tet + "*MATERIAL, NAME=A\n*MATERIAL, NAME=a\n" << "%:9: material A is defined twice (first at %:8)";
    QTest::newRow("section without set") << tet + "*SOLID SECTION, ELSET=NOPE, MATERIAL=A\n*MATERIAL, NAME=A\n"
                                         << "%:8: *SOLID SECTION: element set NOPE is not defined";
    QTest::newRow("section without material") << tet + "*ELSET, ELSET=E\n9\n*SOLID SECTION, ELSET=E, MATERIAL=STEEL\n"
                                              << "%:10: *SOLID SECTION: material STEEL is not defined";
    QTest::newRow("set with unknown set") << tet + "*NSET, NSET=S\n1, OTHER\n" << "%:9: *NSET S: 'OTHER' is neither a node id nor a known node set";
    QTest::newRow("generate backwards") << tet + "*NSET, NSET=S, GENERATE\n5, 1\n"
                                        << "%:9: GENERATE 5, 1, 1: needs 0 < first <= last and increment > 0";
    QTest::newRow("generate too large") << tet + "*ELSET, ELSET=S, GENERATE\n1, 2000000000, 1\n"
                                        << "%:9: GENERATE range of more than 10000000 ids";
    QTest::newRow("nset without name") << tet + "*NSET\n1\n" << "%:8: *NSET needs NSET=<name>";
    QTest::newRow("cylindrical nodes") << "*NODE, SYSTEM=C\n1, 1, 0, 0\n"
                                       << "%:1: *NODE, SYSTEM=C: only rectangular coordinates (SYSTEM=R) are supported";
    QTest::newRow("data before keyword") << "1, 0, 0, 0\n*NODE\n1, 0, 0, 0\n" << "%:1: data line before the first keyword";
    QTest::newRow("no nodes") << "** nothing\n*HEADING\nempty\n" << "%: the deck defines no nodes";
    QTest::newRow("binary garbage") << QString::fromLatin1("*NODE\n\x01\x02\x03, 0, 0\n")
                                    << "%:2: *NODE: node id: '?\?\?' is not an integer";
  }

  void inpErrors() {
    QFETCH(QString, deck);
    QFETCH(QString, expected);
    bool ok = true;
    const std::string error = inpError(deck.toStdString(), &ok);
    QVERIFY(!ok);
    QCOMPARE(QString::fromStdString(error), expected);
  }

  /// The one material rule (fe::materialProblem), kept with a warning at the line: an auxetic
  /// nu = -0.2 is a material, nu = 0.5 is not.
  void inpMaterialRule() {
    const auto warnings = [](const std::string& elastic) {
      fe::FeModel m;
      Diagnostics d;
      const std::string deck = std::string(kTetInp) + "*MATERIAL, NAME=A\n*ELASTIC\n" + elastic + "\n*DENSITY\n7850\n";
      if (!io::readCalculixInpFromString(deck, "m.inp", m, d)) return std::string("failed: ") + d.str();
      std::string out;
      for (const Diagnostic& item : d.items())
        if (item.severity == Severity::Warning && item.message.find("material A") != std::string::npos)
          out += item.str() + "\n";
      return out;
    };
    QCOMPARE(warnings("2.1e11, -0.2"), std::string());
    QCOMPARE(warnings("2.1e11, 0.5"),
             std::string("m.inp:10: warning: material A: Poisson's ratio nu = 0.5 must be in (-1, 0.5)\n"));
  }

  void inpErrorLimit() {
    std::string deck = "*NODE\n";
    for (int i = 0; i < 1000; ++i) deck += "x, 0, 0, 0\n";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY(!io::readCalculixInpFromString(deck, "many.inp", m, d));
    QCOMPARE(count(d, Severity::Error), 51);  // 50 + "too many errors"
    QCOMPARE(d.items().back().message, std::string("too many errors; reading stopped"));
  }

  void inpSetsOfSetsBounded() {
    // each line doubles the entries: must stop with an error, not exhaust memory
    std::string deck = std::string(kTetInp) + "*NSET, NSET=A\n1\n";
    for (int i = 0; i < 40; ++i) deck += "*NSET, NSET=B\nA, A\n*NSET, NSET=A\nB, B\n";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY(!io::readCalculixInpFromString(deck, "big.inp", m, d));
    QVERIFY(hasItem(d, Severity::Error, "sets are too large (more than 4000000 entries)"));
  }

  void inpFixtures() {
    REQUIRE_FIXTURES();
    struct Case {
      const char* file;
      int nodes, elements;
      fe::ElementType type;
      std::vector<std::pair<const char*, int>> nsets, elsets;
    };
    const std::vector<Case> cases{
        {"beam/mesh_ccx.inp", 1365, 616, fe::ElementType::Tet10, {{"END0", 13}, {"END1", 13}, {"BEAM", 1365}}, {{"BEAM", 616}}},
        {"beam/mesh_hex_ccx.inp", 248, 20, fe::ElementType::Hex20, {{"END0", 8}, {"END1", 8}, {"BEAM", 248}}, {{"BEAM", 20}}},
        {"conrod/mesh_ccx.inp", 2040, 906, fe::ElementType::Tet10,
         {{"BORE_BIG", 200}, {"BORE_SMALL", 116}, {"CONROD", 2040}}, {{"CONROD", 906}}},
        {"bracket/mesh_ccx.inp", 856, 2342, fe::ElementType::Tet4, {{"HOLE", 22}, {"TOP", 34}, {"BRACKET", 856}}, {{"BRACKET", 2342}}},
        {"beam/mesh_gmsh.inp", 1365, 616, fe::ElementType::Tet10, {{"END0", 13}, {"END1", 13}, {"BEAM", 1365}}, {{"BEAM", 616}}},
    };
    for (const auto& c : cases) {
      fe::FeModel m;
      Diagnostics d;
      QVERIFY2(io::readCalculixInp(kData + "/" + c.file, m, d), d.str().c_str());
      QCOMPARE(count(d, Severity::Error), 0);
      QCOMPARE(m.nodeCount(), c.nodes);
      QCOMPARE(static_cast<int>(m.elements.size()), c.elements);
      for (const auto& e : m.elements) QVERIFY(e.type == c.type);
      for (const auto& [name, size] : c.nsets) QCOMPARE(static_cast<int>(m.node_sets.at(name).size()), size);
      for (const auto& [name, size] : c.elsets) QCOMPARE(static_cast<int>(m.element_sets.at(name).size()), size);
    }
    // gmsh's own .inp (CPS6 blocks for the surfaces) gives the same mesh as the converted one
    fe::FeModel a, b;
    Diagnostics d;
    QVERIFY(io::readCalculixInp(kData + "/beam/mesh_gmsh.inp", a, d));
    QVERIFY(io::readCalculixInp(kData + "/beam/mesh_ccx.inp", b, d));
    QCOMPARE(a.node_ids, b.node_ids);
    QCOMPARE(a.elements.size(), b.elements.size());
    for (std::size_t i = 0; i < a.elements.size(); ++i) QCOMPARE(a.elements[i].nodes, b.elements[i].nodes);
    QVERIFY(a.coords == b.coords);
  }

  void inpFeaturesFixture() {
    REQUIRE_FIXTURES();
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInp(kData + "/tiny/features.inp", m, d), d.str().c_str());
    QCOMPARE(count(d, Severity::Warning), 0);
    QCOMPARE(m.nodeCount(), 16);
    QCOMPARE(m.elements.size(), std::size_t(3));
    QCOMPARE(m.sources.size(), std::size_t(2));
    QCOMPARE(nodeIds(m, m.node_sets.at("END0")), range(1, 4));
    QCOMPARE(nodeIds(m, m.node_sets.at("END1")), range(13, 16));
    QCOMPARE(elementIds(m, m.element_sets.at("LEFT")), (std::vector<int>{1, 2}));
    QCOMPARE(elementIds(m, m.element_sets.at("RIGHT")), std::vector<int>{3});
    QCOMPARE(elementIds(m, m.element_sets.at("ALL")), (std::vector<int>{1, 2, 3}));
    QCOMPARE(elementIds(m, m.element_sets.at("BLOCK")), (std::vector<int>{1, 2, 3}));
    QCOMPARE(m.coords[14], Eigen::Vector3d(0.3, 0.1, 0.1));
    QCOMPARE(m.materials.size(), std::size_t(1));
    QCOMPARE(m.materials[0].name, std::string("STEEL"));
    QCOMPARE(m.materials[0].rho, 7850.0);
    for (const auto& e : m.elements) QCOMPARE(e.material, 0);

    // two_solids: three element types, two materials
    fe::FeModel t;
    QVERIFY(io::readCalculixInp(kData + "/tiny/two_solids.inp", t, d));
    QCOMPARE(t.nodeCount(), 25);
    QVERIFY(t.elements[0].type == fe::ElementType::Hex20 && t.elements[1].type == fe::ElementType::Tet10 &&
            t.elements[2].type == fe::ElementType::Tet4);
    QCOMPARE(elementNodeIds(t, t.elements[1]), (std::vector<int>{5, 6, 8, 21, 13, 22, 16, 23, 24, 25}));
    QCOMPARE(t.elements[0].material, 0);
    QCOMPARE(t.elements[1].material, 1);
    QCOMPARE(t.elements[2].material, 1);
    QCOMPARE(t.materials[1].E, 2.099994e11);
  }

  // ============================== .frd ======================================================

  void frdHandMade() {
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixFrdFromString(tetFrd(), "tet.frd", m, d), d.str().c_str());
    QCOMPARE(m.node_ids, (std::vector<int>{1, 2, 3, 5}));
    QCOMPARE(m.elements.size(), std::size_t(1));
    QVERIFY(m.elements[0].type == fe::ElementType::Tet4);
    QCOMPARE(m.elements[0].material, 0);
    QCOMPARE(m.materials[0].name, std::string("STEEL"));
    QCOMPARE(m.modes.rows(), Eigen::Index(12));
    QCOMPARE(m.modes.cols(), Eigen::Index(2));
    QCOMPARE(m.frequencies_hz.size(), std::size_t(2));
    QCOMPARE(m.frequencies_hz[0], 123.457);  // %12.5E here
    QCOMPARE(m.modes(3 * 1 + 2, 0), 2.5);
    QCOMPARE(m.modes(3 * 3 + 1, 0), 1.0);
    QCOMPARE(m.modes(3 * 2 + 0, 1), 1.0);

    // with a model from the deck: results in the model's node order
    fe::FeModel deck;
    QVERIFY(io::readCalculixInpFromString(std::string("*NODE\n7, 5, 5, 5\n") + kTetInp, "tet.inp", deck, d));
    QCOMPARE(deck.node_ids, (std::vector<int>{7, 1, 2, 3, 5}));
    QVERIFY2(io::readCalculixFrdFromString(tetFrd(), "tet.frd", deck, d), d.str().c_str());
    QCOMPARE(deck.modes.rows(), Eigen::Index(15));
    QCOMPARE(deck.modes.col(0).head(3), Eigen::Vector3d::Zero().eval());  // node 7: no results
    QCOMPARE(deck.modes(3 * 2 + 2, 0), 2.5);
    QVERIFY(hasItem(d, Severity::Info, "1 model nodes have no results in the frd"));
  }

  void frdErrors() {
    const std::string good = tetFrd();
    auto lineOf = [](const std::string& text, std::size_t pos) {
      return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    };
    auto check = [](const std::string& text, const std::string& expected, fe::FeModel m = {}) {
      Diagnostics d;
      const bool ok = io::readCalculixFrdFromString(text, "r.frd", m, d);
      QVERIFY(!ok);
      QCOMPARE(QString::fromStdString(firstError(d)), QString::fromStdString(expected));
    };
    // truncated inside the second DISP block
    const std::size_t second = good.find("  100CL  102");
    const std::string cut = good.substr(0, good.find(" -1         3", second));
    check(cut, "r.frd:" + std::to_string(lineOf(cut, cut.size() - 1)) + ": file ends inside the DISP block of line " +
                   std::to_string(lineOf(good, second)) + " (truncated file?)");
    // no end record
    const std::string noEnd = good.substr(0, good.find(" 9999"));
    check(noEnd, "r.frd:" + std::to_string(lineOf(noEnd, noEnd.size() - 1)) + ": file ends without the ' 9999' end record (truncated file?)");
    // NaN coordinate (printf of NaN in %12.5E)
    std::string nan = good;
    nan.replace(nan.find("1.00000E+00 0.00000E+00 0.00000E+00"), 11, "        nan");
    check(nan, "r.frd:5: node 2: 'nan' is not a finite number");
    // element referencing a node that is not in the node block
    std::string badElem = "    1C\n" + frdNodeBlock(kTetNodes) + frdElementBlock(9, 3, {1, 2, 3, 4}) + " 9999\n";
    check(badElem, "r.frd:9: element 9 refers to node 4, which is not in the node block");
    // unknown element type
    check("    1C\n" + frdNodeBlock(kTetNodes) + frdElementBlock(9, 99, {1, 2, 3, 5}) + " 9999\n",
          "r.frd:9: element 9: unknown frd element type 99");
    // wrong count in the node block header
    std::string badCount = good;
    const std::string countField = std::string(11, ' ') + "4" + std::string(37, ' ') + "1";
    badCount.replace(badCount.find(countField), 12, "           5");
    check(badCount, "r.frd:3: node block declares 5 nodes but has 4");
    // DISP of a node that is not in the node block
    check("    1C\n" + frdNodeBlock(kTetNodes) + frdDispBlock(1, 1.0, {{1, {0, 0, 0}}, {8, {0, 0, 0}}}) + " 9999\n",
          "r.frd:9: DISP block: 1 nodes are not in the node block (first: 8)");
    // not an frd at all
    check("hello\n", "r.frd:1: not a CalculiX ASCII .frd file: the first line must be '    1C'");
    check("", "r.frd:1: not a CalculiX ASCII .frd file: the first line must be '    1C'");
    // binary node block
    std::string binary = good;
    binary[binary.find(countField) + 49] = '3';
    check(binary, "r.frd:3: binary or unknown frd format 3 (only ASCII frd files are read: request results with *NODE FILE / *EL FILE)");
    // frd against a different model: moved node
    fe::FeModel deck;
    Diagnostics d;
    std::string moved(kTetInp);
    moved.replace(moved.find("2, 1, 0, 0"), 10, "2, 1.001, 0, 0");
    QVERIFY(io::readCalculixInpFromString(moved, "m.inp", deck, d));
    check(good, "r.frd: node 2: frd coordinates (1, 0, 0) differ from the model's (1.001, 0, 0)", deck);
    // the model must not change on failure
    Diagnostics d2;
    QVERIFY(!io::readCalculixFrdFromString(good, "r.frd", deck, d2));
    QCOMPARE(deck.modes.cols(), Eigen::Index(0));
  }

  void frdFixturesVsInpAndDat_data() {
    QTest::addColumn<QString>("job");
    QTest::addColumn<int>("modes");
    QTest::newRow("beam C3D10") << "beam/beam_free" << 20;
    QTest::newRow("beam C3D20") << "beam/beam_hex_free" << 20;
    QTest::newRow("conrod C3D10") << "conrod/conrod_free" << 10;
    QTest::newRow("bracket C3D4") << "bracket/bracket_free" << 10;
    QTest::newRow("c3d8") << "tiny/c3d8_modal" << 3;
    QTest::newRow("c3d20") << "tiny/c3d20_modal" << 10;
    QTest::newRow("c3d10") << "tiny/c3d10_modal" << 4;
    QTest::newRow("features") << "tiny/features" << 9;
    QTest::newRow("c3d8r supported") << "importers/c3d8r_spc_modal" << 5;
  }

  void frdFixturesVsInpAndDat() {
    REQUIRE_FIXTURES();
    QFETCH(QString, job);
    QFETCH(int, modes);
    const std::string base = kData + "/" + job.toStdString();
    fe::FeModel model;
    Diagnostics d;
    QVERIFY2(io::readCalculixInp(base + ".inp", model, d), d.str().c_str());
    // the frd checks its mesh against the deck's (coordinates within 1e-5 relative)
    QVERIFY2(io::readCalculixFrd(base + ".frd", model, d), d.str().c_str());
    QCOMPARE(model.modes.cols(), Eigen::Index(modes));
    QCOMPARE(model.modes.rows(), Eigen::Index(3 * model.nodeCount()));
    QCOMPARE(static_cast<int>(model.frequencies_hz.size()), modes);

    // the frd alone: same nodes and elements (hex20 node order converted back), coords to 1e-5
    fe::FeModel frd;
    QVERIFY2(io::readCalculixFrd(base + ".frd", frd, d), d.str().c_str());
    QCOMPARE(frd.nodeCount(), model.nodeCount());
    QCOMPARE(frd.elements.size(), model.elements.size());
    double size = 0;
    for (const auto& x : model.coords) size = std::max(size, x.cwiseAbs().maxCoeff());
    for (int i = 0; i < model.nodeCount(); ++i) {
      const int j = frd.indexOf(model.node_ids[static_cast<std::size_t>(i)]);
      QVERIFY(j >= 0);
      const Eigen::Vector3d a = model.coords[static_cast<std::size_t>(i)], b = frd.coords[static_cast<std::size_t>(j)];
      for (int c = 0; c < 3; ++c) QVERIFY2(std::abs(a[c] - b[c]) <= 1e-5 * std::abs(a[c]) + 1e-12 * size, job.toLatin1());
    }
    for (std::size_t e = 0; e < model.elements.size(); ++e) {
      QCOMPARE(frd.elements[e].id, model.elements[e].id);
      QCOMPARE(fe::nodeCount(frd.elements[e].type), fe::nodeCount(model.elements[e].type));
      QCOMPARE(elementNodeIds(frd, frd.elements[e]), elementNodeIds(model, model.elements[e]));
    }
    if (frd.node_ids == model.node_ids) QVERIFY(frd.modes == model.modes);

    // frequencies: frd (10 digits) vs .dat table (8 digits)
    io::CalculixEigenTable table;
    QVERIFY2(io::readCalculixDat(base + ".dat", table, d), d.str().c_str());
    QCOMPARE(static_cast<int>(table.frequency_hz.size()), modes);
    for (int k = 0; k < modes; ++k) {
      const double a = model.frequencies_hz[static_cast<std::size_t>(k)], b = table.frequency_hz[static_cast<std::size_t>(k)];
      QVERIFY2(std::abs(a - b) <= 1e-6 * std::abs(b) + 1e-6, (job + QString(" mode %1: %2 vs %3").arg(k + 1).arg(a).arg(b)).toLatin1());
      QCOMPARE(table.mode[static_cast<std::size_t>(k)], k + 1);
      if (table.eigenvalue[static_cast<std::size_t>(k)] > 0) {
        const double omega = 2 * kPi * b;
        QVERIFY(std::abs(omega * omega - table.eigenvalue[static_cast<std::size_t>(k)]) <= 1e-6 * omega * omega);
      }
    }
  }

  void modesAreMassNormalised() {
    // frd modes of the free C3D20 beam against the exported K and M of the same mesh
    REQUIRE_FIXTURES();
    fe::FeModel m;
    Diagnostics d;
    QVERIFY(io::readCalculixInp(kData + "/beam/beam_hex_mat.inp", m, d));
    QVERIFY2(io::readCalculixMatrices(kData + "/beam/beam_hex_mat", m, d), d.str().c_str());
    QVERIFY2(io::readCalculixFrd(kData + "/beam/beam_hex_free.frd", m, d), d.str().c_str());
    QCOMPARE(m.dofs.size(), std::size_t(744));
    for (Eigen::Index k = 0; k < m.modes.cols(); ++k) {
      Eigen::VectorXd phi(static_cast<Eigen::Index>(m.dofs.size()));
      for (std::size_t r = 0; r < m.dofs.size(); ++r) phi[static_cast<Eigen::Index>(r)] = m.modes(3 * m.dofs[r].node + m.dofs[r].component, k);
      const double gm = phi.dot(m.M * phi), gk = phi.dot(m.K * phi);
      QVERIFY2(std::abs(gm - 1) < 2e-5, QByteArray::number(gm));
      const double f = m.frequencies_hz[static_cast<std::size_t>(k)];
      if (f > 1) {
        const double omega2 = std::pow(2 * kPi * f, 2);
        QVERIFY2(std::abs(gk - omega2) < 1e-4 * omega2, QByteArray::number(gk / omega2));
      } else {
        QVERIFY(std::abs(gk) < 1e-4 * std::pow(2 * kPi * 588.65, 2));  // rigid-body mode
      }
    }
  }

  // ============================== .dat ======================================================

  void datFixture() {
    REQUIRE_FIXTURES();
    io::CalculixEigenTable t;
    Diagnostics d;
    QVERIFY2(io::readCalculixDat(kData + "/beam/beam_free.dat", t, d), d.str().c_str());
    QCOMPARE(t.mode.size(), std::size_t(20));
    for (int k = 0; k < 6; ++k) QVERIFY(std::abs(t.frequency_hz[static_cast<std::size_t>(k)]) < 0.01);
    QCOMPARE(t.frequency_hz[6], 588.5337);
    QCOMPARE(t.frequency_hz[19], 10334.72);
    QVERIFY(t.has_total_effective_mass);
    for (int c = 0; c < 3; ++c) QVERIFY(std::abs(t.total_effective_mass[static_cast<std::size_t>(c)] - 0.2355) < 1e-6);
    QVERIFY(std::abs(t.total_effective_mass[4] - 7.066963e-3) < 1e-9);
    std::vector<double> f, lambda;
    QVERIFY(io::readCalculixDat(kData + "/beam/beam_free.dat", f, d));
    QVERIFY(io::readCalculixDatEigenvalues(kData + "/beam/beam_free.dat", lambda, d));
    QCOMPARE(f, t.frequency_hz);
    QCOMPARE(lambda, t.eigenvalue);
    // negative eigenvalues (rigid-body noise): f = 0, Im omega = sqrt(-lambda)
    for (std::size_t k = 0; k < lambda.size(); ++k)
      if (lambda[k] < 0) {
        QCOMPARE(f[k], 0.0);
        QVERIFY(std::abs(t.omega_imag[k] - std::sqrt(-lambda[k])) <= 1e-6 * t.omega_imag[k]);
      }
    // a supported model: first mode is flexible
    QVERIFY(io::readCalculixDat(kData + "/beam/beam_clamped.dat", f, d));
    QCOMPARE(f.size(), std::size_t(10));
    QCOMPARE(f[0], 93.01584);
  }

  void datErrors() {
    const std::string head = "\n     E I G E N V A L U E   O U T P U T\n\n MODE NO    EIGENVALUE                       FREQUENCY\n"
                             "                                     REAL PART            IMAGINARY PART\n"
                             "                           (RAD/TIME)      (CYCLES/TIME     (RAD/TIME)\n\n";
    auto check = [](const std::string& text, const std::string& expected) {
      io::CalculixEigenTable t;
      Diagnostics d;
      QVERIFY(!io::readCalculixDatFromString(text, "e.dat", t, d));
      QCOMPARE(QString::fromStdString(firstError(d)), QString::fromStdString(expected));
    };
    const std::string row1 = "      1   0.6290092E+09   0.2508006E+05   0.3991615E+04   0.0000000E+00\n";
    io::CalculixEigenTable t;
    Diagnostics d;
    QVERIFY2(io::readCalculixDatFromString(head + row1 + "\n", "e.dat", t, d), d.str().c_str());
    QCOMPARE(t.frequency_hz, std::vector<double>{3991.615});
    check(head + "      1   0.0000000E+00   0.0000000E+00   0.0000000E+00   0.0000000E+00\n",
          "e.dat:2: the eigenvalue table is all zeros: the eigen solver failed (with ARPACK, 5 * modes must not exceed the number of equations)");
    check(head + row1 + "      2   0.1320431E+10   0.3633774E+05   0.5783331E+04\n",
          "e.dat:9: eigenvalue table row: expected the mode number and 4 values, got 4 fields");
    check(head + "      1   0.6290092E+09   NaN   0.3991615E+04   0.0000000E+00\n", "e.dat:8: eigenvalue table row: 'NaN' is not a finite number");
    check(head, "e.dat:7: file ends before the rows of the eigenvalue table");
    check("nothing here\n", "e.dat: no eigenvalue table ('E I G E N V A L U E   O U T P U T') in the file: not the .dat of a *FREQUENCY step?");
  }

  // ============================== .sti/.mas/.dof ===========================================

  void matrixFixtures_data() {
    QTest::addColumn<QString>("stem");
    QTest::addColumn<int>("dofs");
    QTest::newRow("c3d8") << "tiny/c3d8_mat" << 24;
    QTest::newRow("c3d20") << "tiny/c3d20_mat" << 60;
    QTest::newRow("c3d10") << "tiny/c3d10_mat" << 30;
    QTest::newRow("beam hex") << "beam/beam_hex_mat" << 744;
  }

  void matrixFixtures() {
    REQUIRE_FIXTURES();
    QFETCH(QString, stem);
    QFETCH(int, dofs);
    const std::string base = kData + "/" + stem.toStdString();
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInp(base + ".inp", m, d), d.str().c_str());
    QVERIFY2(io::readCalculixMatrices(base, m, d), d.str().c_str());
    QCOMPARE(count(d, Severity::Warning), 0);
    QCOMPARE(static_cast<int>(m.dofs.size()), dofs);
    QCOMPARE(m.K.rows(), Eigen::Index(dofs));
    QCOMPARE(m.M.cols(), Eigen::Index(dofs));
    // exactly symmetric: both triangles stored
    QCOMPARE((Eigen::SparseMatrix<double>(m.K.transpose()) - m.K).norm(), 0.0);
    QCOMPARE((Eigen::SparseMatrix<double>(m.M.transpose()) - m.M).norm(), 0.0);
    // dofs: node-major x, y, z in ascending node id (no constraints in these decks)
    for (std::size_t k = 0; k < m.dofs.size(); ++k) QCOMPARE(m.dofs[k].component, static_cast<int>(k % 3));
    // total mass from M against rho * V of the geometry
    double volume = 0;
    for (const auto& e : m.elements) {
      std::array<Eigen::Vector3d, 8> x;
      if (e.type == fe::ElementType::Tet10 || e.type == fe::ElementType::Tet4) {
        const auto& c = m.coords;
        const Eigen::Vector3d a = c[static_cast<std::size_t>(e.nodes[0])];
        volume += std::abs((c[static_cast<std::size_t>(e.nodes[1])] - a)
                               .dot((c[static_cast<std::size_t>(e.nodes[2])] - a).cross(c[static_cast<std::size_t>(e.nodes[3])] - a))) / 6;
      } else {  // straight-edged hexes: the corner nodes define the volume
        for (std::size_t i = 0; i < 8; ++i) x[i] = m.coords[static_cast<std::size_t>(e.nodes[i])];
        volume += hex8Volume(x);
      }
    }
    const double rhoV = 7850 * volume;
    for (int c = 0; c < 3; ++c) {
      const double mass = translationalMass(m, c);
      QVERIFY2(std::abs(mass - rhoV) <= 1e-10 * rhoV, (stem + QString(": %1 vs %2").arg(mass, 0, 'g', 15).arg(rhoV, 0, 'g', 15)).toLatin1());
    }
    // rigid translation: K r = 0
    Eigen::VectorXd r = Eigen::VectorXd::Zero(dofs);
    for (int k = 0; k < dofs; k += 3) r[k] = 1;
    QVERIFY((m.K * r).norm() <= 1e-12 * m.K.norm() * r.norm() * 10);
  }

  void matrixConstrained() {
    // *BOUNDARY removes DOFs from the export: check the DOF list and the frd modes against K, M
    const std::string base = kData + "/importers/c3d8r_spc_";
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::readCalculixInp(base + "mat.inp", m, d), d.str().c_str());
    QVERIFY(m.elements[0].type == fe::ElementType::Hex8R);
    QVERIFY2(io::readCalculixMatrices(base + "mat", m, d), d.str().c_str());
    QCOMPARE(m.dofs.size(), std::size_t(30));
    std::map<int, std::vector<int>> components;
    for (const auto& dof : m.dofs) components[m.node_ids[static_cast<std::size_t>(dof.node)]].push_back(dof.component);
    QVERIFY(!components.count(1));
    QCOMPARE(components[2], std::vector<int>{0});
    QCOMPARE(components[4], (std::vector<int>{0, 1}));
    QCOMPARE(components[12], (std::vector<int>{0, 1, 2}));
    QVERIFY2(io::readCalculixFrd(base + "modal.frd", m, d), d.str().c_str());
    QCOMPARE(m.modes.cols(), Eigen::Index(5));
    Eigen::MatrixXd phi(30, 5);
    for (Eigen::Index k = 0; k < 5; ++k) {
      for (std::size_t r = 0; r < 30; ++r) phi(static_cast<Eigen::Index>(r), k) = m.modes(3 * m.dofs[r].node + m.dofs[r].component, k);
      // constrained DOFs carry no displacement in the frd
      QCOMPARE(m.modes.col(k).segment(0, 3).norm(), 0.0);
    }
    // mass-normalised and M-orthogonal; Rayleigh quotients = omega^2 (to the frd's 6 digits)
    const Eigen::MatrixXd gm = phi.transpose() * (m.M * phi), gk = phi.transpose() * (m.K * phi);
    QVERIFY2((gm - Eigen::MatrixXd::Identity(5, 5)).cwiseAbs().maxCoeff() < 2e-5, QByteArray::number((gm - Eigen::MatrixXd::Identity(5, 5)).cwiseAbs().maxCoeff()));
    for (Eigen::Index k = 0; k < 5; ++k) {
      const double omega2 = std::pow(2 * kPi * m.frequencies_hz[static_cast<std::size_t>(k)], 2);
      QVERIFY(std::abs(gk(k, k) - omega2) < 1e-4 * omega2);
    }
  }

  void matrixBeamMass() {
    REQUIRE_FIXTURES();
    fe::FeModel m;
    Diagnostics d;
    // .sti given: the trio of its stem; no deck read before: nodes created with a warning
    QVERIFY2(io::importFe(kData + "/beam/beam_hex_mat.mas", m, d), d.str().c_str());
    QVERIFY(hasItem(d, Severity::Warning, "the model has no nodes"));
    QCOMPARE(m.nodeCount(), 248);
    QVERIFY(std::abs(translationalMass(m) - 0.2355) < 1e-10 * 0.2355);
  }

  void matrixErrors() {
    const std::string dof = "1.1\n1.2\n1.3\n2.1\n";
    const std::string sti = "1 1  1.0e+00\n1 2  2.0e+00\n2 2  3.0e+00\n4 4  5.0e+00\n";
    auto check = [](const std::string& s, const std::string& ma, const std::string& df, const std::string& expected) {
      fe::FeModel m;
      m.addNode(1, Eigen::Vector3d::Zero());
      m.addNode(2, Eigen::Vector3d::Zero());
      Diagnostics d;
      QVERIFY(!io::readCalculixMatricesFromStrings(s, "a.sti", ma, "a.mas", df, "a.dof", m, d));
      QCOMPARE(QString::fromStdString(firstError(d)), QString::fromStdString(expected));
      QCOMPARE(m.K.rows(), Eigen::Index(0));
    };
    {
      fe::FeModel m;
      m.addNode(1, Eigen::Vector3d::Zero());
      m.addNode(2, Eigen::Vector3d::Zero());
      Diagnostics d;
      QVERIFY2(io::readCalculixMatricesFromStrings(sti, "a.sti", sti, "a.mas", dof, "a.dof", m, d), d.str().c_str());
      QCOMPARE(m.K.coeff(0, 1), 2.0);
      QCOMPARE(m.K.coeff(1, 0), 2.0);
      QCOMPARE(m.K.nonZeros(), Eigen::Index(5));
      QVERIFY(hasItem(d, Severity::Warning, "a.sti: warning: 1 of the 4 DOFs of a.dof have no entry (first: row 3)"));
    }
    check(sti + "5 5  1.0\n", sti, dof, "a.sti:5: index (5, 5) is outside 1..4 (the size given by the .dof file)");
    check(sti, sti, dof + "2.2\n2.3\n3.1\n", "a.dof:7: node 3 is not in the model");
    check(sti, sti, "1.1\n1.4\n", "a.dof:2: direction 4 of node 1 is not a translation (1, 2 or 3)");
    check(sti, sti, "1.1\n1.x\n", "a.dof:2: expected 'node.direction': 'x' is not an integer");
    check(sti, sti, "1.1\n1.1\n", "a.dof:2: node 1 direction 1 appears twice (also at line 1)");
    check(sti, sti, "1.1\n\n1.2\n", "a.dof:2: empty line inside the DOF list (line k describes matrix row k)");
    check(sti, "1 1 nan\n", dof, "a.mas:1: 'nan' is not a finite number");
    check(sti, "1 1\n", dof, "a.mas:1: expected 'row column value', got 2 fields");
    check(sti + "2 1  2.5\n", sti, dof, "a.sti:2: matrix is not symmetric: A(1, 2) = 2 but A(2, 1) = 2.5");
    check(sti + "1 2  2.0\n", sti, dof, "a.sti:5: entry (1, 2) is given twice (also at line 2)");
    check("", sti, dof, "a.sti: no matrix entries");
    // both triangles, consistent: accepted
    fe::FeModel m;
    m.addNode(1, Eigen::Vector3d::Zero());
    m.addNode(2, Eigen::Vector3d::Zero());
    Diagnostics d;
    QVERIFY2(io::readCalculixMatricesFromStrings(sti + "2 1  2.0\n", "a.sti", sti, "a.mas", dof, "a.dof", m, d), d.str().c_str());
    QCOMPARE(m.K.coeff(1, 0), 2.0);
    // missing file of the trio
    write("trio/x.sti", sti);
    write("trio/x.dof", dof);
    Diagnostics d2;
    QVERIFY(!io::importFe(path("trio/x.sti"), m, d2));
    QVERIFY(firstError(d2).rfind(path("trio/x.mas") + ": cannot open file", 0) == 0);
  }

  // ============================== MatrixMarket / Abaqus .mtx ================================

  void matrixMarketRoundTrip() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    std::vector<Eigen::Triplet<double>> t;
    for (int k = 0; k < 200; ++k) {
      const int i = static_cast<int>(rng() % 50), j = static_cast<int>(rng() % 50);
      t.emplace_back(i, j, u(rng) * std::pow(10.0, static_cast<int>(rng() % 40) - 20));
    }
    Eigen::SparseMatrix<double> G(50, 40), S(50, 50), back;
    std::vector<Eigen::Triplet<double>> tg;
    for (const auto& x : t)
      if (x.col() < 40) tg.push_back(x);
    G.setFromTriplets(tg.begin(), tg.end());
    S.setFromTriplets(t.begin(), t.end());
    S = Eigen::SparseMatrix<double>(S + Eigen::SparseMatrix<double>(S.transpose()));
    Diagnostics d;
    QVERIFY(io::writeMatrixMarket(path("g.mtx"), G, false, d));
    QVERIFY2(io::readMatrixMarket(path("g.mtx"), back, d), d.str().c_str());
    QCOMPARE(back.rows(), Eigen::Index(50));
    QCOMPARE(back.cols(), Eigen::Index(40));
    QCOMPARE((back - G).norm(), 0.0);  // 17 significant digits: exact
    QVERIFY(io::writeMatrixMarket(path("s.mtx"), S, true, d));
    QVERIFY(readFile(path("s.mtx")).rfind("%%MatrixMarket matrix coordinate real symmetric\n", 0) == 0);
    QVERIFY2(io::readMatrixMarket(path("s.mtx"), back, d), d.str().c_str());
    QCOMPARE((back - S).norm(), 0.0);
    QCOMPARE(back.nonZeros(), S.nonZeros());
    QCOMPARE(count(d, Severity::Warning), 0);
    // comments, integer field, symmetric given in the upper triangle
    QVERIFY(io::readMatrixMarketFromString("%%MatrixMarket matrix coordinate integer symmetric\n% c\n%\n2 2 2\n1 2 7\n2 2 1\n", "i.mtx", back, d));
    QCOMPARE(Eigen::MatrixXd(back), (Eigen::MatrixXd(2, 2) << 0, 7, 7, 1).finished());
  }

  void matrixMarketErrors() {
    auto check = [](const std::string& text, const std::string& expected) {
      Eigen::SparseMatrix<double> A;
      Diagnostics d;
      QVERIFY(!io::readMatrixMarketFromString(text, "a.mtx", A, d));
      QCOMPARE(QString::fromStdString(firstError(d)), QString::fromStdString(expected));
    };
    const std::string sym = "%%MatrixMarket matrix coordinate real symmetric\n";
    check(sym + "3 3 3\n1 1 1.0\n2 1 2.0\n1 2 3.0\n", "a.mtx:5: matrix is not symmetric: A(1, 2) = 3 but A(2, 1) = 2");
    check(sym + "3 3 3\n1 1 1.0\n2 1 2.0\n", "a.mtx:4: file ends after 2 of the 3 entries declared on line 2 (truncated file?)");
    check(sym + "3 3 1\n1 1 1.0\n2 1 2.0\n", "a.mtx:4: more entries than the 1 declared on line 2");
    check(sym + "3 3 1\n4 1 1.0\n", "a.mtx:3: index (4, 1) is outside the 3 x 3 matrix");
    check(sym + "3 2 1\n1 1 1.0\n", "a.mtx:2: a symmetric matrix must be square, not 3 x 2");
    check(sym + "3 3 1\n1 1 inf\n", "a.mtx:3: 'inf' is not a finite number");
    check(sym + "3 3 2\n1 1 1\n1 1 1\n", "a.mtx:4: entry (1, 1) is given twice (also at line 3)");
    check(sym, "a.mtx:1: file ends before the size line");
    check(sym + "3 3\n", "a.mtx:2: expected the size line 'rows columns entries'");
    check("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "a.mtx:1: format 'array' is not supported (only 'coordinate')");
    check("%%MatrixMarket matrix coordinate complex general\n", "a.mtx:1: field 'complex' is not supported (only 'real' and 'integer')");
    check("%%MatrixMarket matrix coordinate real skew-symmetric\n", "a.mtx:1: symmetry 'skew-symmetric' is not supported (only 'general' and 'symmetric')");
    check("1 1 1\n", "a.mtx:1: not a MatrixMarket file: the first line must start with '%%MatrixMarket'");
    check("%%MatrixMarket matrix coordinate real general\n99999999999 1 0\n", "a.mtx:2: unsupported size 99999999999 x 1 with 0 entries");
    // general files may repeat entries: summed, with a warning
    Eigen::SparseMatrix<double> A;
    Diagnostics d;
    QVERIFY(io::readMatrixMarketFromString("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n1 2 2\n2 1 5\n", "a.mtx", A, d));
    QCOMPARE(A.coeff(0, 1), 3.0);
    QVERIFY(hasItem(d, Severity::Warning, "1 duplicate entries were summed"));
  }

  void abaqusMtx() {
    // lower triangle of a 2-node stiffness (node 7 before node 3 in the file)
    const std::string text = "** ASSEMBLED STIFFNESS MATRIX\n"
                             "7,1, 7,1,  4.0\n"
                             "3,1, 3,1,  1.0\n"
                             "3,2, 3,1,  0.5\n"
                             "3,2, 3,2,  2.0\n"
                             "7,1, 3,2, -1.5\n";
    io::AbaqusMatrix a;
    Diagnostics d;
    QVERIFY2(io::readAbaqusMtxFromString(text, "k.mtx", a, d), d.str().c_str());
    QCOMPARE(a.node_ids, (std::vector<int>{3, 3, 7}));
    QCOMPARE(a.components, (std::vector<int>{0, 1, 0}));
    const Eigen::Matrix3d expected = (Eigen::Matrix3d() << 1, 0.5, 0, 0.5, 2, -1.5, 0, -1.5, 4).finished();
    QCOMPARE(Eigen::MatrixXd(a.A), Eigen::MatrixXd(expected));
    // into a model, as stiffness and (another file) as mass
    write("abq/model_STIF1.mtx", text);
    write("abq/model_MASS1.mtx", "3,1,3,1,1\n3,2,3,2,1\n7,1,7,1,2\n");
    fe::FeModel m;
    QVERIFY(io::readCalculixInpFromString("*NODE\n3,0,0,0\n7,1,0,0\n", "m.inp", m, d));
    QVERIFY2(io::importFe(path("abq/model_STIF1.mtx"), m, d), d.str().c_str());
    QVERIFY2(io::importFe(path("abq/model_MASS1.mtx"), m, d), d.str().c_str());
    QCOMPARE(m.K.coeff(2, 1), -1.5);
    QCOMPARE(m.M.coeff(2, 2), 2.0);
    QCOMPARE(m.dofs.size(), std::size_t(3));
    QCOMPARE(m.dofs[2].node, 1);
    // a mass matrix with other DOFs than the stiffness read before
    write("abq/other_MASS.mtx", "3,1,3,1,1\n");
    QVERIFY(!io::importFe(path("abq/other_MASS.mtx"), m, d));
    QVERIFY(hasItem(d, Severity::Error, "its DOFs differ from those of the stiffness matrix read before"));
    auto check = [](const std::string& t, const std::string& expected) {
      io::AbaqusMatrix x;
      Diagnostics dd;
      QVERIFY(!io::readAbaqusMtxFromString(t, "k.mtx", x, dd));
      QCOMPARE(QString::fromStdString(firstError(dd)), QString::fromStdString(expected));
    };
    check("1,4,1,4,1.0\n", "k.mtx:1: DOF 4 is not a translation (1, 2 or 3; rotational and other DOFs are not supported)");
    check("1,1,1,1\n", "k.mtx:1: expected 'node, dof, node, dof, value', got 4 fields");
    check("1,1,1,1,x\n", "k.mtx:1: 'x' is not a number");
    check("1,1,2,1,1\n2,1,1,1,2\n", "k.mtx:1: matrix is not symmetric: A(1, 2) = 1 but A(2, 1) = 2");
    check("** nothing\n", "k.mtx: no matrix entries");
  }

  // ============================== dispatcher ================================================

  void importDispatch() {
    REQUIRE_FIXTURES();
    fe::FeModel m;
    Diagnostics d;
    QVERIFY2(io::importFe(kData + "/tiny/c3d10_modal.inp", m, d), d.str().c_str());
    QVERIFY2(io::importFe(kData + "/tiny/c3d10_modal.frd", m, d), d.str().c_str());
    QCOMPARE(m.modes.cols(), Eigen::Index(4));
    const double frdFirst = m.frequencies_hz[0];
    QVERIFY2(io::importFe(kData + "/tiny/c3d10_modal.dat", m, d), d.str().c_str());
    QCOMPARE(m.frequencies_hz.size(), std::size_t(4));
    QVERIFY(std::abs(m.frequencies_hz[0] - frdFirst) < 1e-3);
    QCOMPARE(m.frequencies_hz[0], 3991.615);
    QVERIFY2(io::importFe(kData + "/tiny/c3d10_mat.dof", m, d), d.str().c_str());
    QCOMPARE(m.K.rows(), Eigen::Index(30));
    QCOMPARE(m.dofs[0].node, m.indexOf(101));
    QCOMPARE(m.sources.back(), kData + "/tiny/c3d10_mat.dof");

    // gmsh mesh through the dispatcher (reader by another module)
    fe::FeModel g;
    QVERIFY2(io::importFe(kData + "/beam/mesh.msh", g, d), d.str().c_str());
    QCOMPARE(g.nodeCount(), 1365);

    // MatrixMarket .mtx: rows = 3 x nodes -> node-major DOFs
    fe::FeModel t;
    QVERIFY(io::readCalculixInpFromString(kTetInp, "t.inp", t, d));
    Eigen::SparseMatrix<double> I(12, 12);
    I.setIdentity();
    write("disp/.keep", "");
    QVERIFY(io::writeMatrixMarket(path("disp/tet_mass.MTX"), I, true, d));
    QVERIFY2(io::importFe(path("disp/tet_mass.MTX"), t, d), d.str().c_str());
    QCOMPARE(t.M.rows(), Eigen::Index(12));
    QCOMPARE(t.K.rows(), Eigen::Index(0));
    QCOMPARE(t.dofs.size(), std::size_t(12));
    QCOMPARE(t.dofs[5].node, 1);
    QCOMPARE(t.dofs[5].component, 2);

    // unknown extension; an empty .dat (MATRIXSTORAGE run)
    Diagnostics e;
    write("disp/x.stl", "solid\n");
    QVERIFY(!io::importFe(path("disp/x.stl"), t, e));
    QCOMPARE(firstError(e), path("disp/x.stl") + ": unknown FE file type '.stl' (supported: " + io::feFileFilter() + ")");
    write("disp/empty.dat", "");
    Diagnostics e2;
    QVERIFY(!io::importFe(path("disp/empty.dat"), t, e2));
    QCOMPARE(firstError(e2), path("disp/empty.dat") + ": empty .dat file (a SOLVER=MATRIXSTORAGE run writes no eigenvalue table)");
    Diagnostics e3;
    QVERIFY(!io::importFe(path("disp/none.inp"), t, e3));
    QVERIFY(firstError(e3).rfind(path("disp/none.inp") + ": cannot open file", 0) == 0);
  }

  void importNastranDat() {
    // a .dat without an eigenvalue table goes to the Nastran reader
    REQUIRE_FIXTURES();
    const std::string bdf = readFile(kData + "/tiny/two_solids_small.bdf");
    const std::string p = write("nas/two_solids.dat", bdf);
    fe::FeModel m;
    Diagnostics d;
    const bool ok = io::importFe(p, m, d);
    if (!ok && firstError(d).find("not available") != std::string::npos) QSKIP("Nastran reader not built");
    QVERIFY2(ok, d.str().c_str());
    QCOMPARE(m.nodeCount(), 25);
    QCOMPARE(m.elements.size(), std::size_t(3));
  }

  // ============================== robustness ================================================

  /// Every prefix (at many cut points) and random byte mutations of real files: each reader
  /// returns, and a failure always carries an error.
  void neverCrashOnDamagedFiles() {
    REQUIRE_FIXTURES();
    std::mt19937 rng(12345);
    io::InpOptions noInclude;
    noInclude.follow_includes = false;
    const std::vector<std::pair<std::string, int>> files{
        {"tiny/c3d20_modal.inp", 0}, {"tiny/features.inp", 0}, {"tiny/two_solids.inp", 0},  {"tiny/c3d20_modal.frd", 1},
        {"tiny/c3d10_modal.frd", 1}, {"tiny/c3d8_modal.dat", 2}, {"tiny/c3d20_modal.dat", 2}, {"tiny/c3d8_mat.sti", 3},
        {"tiny/c3d8_mat.dof", 4}};
    for (const auto& [file, kind] : files) {
      const std::string text = readFile(kData + "/" + file);
      QVERIFY(!text.empty());
      auto run = [&](const std::string& t) {
        Diagnostics d;
        fe::FeModel m;
        bool ok = false;
        switch (kind) {
          case 0: ok = io::readCalculixInpFromString(t, "x.inp", m, d, noInclude); break;
          case 1: ok = io::readCalculixFrdFromString(t, "x.frd", m, d); break;
          case 2: {
            io::CalculixEigenTable tab;
            ok = io::readCalculixDatFromString(t, "x.dat", tab, d);
            break;
          }
          case 3: {
            Eigen::SparseMatrix<double> A;
            ok = io::readCalculixMatrixText(t, "x.sti", 24, A, d);
            break;
          }
          case 4: {
            std::vector<int> n, c;
            ok = io::readCalculixDofText(t, "x.dof", n, c, d);
            break;
          }
        }
        if (!ok && !d.hasErrors()) qFatal("%s: failed without an error", file.c_str());
        for (const auto& i : d.items())
          if (i.message.empty()) qFatal("%s: empty diagnostic", file.c_str());
      };
      const std::size_t step = std::max<std::size_t>(1, text.size() / 300);
      for (std::size_t n = 0; n <= text.size(); n += step) run(text.substr(0, n));
      for (int k = 0; k < 300; ++k) {
        std::string t = text;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
          const std::size_t pos = rng() % t.size();
          switch (rng() % 4) {
            case 0: t[pos] = static_cast<char>(rng() % 256); break;
            case 1: t.erase(pos, 1 + rng() % 20); break;
            case 2: {
              const std::string piece = t.substr(rng() % t.size(), 1 + rng() % 40);
              t = t.substr(0, pos) + piece + t.substr(pos);
              break;
            }
            case 3: t[pos] = "0123456789,.-+eE \n*"[rng() % 19]; break;
          }
          if (t.empty()) t.push_back('x');
        }
        run(t);
      }
    }
  }

  void strictNumbers() {
    int i = 0;
    long long l = 0;
    double x = 0;
    std::string problem;
    QVERIFY(io::parseInt(" +42 ", i) && i == 42);
    QVERIFY(!io::parseInt("+-4", i, &problem));
    QVERIFY(!io::parseInt("4x", i, &problem));
    QCOMPARE(problem, std::string("'4x' is not an integer"));
    QVERIFY(!io::parseInt("99999999999", i, &problem));
    QCOMPARE(problem, std::string("'99999999999' is out of range"));
    QVERIFY(io::parseInt64("99999999999", l) && l == 99999999999LL);
    QVERIFY(io::parseDouble("1.5D+03", x) && x == 1500.0);
    QVERIFY(io::parseDouble("+.5", x) && x == 0.5);
    QVERIFY(io::parseDouble("7850.", x) && x == 7850.0);
    QVERIFY(io::parseDouble("1e-400", x) && x == 0.0);  // underflow is harmless
    QVERIFY(!io::parseDouble("+-1", x));
    QVERIFY(!io::parseDouble("1,5", x));
    QVERIFY(!io::parseDouble("", x, &problem));
    QCOMPARE(problem, std::string("expected a number, got an empty field"));
    QVERIFY(!io::parseDouble("infinity", x, &problem));
    QCOMPARE(problem, std::string("'infinity' is not a finite number"));
    QCOMPARE(io::columns("abcdef", 2, 4), std::string_view("bcd"));
    QCOMPARE(io::columns("abc", 2, 9), std::string_view("bc"));
    QCOMPARE(io::columns("abc", 5, 9), std::string_view());
  }
};

QTEST_GUILESS_MAIN(CalculixTest)
#include "calculix_test.moc"
