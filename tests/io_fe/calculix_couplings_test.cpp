// CalculiX decks as ccx reads them on tests/data/fe/calculix
// (scripts/make_calculix_fixtures.py): what ccx tolerates (unknown material options, a lone '*',
// extra element entries, undefined set members) Flexim tolerates with a warning; what changes
// the model is a warning and a FeModel::model_changes phrase; couplings (*RIGID BODY, *COUPLING
// with *KINEMATIC / *DISTRIBUTING) become Craig-Bampton interfaces equal to node-set interfaces,
// and the reduced body with a rigid body matches ccx's free-free run of the same deck. Linear
// constraints (*EQUATION, *TIE) join parts as ccx joins them (tests/data/fe/tied).
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/modal.h"
#include "core/fe/reduction.h"
#include "core/fe/surface.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_inp.h"

#include <Eigen/Dense>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <optional>
#include <set>
#include <string>

using namespace flexim;
using namespace flexim::fe;

namespace {

const std::string kDir = FLEXIM_FE_DATA "/calculix/";
constexpr double kBeamMass = 7850 * 0.3 * 0.01 * 0.01, kPointMass = 0.1;

FeModel load(const std::string& name, Diagnostics& diag) {
  FeModel m;
  if (!io::readCalculixInp(kDir + name, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& i : d.items())
    if (i.severity == s && i.str().find(text) != std::string::npos) return true;
  return false;
}

bool hasChange(const FeModel& m, const std::string& text) {
  return std::any_of(m.model_changes.begin(), m.model_changes.end(),
                     [&](const std::string& c) { return c.find(text) != std::string::npos; });
}

/// Elastic free-free frequencies [Hz] (rigid ones dropped).
std::vector<double> elasticHz(const FeModel& m, int count, Diagnostics& diag, const AssemblyOptions& aopt = {}) {
  AssembledMatrices mats;
  if (!assemble(m, aopt, mats, diag)) return {};
  ModalOptions o;
  o.elastic_modes = count;
  ModalResult r;
  if (!freeModesOfMesh(m, mats.K, mats.M, o, r, diag)) return {};
  std::vector<double> f;
  const auto all = r.frequenciesHz();
  for (size_t i = 0; i < all.size(); ++i)
    if (!r.rigid[i]) f.push_back(all[i]);
  return f;
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b, size_t n) {
  double worst = a.size() >= n && b.size() >= n ? 0 : 1e300;
  for (size_t i = 0; i < n && i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::abs(a[i] / b[i] - 1));
  return worst;
}

FeModel loadTied(const std::string& name, Diagnostics& diag) {
  FeModel m;
  if (!io::readCalculixInp(std::string(FLEXIM_FE_DATA) + "/tied/" + name, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

/// ccx's elastic frequencies [Hz] of a free-free run (the six rigid ones dropped).
std::vector<double> ccxElasticHz(const std::string& dat) {
  std::vector<double> f;
  Diagnostics diag;
  if (!io::readCalculixDat(std::string(FLEXIM_FE_DATA) + "/tied/" + dat, f, diag) || f.size() < 6) return {};
  return std::vector<double>(f.begin() + 6, f.end());
}

std::set<int> ids(const FeModel& m, const std::vector<int>& nodes) {
  std::set<int> s;
  for (int n : nodes) s.insert(m.node_ids[static_cast<std::size_t>(n)]);
  return s;
}

/// Craig-Bampton reduction with one interface and 20 fixed-interface modes.
bool craigBampton(const FeModel& m, const InterfaceSpec& spec, ReducedBody& body, ReductionReport& rep, Diagnostics& diag) {
  ReductionOptions o;
  o.method = ReductionOptions::Method::CraigBampton;
  o.modes = 20;
  o.interfaces = {spec};
  return reduce(m, o, body, rep, diag);
}

/// Eigenvalues of the reduced pencil (K̄, M̄) of a body, ascending.
Eigen::VectorXd spectrum(const Eigen::MatrixXd& K, const Eigen::MatrixXd& M) {
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(0.5 * (K + K.transpose()), 0.5 * (M + M.transpose()),
                                                               Eigen::EigenvaluesOnly);
  return ges.eigenvalues();
}

/// Largest relative difference of two spectra; the rigid-body zeros of a free body (round-off,
/// |lambda| < 1e-9 lambda_max) are compared relative to the largest eigenvalue.
double spectrumDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size() || b.size() == 0) return 1e300;
  const double scale = b.cwiseAbs().maxCoeff();
  double worst = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a(i) - b(i)) / (std::abs(b(i)) < 1e-9 * scale ? scale : std::abs(b(i))));
  return worst;
}

/// Fixed-interface frequencies and the reduced spectrum of two interfaces of one mesh agree.
void sameReduction(const FeModel& m, const InterfaceSpec& a, const InterfaceSpec& b, const char* what) {
  ReducedBody ba, bb;
  ReductionReport ra, rb;
  Diagnostics diag;
  QVERIFY2(craigBampton(m, a, ba, ra, diag) && craigBampton(m, b, bb, rb, diag), diag.str().c_str());
  const std::vector<double> fa = ra.modal.frequenciesHz(), fb = rb.modal.frequenciesHz();
  const double fixed = largestDifference(fa, fb, 20);
  const double reduced = spectrumDifference(spectrum(ba.invariants.Kbar, ba.invariants.Mbar),
                                            spectrum(bb.invariants.Kbar, bb.invariants.Mbar));
  qInfo("%s: interface %s vs %s: 20 fixed-interface frequencies (first %.7g Hz) differ by %.1e, reduced spectrum by "
        "%.1e", what, a.set.c_str(), b.set.c_str(), fa.at(0), fixed, reduced);
  QVERIFY2(fixed < 1e-8, qPrintable(QString::number(fixed)));
  QVERIFY2(reduced < 1e-8, qPrintable(QString::number(reduced)));
}

}  // namespace

class CalculixCouplingsTest : public QObject {
  Q_OBJECT

 private slots:
  /// *RATE DEPENDENT (unknown to ccx too), *PLASTIC, *EXPANSION and a lone '*' between *ELASTIC
  /// and *DENSITY: skipped with warnings, the material keeps both, the frequencies are the clean
  /// deck's.
  void materialOptionsDoNotEndTheMaterial() {
    Diagnostics diag, clean;
    const FeModel m = load("material_options.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Warning, "unknown keyword *RATE DEPENDENT in material STEEL: skipped with its data lines"),
             diag.str().c_str());
    QVERIFY(has(diag, Severity::Warning, "*PLASTIC of material STEEL is not used (the body is linear elastic)"));
    QVERIFY(has(diag, Severity::Warning, "*EXPANSION of material STEEL is not used"));
    QVERIFY(has(diag, Severity::Warning, "a lone '*' line is skipped"));
    QVERIFY(m.model_changes.empty());  // ccx ignores them too
    QCOMPARE(m.materials.size(), size_t(1));
    QVERIFY(m.materials[0].has_elastic && m.materials[0].has_density);
    QCOMPARE(m.materials[0].rho, 7850.0);
    const std::vector<double> f = elasticHz(m, 4, diag), ref = elasticHz(load("beam_clean.inp", clean), 4, clean);
    QVERIFY2(largestDifference(f, ref, 4) < 1e-12, qPrintable(QString::number(largestDifference(f, ref, 4))));
  }

  /// ccx ignores entries after an element's last node and leaves undefined nodes out of a set:
  /// warnings, not errors.
  void extraEntriesAndUndefinedSetMembers() {
    Diagnostics diag;
    FeModel m = load("extra_entries.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Warning, "extra_entries.inp:13: warning: element 1: C3D8 has 8 nodes; the 2 extra "
                                          "entries of the line are ignored (as ccx does)"),
             diag.str().c_str());
    QCOMPARE(m.elements.size(), size_t(1));
    QCOMPARE(m.elements[0].nodes[7], m.indexOf(8));

    Diagnostics d2;
    m = load("undefined_nset_node.inp", d2);
    QVERIFY2(!d2.hasErrors(), d2.str().c_str());
    QVERIFY2(has(d2, Severity::Warning, "*NSET SOME: node 99999 is not defined; it is left out of the set"), d2.str().c_str());
    QCOMPARE(ids(m, m.node_sets.at("SOME")), (std::set<int>{1, 2, 3}));
  }

  /// Every dropped keyword that changes mass, stiffness or connectivity: a warning saying what it
  /// affects and one model_changes phrase; harmless ones an info.
  void droppedKeywordsChangeTheModel() {
    Diagnostics diag;
    const FeModel m = load("dropped_keywords.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    const char* expected[][2] = {
        {"*MPC is not supported", "*MPC: multi-point constraints not applied"},
        {"*CONTACT PAIR is not supported", "*CONTACT PAIR: contact not modelled"},
        {"*TRANSFORM is not supported", "*TRANSFORM: local node directions not applied"},
        {"*SHELL SECTION, ELSET=FIN is not supported: shell elements", "*SHELL SECTION: shell elements not imported"},
        {"*GAP, ELSET=STOP is not supported", "*GAP: gap elements not imported"},
        {"only isotropic elasticity is supported; material ORTHO",
         "material ORTHO: *ELASTIC, TYPE=ENGINEERING CONSTANTS not supported"},
        {"*ORIENTATION is not supported", "*ORIENTATION: local material directions not applied"}};
    for (const auto& [warning, change] : expected) {
      QVERIFY2(has(diag, Severity::Warning, warning), qPrintable(QString(warning) + "\n" + diag.str().c_str()));
      QVERIFY2(hasChange(m, change), change);
    }
    QCOMPARE(m.model_changes.size(), std::size(expected));
    QVERIFY(has(diag, Severity::Warning, "element type S8R is not a solid element"));
    QVERIFY(has(diag, Severity::Info, "*SURFACE INTERACTION is not imported (it does not change mass, stiffness"));
    QVERIFY(has(diag, Severity::Info, "*SURFACE BEHAVIOR is not imported"));
    QCOMPARE(m.couplings.size(), size_t(1));
    // a coupling is a note at import, not a change of the model (it is applied either way)
    QVERIFY(has(diag, Severity::Info, "1 coupling (RIGID BODY TIPFACE) read"));
    QVERIFY(!hasChange(m, "coupling"));
    // *EQUATION and *TIE are read: the equation is a constraint; the tie's slave is a shell node
    // far from the solid faces
    QCOMPARE(m.constraints.size(), size_t(1));
    QVERIFY2(has(diag, Severity::Warning, "*TIE T1: no slave node lies within the position tolerance"), diag.str().c_str());
  }

  /// The bar meshed as one block, and as two blocks with their own nodes on the cut joined by
  /// *EQUATION u_right - u_left = 0: the same discrete model, so the same frequencies.
  void equationJoinsTwoBlocksExactly() {
    Diagnostics diag;
    const FeModel one = loadTied("one_block.inp", diag), two = loadTied("equation.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QCOMPARE(two.constraints.size(), size_t(63));  // 21 node pairs, 3 directions
    const std::vector<double> a = elasticHz(one, 10, diag), b = elasticHz(two, 10, diag);
    QVERIFY2(largestDifference(a, b, 10) < 1e-9, diag.str().c_str());
    QVERIFY(has(diag, Severity::Info, "63 linear constraints applied: 63 dependent degrees of freedom eliminated"));
    // and ccx's run of the deck
    QVERIFY(largestDifference(b, ccxElasticHz("equation.dat"), 10) < 1e-5);
  }

  /// The stiffening load cases are solved on the independent dofs: the bar as two blocks joined
  /// by *EQUATION (the same discrete model as one block) gets the same modal geometric stiffness
  /// of every load case (its eigenvalues: the modal bases differ by signs and within pairs).
  void stiffeningLoadCasesWithConstraints() {
    Diagnostics diag;
    const FeModel one = loadTied("one_block.inp", diag), two = loadTied("equation.inp", diag);
    ReductionOptions opt;
    opt.modes = 7;  // up to 7426 Hz: no pair of equal frequencies cut in two
    opt.stress_modes = false;
    ReducedBody a, b;
    ReductionReport ra, rb;
    QVERIFY2(reduce(one, opt, a, ra, diag) && reduce(two, opt, b, rb, diag), diag.str().c_str());
    QCOMPARE(a.geometric_stiffness.size(), b.geometric_stiffness.size());
    QVERIFY(!a.geometric_stiffness.empty());
    double scale = 0, worst = 0;
    for (std::size_t c = 0; c < a.geometric_stiffness.size(); ++c) {
      const auto spectrumOf = [](const Eigen::MatrixXd& K) {
        return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (K + K.transpose())).eigenvalues();
      };
      const Eigen::VectorXd ea = spectrumOf(a.geometric_stiffness[c]), eb = spectrumOf(b.geometric_stiffness[c]);
      scale = std::max(scale, ea.cwiseAbs().maxCoeff());
      worst = std::max(worst, (ea - eb).cwiseAbs().maxCoeff());
    }
    qInfo("geometric stiffness of %zu load cases, one block against two joined by *EQUATION: largest eigenvalue "
          "difference %.1e of %.3g", a.geometric_stiffness.size(), worst, scale);
    QVERIFY2(scale > 0 && worst < 1e-6 * scale, qPrintable(QString("%1 of %2").arg(worst).arg(scale)));
  }

  /// Non-matching meshes tied at x = 0.2: ccx's frequencies of the same deck, and the one-block
  /// bar's to the discretisation error. The modes satisfy the ties.
  void tieMatchesCalculix() {
    Diagnostics diag;
    const FeModel tied = loadTied("tie.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Info, "*TIE JOINT: 40 slave nodes tied to 4 master faces"), diag.str().c_str());
    QCOMPARE(tied.constraints.size(), size_t(120));
    AssembledMatrices mats;
    QVERIFY(assemble(tied, {}, mats, diag));
    ModalOptions o;
    o.elastic_modes = 10;
    ModalResult r;
    QVERIFY2(freeModesOfMesh(tied, mats.K, mats.M, o, r, diag), diag.str().c_str());
    QCOMPARE(r.rigid_count, 6);  // one body, not two parts
    std::vector<double> hz;
    for (size_t i = 0; i < r.rigid.size(); ++i)
      if (!r.rigid[i]) hz.push_back(r.frequenciesHz()[i]);
    const double vsCcx = largestDifference(hz, ccxElasticHz("tie.dat"), 10);
    QVERIFY2(vsCcx < 1e-5, qPrintable(QString::number(vsCcx)));
    const double vsOneBlock = largestDifference(hz, elasticHz(loadTied("one_block.inp", diag), 10, diag), 10);
    QVERIFY2(vsOneBlock > 1e-5 && vsOneBlock < 5e-3, qPrintable(QString::number(vsOneBlock)));
    std::vector<int> first;
    const Eigen::MatrixXd residual = constraintRows(tied, first) * r.modes;
    QVERIFY(residual.cwiseAbs().maxCoeff() < 1e-10 * r.modes.cwiseAbs().maxCoeff());
  }

  /// Craig-Bampton with interfaces at both ends of the tied bar: the constraint modes and the
  /// fixed-interface modes obey the ties, and the reduced body's free-free frequencies bound the
  /// full model's from above (Rayleigh-Ritz) and are close to them.
  void craigBamptonOfATiedBar() {
    Diagnostics diag;
    FeModel tied = loadTied("tie.inp", diag);
    std::vector<int> endA, endB;
    for (int k = 0; k < tied.nodeCount(); ++k) {
      if (std::abs(tied.coords[std::size_t(k)].x()) < 1e-9) endA.push_back(k);
      if (std::abs(tied.coords[std::size_t(k)].x() - 0.4) < 1e-9) endB.push_back(k);
    }
    tied.node_sets["END_A"] = endA;
    tied.node_sets["END_B"] = endB;
    ReductionOptions opt;
    opt.method = ReductionOptions::Method::CraigBampton;
    opt.modes = 12;
    opt.orthonormalise = true;
    opt.interfaces = {{"END_A"}, {"END_B"}};
    ReducedBody body;
    ReductionReport report;
    QVERIFY2(reduce(tied, opt, body, report, diag), diag.str().c_str());
    std::vector<int> first;
    const Eigen::MatrixXd residual = constraintRows(tied, first) * body.modes;
    QVERIFY(residual.cwiseAbs().maxCoeff() < 1e-10 * body.modes.cwiseAbs().maxCoeff());
    std::vector<double> cb;
    for (int j = 0; j < body.eigenvalues.size(); ++j)
      if (body.kinds[std::size_t(j)] == ModeKind::Elastic) cb.push_back(std::sqrt(body.eigenvalues(j)) / (2 * std::numbers::pi));
    const std::vector<double> full = elasticHz(tied, 4, diag);
    QVERIFY(cb.size() >= 4 && full.size() >= 4);
    for (int i = 0; i < 4; ++i) {
      QVERIFY2(cb[std::size_t(i)] >= full[std::size_t(i)] * (1 - 1e-9), qPrintable(QString::number(i)));
      QVERIFY2(cb[std::size_t(i)] < full[std::size_t(i)] * 1.01, qPrintable(QString::number(i)));
    }
  }

  /// A constraint that a rigid motion breaks (a one-term equation fixes a DOF) is a support, which
  /// a free body cannot have: refused, naming it.
  void supportingEquationIsRefused() {
    std::ifstream in(std::string(FLEXIM_FE_DATA) + "/tied/one_block.inp");
    std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    deck.insert(deck.find("*MATERIAL"), "*EQUATION\n1\n1, 2, 1.\n");
    FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInpFromString(deck, "held.inp", m, diag), diag.str().c_str());
    ReductionOptions opt;
    ReducedBody body;
    ReductionReport report;
    QVERIFY(!reduce(m, opt, body, report, diag));
    QVERIFY2(has(diag, Severity::Error, "1 linear constraint holds the body against rigid-body motion, like supports"),
             diag.str().c_str());
    QVERIFY(has(diag, Severity::Error, "*EQUATION (held.inp:"));
  }

  /// Master-slave elimination: a chain (the slave of one constraint is named in a later one), a
  /// redundant constraint, and a constraint with no coordinate left to eliminate.
  void eliminationOfChains() {
    // u0 = u1, then u1 = u2 (u0 follows), then u0 = u2 (implied by the two)
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1}, {0, 1, -1}, {1, 1, 1}, {1, 2, -1}, {2, 0, 1}, {2, 2, -1}};
    Eigen::SparseMatrix<double> G(3, 4);
    G.setFromTriplets(t.begin(), t.end());
    Elimination e;
    QCOMPARE(eliminate(G, {0, 1, 0}, std::vector<char>(4, 1), e), -1);
    QCOMPARE(e.eliminated, 2);
    QCOMPARE(e.redundant, 1);
    QCOMPARE(e.kept, (std::vector<int>{2, 3}));
    const Eigen::MatrixXd T(e.T);
    Eigen::MatrixXd expected(4, 2);
    expected << 1, 0, 1, 0, 1, 0, 0, 1;
    QVERIFY((T - expected).norm() < 1e-15);
    QVERIFY((Eigen::MatrixXd(G) * T).norm() < 1e-15);
    // only coordinate 3 may go, and the constraint does not name it
    QCOMPARE(eliminate(G.topRows(1), {0}, {0, 0, 0, 1}, e), 0);
  }

  /// No *DENSITY: the assembly says so; AssemblyOptions::override_density supplies it (E and nu
  /// stay the deck's) and gives the clean deck's frequencies.
  void densityOverride() {
    Diagnostics diag, clean;
    const FeModel m = load("no_density.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    AssembledMatrices mats;
    Diagnostics d2;
    QVERIFY(!assemble(m, {}, mats, d2));
    QVERIFY2(has(d2, Severity::Error, "density rho = 0 must be > 0 (the material has no *DENSITY)"), d2.str().c_str());
    AssemblyOptions o;
    o.override_density = 7850;
    const std::vector<double> f = elasticHz(m, 4, diag, o), ref = elasticHz(load("beam_clean.inp", clean), 4, clean);
    QVERIFY2(largestDifference(f, ref, 4) < 1e-12, diag.str().c_str());
    // it overrides a density the deck has, and that of --material
    o.override_density = 4 * 7850;
    const std::vector<double> half = elasticHz(load("beam_clean.inp", clean), 4, clean, o);
    QVERIFY(largestDifference(half, {ref[0] / 2, ref[1] / 2, ref[2] / 2, ref[3] / 2}, 4) < 1e-9);
    const Material steel{"steel", 2.1e11, 0.3, 1.0, true, true};
    o.override_material = &steel;
    QVERIFY(largestDifference(elasticHz(m, 4, diag, o), half, 4) < 1e-9);
  }

  /// Faces of quadratic elements include their mid-side nodes, in the Abaqus face numbering.
  void faceNodesOfElements() {
    Element tet;
    tet.type = ElementType::Tet10;
    for (int i = 0; i < 10; ++i) tet.nodes[static_cast<std::size_t>(i)] = 100 + i;
    QCOMPARE(faceNodes(tet, 1), (std::vector<int>{100, 101, 102, 104, 105, 106}));  // S1 1-2-3
    QCOMPARE(faceNodes(tet, 3), (std::vector<int>{101, 103, 102, 108, 109, 105}));  // S3 2-4-3
    QVERIFY(faceNodes(tet, 5).empty() && faceNodes(tet, 0).empty());
    Element hex;
    hex.type = ElementType::Hex20R;
    for (int i = 0; i < 20; ++i) hex.nodes[static_cast<std::size_t>(i)] = i;
    QCOMPARE(faceNodes(hex, 4), (std::vector<int>{1, 5, 6, 2, 17, 13, 18, 9}));  // S4 2-6-7-3
    hex.type = ElementType::Hex8;
    QCOMPARE(faceNodes(hex, 2), (std::vector<int>{4, 7, 6, 5}));  // S2 5-8-7-6
  }

  /// *RIGID BODY (node set) and *COUPLING + *KINEMATIC (element faces, the *SURFACE after the
  /// coupling) become rigid couplings of the face's 21 nodes around reference node 10001.
  void couplingsAreRead() {
    for (const char* deck : {"rigid_body_free.inp", "coupling_kinematic_free.inp"}) {
      Diagnostics diag;
      const FeModel m = load(deck, diag);
      QVERIFY2(!diag.hasErrors(), diag.str().c_str());
      QCOMPARE(m.couplings.size(), size_t(1));
      const Coupling& c = m.couplings[0];
      QCOMPARE(QString::fromStdString(c.name), QString(deck[0] == 'r' ? "RIGID BODY TIPFACE" : "TIPC"));
      QVERIFY(c.rigid);
      QCOMPARE(m.node_ids[static_cast<std::size_t>(c.reference_node)], 10001);
      QCOMPARE(c.nodes.size(), size_t(21));
      QCOMPARE(ids(m, c.nodes), ids(m, m.node_sets.at("TIPFACE")));
      QVERIFY2(c.where.find(std::string(deck) + ":") != std::string::npos, c.where.c_str());
      QVERIFY(m.model_changes.empty());
      QVERIFY(has(diag, Severity::Info, "a Craig-Bampton interface when named as one"));
    }
  }

  /// A coupling as the interface (by name and by reference node id) reduces exactly like the
  /// node set of its nodes: same fixed-interface frequencies and reduced spectrum. (Without the
  /// point mass: on the node-set interface the reference node is not part of the body's motion.)
  void rigidCouplingEqualsNodeSetInterface() {
    for (const char* deck : {"rigid_body_free.inp", "coupling_kinematic_free.inp"}) {
      Diagnostics diag;
      FeModel m = load(deck, diag);
      m.masses.clear();
      const std::string name = m.couplings.at(0).name;
      sameReduction(m, {name, std::nullopt}, {"TIPFACE", Interface::Kind::Rigid}, deck);
      sameReduction(m, {"10001", std::nullopt}, {"TIPFACE", Interface::Kind::Rigid}, deck);
    }
  }

  /// The MASS on the reference node moves with the coupling interface: it is in the reduced body
  /// (total mass and the rigid translation of the reduced mass matrix = beam + point mass).
  void pointMassOnTheReferenceNode() {
    Diagnostics diag;
    const FeModel m = load("rigid_body_free.inp", diag);
    ReducedBody body;
    ReductionReport rep;
    QVERIFY2(craigBampton(m, {"RIGID BODY TIPFACE", std::nullopt}, body, rep, diag), diag.str().c_str());
    const double total = kBeamMass + kPointMass;
    qInfo("reduced body: I1 = %.12g kg, M̄ of the interface x translation %.12g kg (beam + point mass %.12g kg)",
          body.invariants.I1, body.invariants.Mbar(0, 0), total);
    QVERIFY(std::abs(body.invariants.I1 / total - 1) < 1e-9);
    QVERIFY(std::abs(body.invariants.Mbar(0, 0) / total - 1) < 1e-9);
    QCOMPARE(QString::fromStdString(body.interfaces.at(0).name), QString("RIGID BODY TIPFACE"));
    QVERIFY((body.interfaces[0].reference - Eigen::Vector3d(0.31, 0, 0)).norm() < 1e-15);
    // used as the interface it is not also applied as constraints; free-free applies it
    QVERIFY(!has(diag, Severity::Info, "not an interface, so applied"));
    ReductionOptions freeFree;
    freeFree.modes = 2;
    QVERIFY2(reduce(m, freeFree, body, rep, diag), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Info, "coupling RIGID BODY TIPFACE: info: not an interface, so applied as the deck "
                                       "defines it"),
             diag.str().c_str());
  }

  /// A coupling that is not an interface is applied as ccx applies it: the free-free modes of the
  /// deck with its *RIGID BODY (or *KINEMATIC coupling) and the point mass on the reference node
  /// equal ccx's run of the same deck (with ccx's C3D20 mass rule, to the printed digits); the
  /// tip face and the reference node move as one rigid body in every mode.
  void couplingNotAnInterfaceIsApplied() {
    for (const char* deck : {"rigid_body_free", "coupling_kinematic_free"}) {
      Diagnostics diag;
      const FeModel m = load(std::string(deck) + ".inp", diag);
      std::vector<double> ccx;
      QVERIFY(io::readCalculixDat(kDir + deck + ".dat", ccx, diag));
      std::optional<FeModel> applied = withCouplingsApplied(m, {}, diag);
      QVERIFY2(applied.has_value(), diag.str().c_str());
      AssemblyOptions aopt;
      aopt.ccx_mass_rule = true;
      const std::vector<double> f = elasticHz(*applied, 6, diag, aopt);
      const double worst = largestDifference(f, std::vector<double>(ccx.begin() + 6, ccx.end()), 6);
      qInfo("%s: free-free with the coupling applied %.7g %.7g %.7g Hz, ccx %.7g %.7g %.7g Hz; largest difference %.1e",
            deck, f[0], f[2], f[4], ccx[6], ccx[8], ccx[10], worst);
      QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
      // without it the point mass would be left out of the modes: other frequencies
      QVERIFY(largestDifference(elasticHz(m, 6, diag, aopt), f, 6) > 1e-3);
      // every mode moves the face and the reference node rigidly: the constraints hold
      AssembledMatrices mats;
      QVERIFY(assemble(*applied, aopt, mats, diag));
      ModalOptions o;
      o.elastic_modes = 4;
      ModalResult r;
      QVERIFY(freeModesOfMesh(*applied, mats.K, mats.M, o, r, diag));
      std::vector<int> first;
      QVERIFY((constraintRows(*applied, first) * r.modes).cwiseAbs().maxCoeff() < 1e-10 * r.modes.cwiseAbs().maxCoeff());
    }
  }

  /// A rotary inertia on the reference node cannot enter the body (solid nodes have no
  /// rotations): the reduction says so instead of leaving it out silently.
  void rotaryInertiaOnTheReferenceNodeIsAWarning() {
    Diagnostics diag;
    FeModel m = load("rigid_body_free.inp", diag);
    ReducedBody body;
    ReductionReport rep;
    QVERIFY(craigBampton(m, {"RIGID BODY TIPFACE", std::nullopt}, body, rep, diag));
    QVERIFY2(diag.str().find("is not in the reduced body") == std::string::npos, diag.str().c_str());
    m.rotary_inertias.push_back({"ROTARYI 99", m.couplings.at(0).reference_node, Eigen::Matrix3d::Identity() * 1e-4});
    Diagnostics d2;
    QVERIFY(craigBampton(m, {"RIGID BODY TIPFACE", std::nullopt}, body, rep, d2));
    QVERIFY2(d2.str().find("ROTARYI 99 on the reference node is not in the reduced body") != std::string::npos,
             d2.str().c_str());
  }

  /// Independent reference: the free-free frequencies of the reduced body (K̄, M̄ of the
  /// Craig-Bampton basis with the coupling interface) against ccx's free-free run of the same deck
  /// (ccx applies *RIGID BODY / *KINEMATIC as MPCs).
  void reducedBodyAgainstCcx() {
    for (const char* deck : {"rigid_body_free", "coupling_kinematic_free"}) {
      Diagnostics diag;
      const FeModel m = load(std::string(deck) + ".inp", diag);
      std::vector<double> ccx;
      QVERIFY(io::readCalculixDat(kDir + deck + ".dat", ccx, diag));
      QCOMPARE(ccx.size(), size_t(12));
      ReducedBody body;
      ReductionReport rep;
      QVERIFY2(craigBampton(m, {m.couplings.at(0).name, std::nullopt}, body, rep, diag), diag.str().c_str());
      for (const bool ccxMassRule : {false, true}) {
        AssemblyOptions aopt;
        aopt.ccx_mass_rule = ccxMassRule;
        AssembledMatrices mats;
        QVERIFY(assemble(m, aopt, mats, diag));
        const Eigen::MatrixXd& X = body.modes;
        const Eigen::VectorXd lambda = spectrum(X.transpose() * (mats.K * X), X.transpose() * (mats.M * X));
        QCOMPARE(lambda.size(), Eigen::Index(26));
        std::vector<double> f;
        for (int i = 6; i < 10; ++i) f.push_back(std::sqrt(lambda(i)) / (2 * std::numbers::pi));
        const double worst = largestDifference(f, {ccx[6], ccx[7], ccx[8], ccx[9]}, 4);
        qInfo("%s (%s mass): reduced body free-free %.7g %.7g %.7g %.7g Hz, ccx %.7g %.7g %.7g %.7g Hz; largest "
              "difference %.1e; rigid eigenvalues up to %.1e",
              deck, ccxMassRule ? "ccx's" : "exact", f[0], f[1], f[2], f[3], ccx[6], ccx[7], ccx[8], ccx[9], worst,
              lambda.head(6).cwiseAbs().maxCoeff());
        QVERIFY2(worst < 1e-3, qPrintable(QString::number(worst)));
        QVERIFY(lambda.head(6).cwiseAbs().maxCoeff() < 1e-6 * lambda(6));
      }
    }
  }

  /// *DISTRIBUTING couplings are averaging interfaces: on element faces (TIPD) and on a node
  /// surface (TIPDN) they equal the averaging node-set interface of the same nodes (same weights:
  /// the nodes' tributary areas on the outer surface).
  void distributingCouplingEqualsAveragingNodeSet() {
    Diagnostics diag;
    const FeModel m = load("coupling_distributing.inp", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QCOMPARE(m.couplings.size(), size_t(2));
    for (const Coupling& c : m.couplings) {
      QVERIFY(!c.rigid);
      QVERIFY(c.weights.empty());
      QCOMPARE(ids(m, c.nodes), ids(m, m.node_sets.at("TIPFACE")));
      sameReduction(m, {c.name, std::nullopt}, {"TIPFACE", Interface::Kind::Averaging}, "coupling_distributing.inp");
    }
    // a rigid coupling can be reduced as averaging and vice versa
    sameReduction(m, {"TIPD", Interface::Kind::Rigid}, {"TIPFACE", Interface::Kind::Rigid}, "coupling_distributing.inp");
  }

  /// ccx removes blanks from keyword lines: *SOLIDSECTION is *SOLID SECTION, REFNODE is REF NODE.
  void blanksDoNotCount() {
    const std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n5, 2, 2, 2\n"
                             "*ELEMENT, TYPE=C3D4, ELSET=E\n1, 1, 2, 3, 4\n*MATERIAL, NAME=A\n*ELASTIC\n1e9, 0.3\n"
                             "*DENS ITY\n1000\n*SOLIDSECTION, ELSET=E, MATERIAL=A\n*NSET, NSET=S\n2, 3\n"
                             "*RIGIDBODY, NSET=S, REFNODE=5\n*COUPLING, CONSTRAINTNAME=C, REF NODE=5, SURFACE=F\n"
                             "*KINE MATIC\n*SURFACE, NAME=F\nE, S1\n";
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInpFromString(deck, "b.inp", m, diag), diag.str().c_str());
    QCOMPARE(m.elements.at(0).material, 0);
    QCOMPARE(m.materials.at(0).rho, 1000.0);
    QCOMPARE(m.couplings.size(), size_t(2));
    QCOMPARE(QString::fromStdString(m.couplings[0].name), QString("RIGID BODY S"));
    QCOMPARE(ids(m, m.couplings[1].nodes), (std::set<int>{1, 2, 3}));
    QVERIFY(m.couplings[1].rigid);
  }

  /// REF NODE= and ROT NODE= may name a node set of one node instead of a node number, as ccx allows.
  void referenceNodeBySetName() {
    const std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n5, 2, 2, 2\n6, 3, 3, 3\n"
                             "*ELEMENT, TYPE=C3D4, ELSET=E\n1, 1, 2, 3, 4\n*NSET, NSET=S\n2, 3\n*NSET, NSET=REF\n5\n"
                             "*NSET, NSET=ROT\n6\n*RIGID BODY, NSET=S, REF NODE=ref, ROT NODE=ROT\n";
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInpFromString(deck, "r.inp", m, diag), diag.str().c_str());
    QCOMPARE(m.couplings.size(), size_t(1));
    QCOMPARE(m.node_ids.at(std::size_t(m.couplings[0].reference_node)), 5);
    QCOMPARE(ids(m, m.couplings[0].nodes), (std::set<int>{2, 3}));
  }

  /// ccx gives a material card that does not follow its *MATERIAL to the material defined last.
  void materialCardAfterOtherKeywords() {
    const std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n*ELEMENT, TYPE=C3D4, ELSET=E\n"
                             "1, 1, 2, 3, 4\n*MATERIAL, NAME=A\n*ELASTIC\n1e9, 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=A\n"
                             "*DENSITY\n1000\n";
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInpFromString(deck, "m.inp", m, diag), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Warning, "m.inp:12: warning: *DENSITY does not follow its *MATERIAL directly: it belongs "
                                          "to the material defined last, A (m.inp:8), as in ccx"),
             diag.str().c_str());
    QCOMPARE(m.materials.at(0).rho, 1000.0);
  }

  /// Errors name the file, line and keyword; nothing crashes.
  void couplingErrors() {
    const std::string mesh = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n5, 2, 2, 2\n"
                             "*ELEMENT, TYPE=C3D4, ELSET=E\n1, 1, 2, 3, 4\n";
    const struct {
      const char* deck;
      const char* message;
    } cases[] = {
        {"*RIGID BODY, NSET=NOPE, REF NODE=5\n", "c.inp:9: error: *RIGID BODY RIGID BODY NOPE: node set NOPE is not defined"},
        {"*NSET, NSET=S\n1, 2\n*RIGID BODY, NSET=S, REF NODE=9\n", "c.inp:11: error: *RIGID BODY RIGID BODY S: REF NODE 9 is not defined"},
        {"*RIGID BODY, REF NODE=5\n", "c.inp:9: error: *RIGID BODY needs NSET=<set> or ELSET=<set>"},
        {"*COUPLING, REF NODE=5, SURFACE=S\n*KINEMATIC\n", "c.inp:9: error: *COUPLING needs CONSTRAINT NAME=<name>"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n*KINEMATIC\n", "c.inp:9: error: *COUPLING C: surface S is not defined"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n*KINEMATIC\n*SURFACE, NAME=S\nE, S7\n",
         "c.inp:12: error: *SURFACE S: face 'S7' is not one of S1 ... S6"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n*KINEMATIC\n*SURFACE, NAME=S\nE, S5\n",
         "c.inp:12: error: *SURFACE S: element 1 (C3D4) has no face S5"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n*KINEMATIC\n*SURFACE, NAME=S\n7, S1\n",
         "c.inp:12: error: *SURFACE S: element 7 is not defined"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n*KINEMATIC\n9, 1\n", "c.inp:11: error: *KINEMATIC: degree of freedom '9' must be 1 ... 6"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=1x, SURFACE=S\n", "c.inp:9: error: *COUPLING, REF NODE=: '1x' is not"},
        {"*COUPLING, CONSTRAINT NAME=C, REF NODE=x, SURFACE=S\n*KINEMATIC\n*SURFACE, NAME=S\nE, S1\n",
         "c.inp:9: error: *COUPLING C: REF NODE=X is neither a node number nor a defined node set"},
        {"*NSET, NSET=TWO\n4, 5\n*NSET, NSET=S\n1, 2\n*RIGID BODY, NSET=S, REF NODE=TWO\n",
         "c.inp:13: error: *RIGID BODY RIGID BODY S: REF NODE=TWO names a node set of 2 nodes; it must hold exactly one"},
    };
    for (const auto& c : cases) {
      fe::FeModel m;
      Diagnostics diag;
      io::InpOptions opt;
      opt.follow_includes = false;
      QVERIFY2(!io::readCalculixInpFromString(mesh + c.deck, "c.inp", m, diag, opt), c.deck);
      QVERIFY2(has(diag, Severity::Error, c.message), qPrintable(QString(c.message) + "\n" + diag.str().c_str()));
    }
    // a *COUPLING without *KINEMATIC / *DISTRIBUTING defines nothing; *RIGID BODY without REF
    // NODE is not applied (a model change)
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY(io::readCalculixInpFromString(mesh + "*NSET, NSET=S\n1\n*COUPLING, CONSTRAINT NAME=C, REF NODE=5, SURFACE=S\n"
                                                 "*STEP\n*RIGID BODY, NSET=S\n",
                                          "c.inp", m, diag));
    QVERIFY2(has(diag, Severity::Warning, "c.inp:11: warning: *COUPLING C: no *KINEMATIC or *DISTRIBUTING follows; skipped"),
             diag.str().c_str());
    QVERIFY(has(diag, Severity::Warning, "c.inp:13: warning: *RIGID BODY, NSET=S has no REF NODE"));
    QVERIFY(m.couplings.empty());
    QCOMPARE(m.model_changes, std::vector<std::string>{"*RIGID BODY without REF NODE not applied"});
  }
};

QTEST_GUILESS_MAIN(CalculixCouplingsTest)
#include "calculix_couplings_test.moc"
