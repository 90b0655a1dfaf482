// Modal reduction on the real fixtures (tests/data/fe, made with gmsh + CalculiX):
// free-free and clamped beam frequencies against Euler-Bernoulli and ccx's own tables, mass
// properties against ccx, rigid-mode count and mass-orthonormality, and the Craig-Bampton
// static constraint modes reproducing the exact static deflection under interface loads.
#include "core/base/rotation.h"
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/blas_threads.h"
#include "core/fe/block_lanczos.h"
#include "core/fe/cholesky_factor.h"
#include "core/fe/inertia.h"
#include "core/fe/modal.h"
#include "core/fe/reduction.h"
#include "core/fe/sparse_block.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/validation_report.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/import.h"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/CholmodSupport>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>
#include <thread>

using namespace flexim;
using namespace flexim::fe;

namespace {

const std::string kData = FLEXIM_SOURCE_DIR "/tests/data/fe/";
constexpr double kE = 2.1e11, kRho = 7850, kPi = std::numbers::pi;

FeModel load(const std::string& file) {
  FeModel m;
  Diagnostics diag;
  if (!io::importFe(kData + file, m, diag)) qFatal("cannot import %s: %s", file.c_str(), diag.str().c_str());
  return m;
}

AssembledMatrices assembled(const FeModel& m) {
  AssembledMatrices a;
  Diagnostics diag;
  if (!assemble(m, {}, a, diag)) qFatal("assembly failed: %s", diag.str().c_str());
  return a;
}

std::vector<double> ccxFrequencies(const std::string& dat) {
  std::vector<double> f;
  Diagnostics diag;
  if (!io::readCalculixDat(kData + dat, f, diag)) qFatal("cannot read %s", dat.c_str());
  return f;
}

/// The free beam with an axial spring (askew) from its node 1 to a node of no element, which
/// carries no mass: a deck written into `dir`, imported.
FeModel beamWithASpringToAMasslessNode(const QTemporaryDir& dir) {
  const QString deck = dir.filePath("spring.inp");
  QFile f(deck);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(deck));
  f.write(("*INCLUDE, INPUT=" + kData + "beam/mesh_ccx.inp\n"
           "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.1e11, 0.3\n*DENSITY\n7850\n*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL\n"
           "*NODE\n900001, 0.4, 0.02, 0.01\n*ELEMENT, TYPE=SPRINGA, ELSET=SP\n900001, 1, 900001\n"
           "*SPRING, ELSET=SP\n\n1e6\n")
              .c_str());
  f.close();
  FeModel m;
  Diagnostics diag;
  if (!io::importFe(deck.toStdString(), m, diag)) qFatal("cannot import the spring deck: %s", diag.str().c_str());
  return m;
}

/// Two copies of a mesh side by side (the second 0.05 m along y) that nothing connects.
FeModel twoCopies(const FeModel& one) {
  FeModel two = one;
  const int n = one.nodeCount();
  for (int k = 0; k < n; ++k) two.addNode(one.node_ids[std::size_t(k)] + 1000000, one.coords[std::size_t(k)] + Eigen::Vector3d(0, 0.05, 0));
  for (Element e : one.elements) {
    for (int& node : e.nodes) node += n;
    two.elements.push_back(e);
  }
  return two;
}

/// Euler-Bernoulli bending frequency of a square a x a beam of length L for a root beta L.
double eulerBernoulli(double betaL, double L, double a) {
  const double I = a * a * a * a / 12, A = a * a;
  return betaL * betaL / (2 * kPi) * std::sqrt(kE * I / (kRho * A * std::pow(L, 4)));
}

}  // namespace

class ReductionTest : public QObject {
  Q_OBJECT
 private slots:
  void freeFreeBeam() {
    const FeModel mesh = load("beam/beam_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ModalOptions opt;
    opt.elastic_modes = 14;
    ModalResult modes;
    Diagnostics diag;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, modes, diag), diag.str().c_str());
    QCOMPARE(modes.rigid_count, 6);
    for (int j = 0; j < 6; ++j) QVERIFY(modes.rigid[j]);
    const auto f = modes.frequenciesHz();
    // first bending pair against Euler-Bernoulli (free-free beta L = 4.7300)
    const double fEB = eulerBernoulli(4.730040745, 0.3, 0.01);
    qInfo("first bending %.4f Hz, Euler-Bernoulli %.4f Hz (%.2f %%)", f[6], fEB, 100 * (f[6] / fEB - 1));
    QVERIFY(std::abs(f[6] / fEB - 1) < 0.01);
    // against CalculiX on the same mesh, every elastic mode of its table
    const auto ccx = ccxFrequencies("beam/beam_free.dat");
    double worst = 0;
    for (size_t j = 6; j < std::min(f.size(), ccx.size()); ++j) worst = std::max(worst, std::abs(f[j] / ccx[j] - 1));
    qInfo("largest difference to ccx over %zu elastic modes: %.2e", std::min(f.size(), ccx.size()) - 6, worst);
    QVERIFY(worst < 1e-3);
    // mass-orthonormal basis, exact rigid modes included
    const Eigen::MatrixXd G = modes.modes.transpose() * (mats.M * modes.modes);
    QVERIFY((G - Eigen::MatrixXd::Identity(G.rows(), G.cols())).cwiseAbs().maxCoeff() < 1e-8);
    QVERIFY(modes.max_residual < 1e-6);
  }

  /// A spring from the beam to a node that carries no mass (an axial spring, askew): the free end
  /// is condensed statically and adds nothing, so the beam keeps its frequencies; in every mode
  /// the free end follows the beam's node along the spring's axis.
  void springToAMasslessEndIsCondensed() {
    QTemporaryDir dir;
    const FeModel withSpring = beamWithASpringToAMasslessNode(dir);
    Diagnostics diag;
    const FeModel beam = load("beam/beam_free.inp");
    ModalOptions opt;
    opt.elastic_modes = 4;
    ModalResult plain, sprung;
    const AssembledMatrices a = assembled(beam), b = assembled(withSpring);
    QVERIFY2(freeModesOfActive(a.K, a.M, beam.coords, opt, activeDofs(a.K, a.M, beam.nodeCount()), plain, diag), diag.str().c_str());
    QVERIFY2(freeModesOfActive(b.K, b.M, withSpring.coords, opt, activeDofs(b.K, b.M, withSpring.nodeCount()), sprung, diag),
             diag.str().c_str());
    QCOMPARE(sprung.condensed, 3);
    QVERIFY2(diag.str().find("3 degrees of freedom with stiffness but no mass") != std::string::npos, diag.str().c_str());
    for (int j = 6; j < 10; ++j) QVERIFY(std::abs(sprung.eigenvalues(j) / plain.eigenvalues(j) - 1) < 1e-8);
    const int end = withSpring.indexOf(900001), one = withSpring.indexOf(1);
    const Eigen::Vector3d axis = (withSpring.coords[std::size_t(end)] - withSpring.coords[std::size_t(one)]).normalized();
    for (int j = 0; j < 10; ++j) {
      const Eigen::Vector3d u1 = sprung.modes.block<3, 1>(3 * one, j), ue = sprung.modes.block<3, 1>(3 * end, j);
      QVERIFY2((ue - axis * axis.dot(u1)).norm() <= 1e-9 * std::max(u1.norm(), 1e-12), qPrintable(QString::number(j)));
    }
  }

  /// The square beam's bending modes come in pairs: asked for one elastic mode, the spare above it
  /// is its twin and leaves no gap for the Sturm count. More modes are computed with the same
  /// shift and factor (one factorisation in all), and the mode is the full solution's first.
  void pairAtTheTopKeepsTheFactor() {
    const FeModel mesh = load("beam/beam_hex_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ModalOptions opt;
    opt.elastic_modes = 1;
    ModalResult one, many;
    Diagnostics diag;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, one, diag), diag.str().c_str());
    QVERIFY2(diag.str().find("computing more modes with the same shift: no gap above the highest mode") != std::string::npos,
             diag.str().c_str());
    QCOMPARE(one.attempts, 2);
    QCOMPARE(one.factorisations, 1);
    QCOMPARE(int(one.eigenvalues.size()), 7);
    opt.elastic_modes = 6;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, many, diag), diag.str().c_str());
    QVERIFY(std::abs(one.eigenvalues(6) / many.eigenvalues(6) - 1) < 1e-10);
  }

  /// Two copies of the free beam side by side that nothing connects: 12 rigid-body modes (six per
  /// part, exact), then the elastic modes asked for, each of the single beam's twice; the mesh
  /// report names both parts.
  void twoPartsThatNothingConnects() {
    const FeModel one = load("beam/beam_free.inp");
    const FeModel two = twoCopies(one);
    const int n = one.nodeCount();
    ModalOptions opt;
    opt.elastic_modes = 6;
    ModalResult single, both;
    Diagnostics diag;
    QVERIFY2(freeModes(assembled(one).K, assembled(one).M, one.coords, opt, single, diag), diag.str().c_str());
    const AssembledMatrices mats = assembled(two);
    QVERIFY2(freeModes(mats.K, mats.M, two.coords, opt, both, diag), diag.str().c_str());
    QCOMPARE(both.parts, 2);
    QCOMPARE(both.rigid_count, 12);
    QCOMPARE(int(both.eigenvalues.size()), 12 + 6);
    for (int j = 0; j < 12; ++j) QVERIFY(both.rigid[std::size_t(j)] && both.eigenvalues(j) == 0);
    // the elastic modes: the single beam's first three, twice each
    const auto f1 = single.frequenciesHz(), f2 = both.frequenciesHz();
    for (int j = 0; j < 6; ++j) {
      const double expected = f1[std::size_t(6 + j / 2)];
      QVERIFY2(std::abs(f2[std::size_t(12 + j)] / expected - 1) < 1e-8, qPrintable(QString("%1 %2").arg(f2[12 + j]).arg(expected)));
    }
    const Eigen::MatrixXd G = both.modes.transpose() * (mats.M * both.modes);
    QVERIFY((G - Eigen::MatrixXd::Identity(G.rows(), G.cols())).cwiseAbs().maxCoeff() < 1e-8);
    // the rigid modes are rigid: no strain energy
    QVERIFY((mats.K * both.modes.leftCols(12)).norm() < 1e-6 * mats.K.norm());
    QVERIFY2(diag.str().find("the mesh is in 2 parts that nothing connects: 12 rigid-body modes") != std::string::npos,
             diag.str().c_str());
    ValidationReport report;
    reportMesh(two, report);
    QVERIFY2(report.str().find("mesh has 2 disconnected parts (" + std::to_string(n) + " nodes from node 1, ") !=
                 std::string::npos,
             report.str().c_str());
  }

  /// The same cyclic sector in SI and in mm/tonne/s (E in MPa, rho in tonne/mm^3,
  /// total mass ~1e-4 t) gives the same frequencies to 1e-8, every mode passes its residual
  /// check, and the Sturm count proves none is missing; both agree with ccx.
  void unitSystemDoesNotMatter() {
    std::vector<ModalResult> r(2);
    const char* decks[] = {"sector/sector_free.inp", "sector/sector_mm_free.inp"};
    for (int k = 0; k < 2; ++k) {
      const FeModel mesh = load(decks[k]);
      const AssembledMatrices mats = assembled(mesh);
      ModalOptions opt;
      opt.elastic_modes = 12;
      Diagnostics diag;
      QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, r[k], diag), diag.str().c_str());
      QCOMPARE(r[k].eigenvalues.size(), Eigen::Index(18));
      QCOMPARE(r[k].rigid_count, 6);
      QVERIFY2(r[k].max_residual <= opt.residual_tolerance, qPrintable(QString::number(r[k].max_residual)));
      // every mode below the check shift was returned, and the shift lies above the returned ones
      QCOMPARE(r[k].sturm_count, 18);
      QVERIFY(r[k].sturm_shift > r[k].eigenvalues(17));
      QCOMPARE(r[k].attempts, 1);
    }
    const auto fsi = r[0].frequenciesHz(), fmm = r[1].frequenciesHz();
    const auto ccx = ccxFrequencies("sector/sector_free.dat"), ccxmm = ccxFrequencies("sector/sector_mm_free.dat");
    double units = 0, toCcx = 0;
    for (int j = 6; j < 18; ++j) {
      units = std::max(units, std::abs(fmm[j] / fsi[j] - 1));
      toCcx = std::max({toCcx, std::abs(fsi[j] / ccx[j] - 1), std::abs(fmm[j] / ccxmm[j] - 1)});
    }
    qInfo("SI vs mm/tonne/s: %.2e; vs ccx: %.2e; first elastic %.6g Hz", units, toCcx, fsi[6]);
    QVERIFY2(units <= 1e-8, qPrintable(QString::number(units)));
    // ours are 0.01-0.12 % below ccx here (6.5e-5 on the straight beam): the element edges
    // follow the arcs, and the two codes integrate curved C3D10 mass and stiffness differently
    QVERIFY2(toCcx <= 2e-3, qPrintable(QString::number(toCcx)));
  }

  /// The Sturm count's inertia (MUMPS LDL^T) against a dense eigen solution: random sparse
  /// symmetric matrices that need 2x2 pivots (zero diagonals), and the beam's K - s M at shifts
  /// between its eigenvalues, where the count is the number of eigenvalues below s.
  void inertiaMatchesDenseEigenvalues() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    int compared = 0;
    for (int trial = 0; trial < 20; ++trial) {
      const int n = 5 + 7 * trial;
      std::vector<Eigen::Triplet<double>> t;
      for (int i = 0; i < n; ++i) {
        if (trial % 2 == 0 || i % 3) t.emplace_back(i, i, u(rng));  // odd trials: zero diagonals
        for (int k = 0; k < 3; ++k) {
          const int j = std::uniform_int_distribution<int>(0, n - 1)(rng);
          if (j == i) continue;
          const double v = u(rng);
          t.emplace_back(i, j, v);
          t.emplace_back(j, i, v);
        }
      }
      Eigen::SparseMatrix<double> A(n, n);
      A.setFromTriplets(t.begin(), t.end());
      const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(A)).eigenvalues();
      if ((ev.array().abs() < 1e-8).any()) continue;  // singular: no inertia to compare
      const InertiaResult r = negativeEigenvalueCount(A);
      QVERIFY2(r.error.empty(), r.error.c_str());
      QCOMPARE(r.negative, static_cast<long>((ev.array() < 0).count()));
      // an elimination order given from outside (as the shift-invert factorisation's) counts the same
      std::vector<int> order(static_cast<std::size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      const InertiaResult given = negativeEigenvalueCount(A, &order);
      QVERIFY2(given.error.empty(), given.error.c_str());
      QCOMPARE(given.negative, r.negative);
      ++compared;
    }
    QVERIFY(compared >= 15);
    // the FE pencil: between consecutive eigenvalues the count steps by one per mode
    const FeModel mesh = load("beam/beam_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ModalOptions opt;
    opt.elastic_modes = 10;
    ModalResult modes;
    Diagnostics diag;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, modes, diag), diag.str().c_str());
    const Eigen::VectorXd& lambda = modes.eigenvalues;
    for (Eigen::Index j = 6; j + 1 < lambda.size(); ++j) {
      if (lambda(j + 1) - lambda(j) < 1e-6 * lambda(j + 1)) continue;  // a double eigenvalue: no gap
      const double s = 0.5 * (lambda(j) + lambda(j + 1));
      const InertiaResult r = negativeEigenvalueCount(Eigen::SparseMatrix<double>(mats.K - s * mats.M));
      QVERIFY2(r.error.empty(), r.error.c_str());
      QCOMPARE(r.negative, static_cast<long>(j + 1));
      ++compared;
    }
    QVERIFY(compared >= 20);
  }

  /// The block Lanczos against the closed form of a fixed-fixed chain of n equal masses and
  /// springs, lambda_j = 4 k/m sin^2(j pi / (2 (n + 1))): two chains that nothing joins, so every
  /// eigenvalue is double, and the lowest mode of the first chain deflated. The pairs come out
  /// whole, to 1e-10, with M-orthonormal vectors of small residual; a basis too small to converge
  /// in says so instead of returning unconverged pairs.
  void blockLanczosFindsAChainsModesInClosedForm() {
    const int n = 1500;  // per chain
    const double k = 3.0, m = 2.0;
    std::vector<Eigen::Triplet<double>> tk, tm;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < n; ++i) {
        const int r = c * n + i;
        tk.emplace_back(r, r, 2 * k);
        if (i + 1 < n) {
          tk.emplace_back(r, r + 1, -k);
          tk.emplace_back(r + 1, r, -k);
        }
        tm.emplace_back(r, r, m);
      }
    Eigen::SparseMatrix<double> K(2 * n, 2 * n), M(2 * n, 2 * n);
    K.setFromTriplets(tk.begin(), tk.end());
    M.setFromTriplets(tm.begin(), tm.end());
    const auto lambda = [&](int j) { return 4 * k / m * std::pow(std::sin(j * kPi / (2 * (n + 1))), 2); };
    // the first chain's lowest mode, M-normalised: sin(j pi i / (n + 1))
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(2 * n, 1);
    for (int i = 0; i < n; ++i) D(i, 0) = std::sin(kPi * (i + 1) / (n + 1));
    D /= std::sqrt(D.col(0).dot(M * D.col(0)));
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> S(K);  // sigma = 0: the chains are held
    QVERIFY(S.info() == Eigen::Success);
    const BlockSolve solve = [&](const Eigen::MatrixXd& in, Eigen::MatrixXd& out) {
      out = S.solve(in);
      out -= D * ((M * D).transpose() * out);
    };
    const int wanted = 9;  // lambda_1 once (the other chain's), then lambda_2 .. lambda_5 twice
    const BlockLanczosResult r = blockLanczos(solve, M, wanted, BlockLanczosOptions{}, &D);
    QVERIFY2(r.converged, r.why.c_str());
    const double expected[] = {lambda(1), lambda(2), lambda(2), lambda(3), lambda(3),
                               lambda(4), lambda(4), lambda(5), lambda(5)};
    for (int w = 0; w < wanted; ++w) {
      const double found = 1 / r.theta(w);
      QVERIFY2(std::abs(found / expected[w] - 1) < 1e-10, qPrintable(QString("pair %1: %2 against %3").arg(w).arg(found).arg(expected[w])));
      const Eigen::VectorXd x = r.vectors.col(w);
      QVERIFY((K * x - found * (M * x)).norm() <= 1e-6 * (K * x).norm());
      QVERIFY(std::abs(D.col(0).dot(M * x)) < 1e-10);  // nothing of the deflated mode
    }
    const Eigen::MatrixXd G = r.vectors.transpose() * (M * r.vectors);
    QVERIFY((G - Eigen::MatrixXd::Identity(wanted, wanted)).cwiseAbs().maxCoeff() < 1e-10);
    qInfo("%d pairs in a basis of %d vectors, %d block solves", wanted, r.dimension, r.block_solves);
    BlockLanczosOptions small;
    small.max_dimension = 16;
    const BlockLanczosResult cut = blockLanczos(solve, M, wanted, small, &D);
    QVERIFY(!cut.converged);
    QVERIFY2(cut.why.find("had not converged in a basis of 16 vectors") != std::string::npos, cut.why.c_str());
  }

  /// The block Lanczos (the default) and the restarted single-vector Lanczos (Spectra) give the
  /// same modes of the free beam, and both pass the checks.
  // The factorisation that makes the permuted matrix itself and hands it to CHOLMOD as if in
  // its natural order: the same solution as a plain sparse LDL^T, on a matrix whose fill-reducing
  // order is far from the identity (a 2-D grid's Laplacian numbered at random, shifted to be
  // definite), for both of CHOLMOD's ordering paths (AMD below kMetisDirectly rows); and a matrix
  // that is not positive definite is reported, not factorised.
  void choleskyFactorOfThePermutedLowerTriangle() {
    const int side = 60, n = side * side;
    std::vector<int> number(n);
    std::iota(number.begin(), number.end(), 0);
    std::shuffle(number.begin(), number.end(), std::mt19937(7));
    std::vector<Eigen::Triplet<double>> t;
    const auto at = [&](int i, int j) { return number[std::size_t(i * side + j)]; };
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) {
        t.emplace_back(at(i, j), at(i, j), 4.0 + 1e-3 * (i + j));
        if (i + 1 < side) t.emplace_back(std::max(at(i, j), at(i + 1, j)), std::min(at(i, j), at(i + 1, j)), -1.0);
        if (j + 1 < side) t.emplace_back(std::max(at(i, j), at(i, j + 1)), std::min(at(i, j), at(i, j + 1)), -1.0);
      }
    Eigen::SparseMatrix<double> lower(n, n);
    lower.setFromTriplets(t.begin(), t.end());
    const Eigen::SparseMatrix<double> full = lower.selfadjointView<Eigen::Lower>();
    const Eigen::MatrixXd b = Eigen::MatrixXd::Random(n, 3);
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> reference(full);
    QVERIFY(reference.info() == Eigen::Success);
    const Eigen::MatrixXd expected = reference.solve(b);
    CholeskyFactor llt(n);
    llt.factorizeLower(Eigen::SparseMatrix<double>(lower));
    QVERIFY(llt.info() == Eigen::Success);
    const std::vector<int> order = llt.order();
    QCOMPARE(static_cast<int>(order.size()), n);
    int moved = 0;
    for (int k = 0; k < n; ++k) moved += order[std::size_t(k)] != k;
    QVERIFY(moved > n / 2);  // a real permutation, not the identity
    const Eigen::MatrixXd x = llt.solve(b);
    QVERIFY2((x - expected).norm() <= 1e-12 * expected.norm(), qPrintable(QString::number((x - expected).norm() / expected.norm())));
    // shifted past the lowest eigenvalue (about 4 - 4 cos(pi / 61) * 2 > 0.005): indefinite
    Eigen::SparseMatrix<double> indefinite = lower;
    for (int k = 0; k < n; ++k) indefinite.coeffRef(k, k) -= 0.5;
    CholeskyFactor bad(n);
    bad.factorizeLower(std::move(indefinite));
    QVERIFY(bad.info() != Eigen::Success);
  }

  /// The eigen solution reads only the lower triangles of K and M (flexim-cli modes hands it
  /// nothing else, for half the memory): with them it returns what it returns with the whole
  /// matrices, on every path. The Lanczos path with several parts (two beams nothing connects),
  /// the static condensation of a massless spring end, linear constraints (two blocks joined by
  /// *EQUATION) and the dense path of a small problem. A product that read the upper triangle
  /// would halve the off-diagonal stiffness and move every frequency.
  void lowerTrianglesGiveTheSameModes() {
    const auto same = [](const char* what, const ModalResult& whole, const ModalResult& lower) {
      QVERIFY2(whole.eigenvalues.size() == lower.eigenvalues.size() && whole.eigenvalues.size() > 0, what);
      QCOMPARE(whole.rigid_count, lower.rigid_count);
      const double scale = whole.eigenvalues.cwiseAbs().maxCoeff();
      for (Eigen::Index j = 0; j < whole.eigenvalues.size(); ++j)
        QVERIFY2(std::abs(whole.eigenvalues(j) - lower.eigenvalues(j)) <= 1e-9 * scale,
                 qPrintable(QString("%1, mode %2: %3 against %4").arg(what).arg(j + 1).arg(whole.eigenvalues(j)).arg(lower.eigenvalues(j))));
      QCOMPARE(whole.max_residual > 0, lower.max_residual > 0);
    };
    const auto lowerOf = [](Eigen::SparseMatrix<double> A) {
      keepLowerTriangle(A);
      return A;
    };
    Diagnostics diag;
    ModalOptions opt;
    opt.elastic_modes = 6;
    {  // two parts, the Lanczos path
      const FeModel two = twoCopies(load("beam/beam_free.inp"));
      const AssembledMatrices mats = assembled(two);
      const Eigen::SparseMatrix<double> K = lowerOf(mats.K), M = lowerOf(mats.M);
      QVERIFY(K.nonZeros() < mats.K.nonZeros() * 0.6);
      ModalResult whole, lower;
      QVERIFY2(freeModes(mats.K, mats.M, two.coords, opt, whole, diag), diag.str().c_str());
      QVERIFY2(freeModes(K, M, two.coords, opt, lower, diag), diag.str().c_str());
      QCOMPARE(lower.parts, 2);
      same("two parts", whole, lower);
    }
    {  // a massless spring end, condensed
      QTemporaryDir dir;
      const FeModel mesh = beamWithASpringToAMasslessNode(dir);
      const AssembledMatrices mats = assembled(mesh);
      const Eigen::SparseMatrix<double> K = lowerOf(mats.K), M = lowerOf(mats.M);
      ModalResult whole, lower;
      QVERIFY2(freeModesOfActive(mats.K, mats.M, mesh.coords, opt, activeDofs(mats.K, mats.M, mesh.nodeCount()), whole, diag),
               diag.str().c_str());
      QVERIFY2(freeModesOfActive(K, M, mesh.coords, opt, activeDofs(K, M, mesh.nodeCount()), lower, diag), diag.str().c_str());
      QCOMPARE(lower.condensed, 3);
      same("massless spring end", whole, lower);
      QVERIFY((whole.modes.cwiseAbs() - lower.modes.cwiseAbs()).cwiseAbs().maxCoeff() < 1e-6 * whole.modes.cwiseAbs().maxCoeff());
    }
    {  // linear constraints
      const FeModel mesh = load("tied/equation.inp");
      QVERIFY(!mesh.constraints.empty());
      const AssembledMatrices mats = assembled(mesh);
      const Eigen::SparseMatrix<double> K = lowerOf(mats.K), M = lowerOf(mats.M);
      ModalResult whole, lower;
      QVERIFY2(freeModesOfMesh(mesh, mats.K, mats.M, opt, whole, diag), diag.str().c_str());
      QVERIFY2(freeModesOfMesh(mesh, K, M, opt, lower, diag), diag.str().c_str());
      same("*EQUATION", whole, lower);
    }
    {  // the dense path: a free chain of 12 masses
      const int n = 12;
      std::vector<Eigen::Triplet<double>> tk, tm;
      for (int i = 0; i < n; ++i) {
        tm.emplace_back(i, i, 1.0 + 0.1 * i);
        if (i + 1 < n) {
          const double k = 100.0 + 10.0 * i;
          tk.emplace_back(i, i, k);
          tk.emplace_back(i + 1, i + 1, k);
          tk.emplace_back(i, i + 1, -k);
          tk.emplace_back(i + 1, i, -k);
        }
      }
      Eigen::SparseMatrix<double> Kw(n, n), Mw(n, n);
      Kw.setFromTriplets(tk.begin(), tk.end());
      Mw.setFromTriplets(tm.begin(), tm.end());
      ModalOptions small;
      small.elastic_modes = 5;
      small.expected_rigid = 1;
      ModalResult whole, lower;
      QVERIFY2(freeModes(Kw, Mw, {}, small, whole, diag), diag.str().c_str());
      QVERIFY2(freeModes(lowerOf(Kw), lowerOf(Mw), {}, small, lower, diag), diag.str().c_str());
      same("dense chain", whole, lower);
    }
  }

  /// |A - A^T| / |A| without the transpose equals the formed one: a mirror that differs, lower
  /// and upper entries whose mirrors are not stored (one passed over on the way to a mirror, one
  /// never reached), and a symmetric matrix (0).
  void asymmetryWithoutTheTranspose() {
    Eigen::SparseMatrix<double> A(5, 5);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 4.0},  {1, 0, 1.0},  {0, 1, 1.5}, {2, 1, -2.0}, {1, 2, -2.0}, {3, 0, 0.7},
                                          {3, 3, 2.0},  {0, 3, 0.25}, {1, 3, 0.3}, {3, 2, 0.5},  {0, 2, 0.9},  {1, 4, 0.6},
                                          {4, 4, 1.0}};
    A.setFromTriplets(t.begin(), t.end());
    const Eigen::SparseMatrix<double> At = A.transpose();
    const double formed = (A - At).norm() / A.norm();
    QVERIFY(formed > 0.1);
    QVERIFY2(std::abs(relativeAsymmetry(A) - formed) <= 1e-15, qPrintable(QString("%1 against %2").arg(relativeAsymmetry(A)).arg(formed)));
    const Eigen::SparseMatrix<double> S = A + At;
    QCOMPARE(relativeAsymmetry(S), 0.0);
  }

  /// A large factorisation takes no more BLAS threads than there are cores no other thread holds:
  /// with every core kept busy by other threads it takes one (a second would wait for cores that
  /// are not free at each of its BLAS calls), and never more than the BLAS has; a small one
  /// always takes one.
  void blasThreadsLeaveBusyCoresAlone() {
    const int available = blasThreadsAvailable();
    const int now = blasThreadsForFactorisation(kThreadedRows);
    QVERIFY(now >= 1 && now <= available);
    QCOMPARE(blasThreadsForFactorisation(kThreadedRows - 1), 1);  // small: one thread, whatever the load
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    for (unsigned k = 0; k < std::max(2u, std::thread::hardware_concurrency()); ++k)
      busy.emplace_back([&stop] {
        volatile double x = 0;
        while (!stop.load(std::memory_order_relaxed)) x = x + 1;
      });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const int loaded = blasThreadsForFactorisation(kThreadedRows);
    stop = true;
    for (std::thread& t : busy) t.join();
    QCOMPARE(loaded, 1);
  }

  void blockAndSingleVectorLanczosAgree() {
    const FeModel mesh = load("beam/beam_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ModalOptions opt;
    opt.elastic_modes = 12;
    ModalResult block, single;
    Diagnostics diag;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, block, diag), diag.str().c_str());
    opt.lanczos_block = 0;
    QVERIFY2(freeModes(mats.K, mats.M, mesh.coords, opt, single, diag), diag.str().c_str());
    QVERIFY(block.block_solves > 0);
    QCOMPARE(single.block_solves, 0L);
    QCOMPARE(block.attempts, 1);
    QCOMPARE(block.eigenvalues.size(), single.eigenvalues.size());
    for (Eigen::Index j = 6; j < block.eigenvalues.size(); ++j)
      QVERIFY2(std::abs(block.eigenvalues(j) / single.eigenvalues(j) - 1) < 1e-10, qPrintable(QString::number(j)));
    QCOMPARE(block.sturm_count, single.sturm_count);
    qInfo("solves: block %ld (%ld blocks), single-vector %ld", block.operations, block.block_solves, single.operations);
  }

  /// A check that fails is never a silent answer: an impossible residual tolerance makes the
  /// solve fail after its retries, naming the modes and their residuals.
  void failedCheckNamesTheModes() {
    const FeModel mesh = load("beam/beam_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ModalOptions opt;
    opt.elastic_modes = 4;
    opt.residual_tolerance = 1e-30;
    opt.roundoff_factor = 0.0;
    ModalResult r;
    Diagnostics diag;
    QVERIFY(!freeModes(mats.K, mats.M, mesh.coords, opt, r, diag));
    const std::string text = diag.str();
    QVERIFY2(text.find("no modes are returned") != std::string::npos, text.c_str());
    QVERIFY2(text.find("mode 7 (") != std::string::npos && text.find("residual") != std::string::npos, text.c_str());
    QCOMPARE(r.attempts, 3);
  }

  void clampedBeam() {
    // clamp every dof of END0 and solve the supported problem (no rigid modes)
    const FeModel mesh = load("beam/beam_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    std::vector<bool> fixed(3 * mesh.nodeCount(), false);
    for (int node : mesh.node_sets.at("END0"))
      for (int a = 0; a < 3; ++a) fixed[3 * node + a] = true;
    std::vector<int> keep;
    for (int i = 0; i < static_cast<int>(fixed.size()); ++i)
      if (!fixed[i]) keep.push_back(i);
    Eigen::SparseMatrix<double> P(fixed.size(), keep.size());
    for (size_t j = 0; j < keep.size(); ++j) P.insert(keep[j], j) = 1;
    const Eigen::SparseMatrix<double> K = P.transpose() * mats.K * P, M = P.transpose() * mats.M * P;
    ModalOptions opt;
    opt.elastic_modes = 4;
    opt.expected_rigid = 0;
    opt.exact_rigid_modes = false;
    ModalResult modes;
    Diagnostics diag;
    QVERIFY2(freeModes(K, M, {}, opt, modes, diag), diag.str().c_str());
    QCOMPARE(modes.rigid_count, 0);
    const auto f = modes.frequenciesHz();
    const double fEB = eulerBernoulli(1.875104069, 0.3, 0.01);
    const auto ccx = ccxFrequencies("beam/beam_clamped.dat");
    qInfo("clamped first bending %.4f Hz, Euler-Bernoulli %.4f Hz, ccx %.4f Hz", f[0], fEB, ccx[0]);
    QVERIFY(std::abs(f[0] / fEB - 1) < 0.01);
    for (int j = 0; j < 4; ++j) QVERIFY(std::abs(f[j] / ccx[j] - 1) < 1e-3);
  }

  void massPropertiesMatchCcx() {
    // ccx's .dat of the free conrod: total mass 0.2028695 kg and inertia about the global
    // axes through the origin 2.699532e-5, 8.274601e-4, 8.349799e-4 kg m^2 (tests/data/fe/README.md)
    const FeModel mesh = load("conrod/conrod_free.inp");
    const MassProperties p = massProperties(mesh.coords, assembled(mesh).M);
    const Eigen::Vector3d c = p.centre;
    const Eigen::Matrix3d Jo = p.inertia + p.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    QVERIFY(std::abs(p.mass / 0.2028695 - 1) < 1e-6);
    QVERIFY(std::abs(Jo(0, 0) / 2.699532e-5 - 1) < 1e-5);
    QVERIFY(std::abs(Jo(1, 1) / 8.274601e-4 - 1) < 1e-5);
    QVERIFY(std::abs(Jo(2, 2) / 8.349799e-4 - 1) < 1e-5);
    QVERIFY2(std::abs(c.z() - 0.006) < 1e-6, qPrintable(QString::number(c.z(), 'g', 12)));  // mid-thickness of the extrusion
  }

  void craigBamptonStaticModesAreExact_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("rigid") << static_cast<int>(Interface::Kind::Rigid);
    QTest::newRow("averaging") << static_cast<int>(Interface::Kind::Averaging);
  }
  void craigBamptonStaticModesAreExact() {
    QFETCH(int, kind);
    // big bore clamped (rigid interface), a force and a moment on the small bore's reference
    // point: the full FE solution and the Craig-Bampton body must give the same deflection
    const FeModel mesh = load("conrod/conrod_free.inp");
    const AssembledMatrices mats = assembled(mesh);
    ReductionOptions opt;
    opt.method = ReductionOptions::Method::CraigBampton;
    opt.modes = 4;
    opt.interfaces = {{"BORE_BIG"}, {"BORE_SMALL", static_cast<Interface::Kind>(kind)}};
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
    QCOMPARE(body.modes.cols(), Eigen::Index(16));
    Eigen::Matrix<double, 6, 1> load;
    load << 120.0, -300.0, 50.0, 0.8, -1.5, 2.0;  // [N], [N m]

    // full problem in the interface coordinates: fix BORE_BIG's 6 reference dofs
    Eigen::SparseMatrix<double> T;
    std::string error;
    std::vector<Interface> interfaces = body.interfaces;
    QVERIFY2(interfaceTransform(mesh.coords, interfaces, surfaceNodeAreas(mesh), T, error), error.c_str());
    const Eigen::SparseMatrix<double> Kr = T.transpose() * mats.K * T;
    const int n = static_cast<int>(Kr.rows()), free = n - 6 * 2;  // free dofs, then BIG, SMALL
    std::vector<int> keep;
    for (int i = 0; i < n; ++i)
      if (i < free || i >= free + 6) keep.push_back(i);
    Eigen::SparseMatrix<double> P(n, keep.size());
    for (size_t j = 0; j < keep.size(); ++j) P.insert(keep[j], j) = 1;
    const Eigen::SparseMatrix<double> Kf = P.transpose() * Kr * P;
    Eigen::VectorXd f = Eigen::VectorXd::Zero(keep.size());
    f.tail<6>() = load;
    Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>> llt(Kf);
    QVERIFY(llt.info() == Eigen::Success);
    const Eigen::VectorXd uFull = T * (P * llt.solve(f));

    // reduced: columns 0-5 are BORE_BIG's constraint modes (fixed), 6-11 BORE_SMALL's
    const Eigen::MatrixXd X = body.modes.rightCols(body.modes.cols() - 6);
    const Eigen::MatrixXd Kb = X.transpose() * (mats.K * X);
    Eigen::VectorXd fb = Eigen::VectorXd::Zero(X.cols());
    fb.head<6>() = load;  // unit reference motions: generalized force = the load itself
    const Eigen::VectorXd uRed = X * Kb.ldlt().solve(fb);
    const double err = (uRed - uFull).cwiseAbs().maxCoeff() / uFull.cwiseAbs().maxCoeff();
    qInfo("max |u_reduced - u_full| / max |u_full| = %.2e (max deflection %.3e m)", err, uFull.cwiseAbs().maxCoeff());
    QVERIFY(err < 1e-8);
  }

  void averagingInterfaceFollowsRigidMotion() {
    // RBE3 property: when the interface nodes move rigidly, the reference point moves with them
    // (and an averaging interface leaves the body free: 6 rigid modes survive the transform)
    const FeModel mesh = load("conrod/conrod_free.inp");
    std::vector<Interface> itf(1);
    itf[0].name = "BORE_SMALL";
    itf[0].kind = Interface::Kind::Averaging;
    itf[0].nodes = mesh.node_sets.at("BORE_SMALL");
    Eigen::SparseMatrix<double> T;
    std::string error;
    QVERIFY2(interfaceTransform(mesh.coords, itf, surfaceNodeAreas(mesh), T, error), error.c_str());
    QCOMPARE(T.cols(), T.rows() - 6 + 6);  // 6 node dofs eliminated, 6 reference dofs added
    // a rigid motion (t, theta) about the reference point expressed in q: free dofs take the
    // rigid field, reference dofs take (t, theta); T q must reproduce the rigid field exactly
    const Eigen::Vector3d tr(1e-3, -2e-3, 0.5e-3), th(0.01, 0.02, -0.03);
    Eigen::VectorXd u(T.rows());
    for (int k = 0; k < mesh.nodeCount(); ++k) u.segment<3>(3 * k) = tr + th.cross(mesh.coords[k] - itf[0].reference);
    // pick q: least squares through the transform (exact if the field is representable)
    Eigen::SparseMatrix<double> TtT = T.transpose() * T;
    Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>> llt(TtT);
    const Eigen::VectorXd q = llt.solve(T.transpose() * u);
    QVERIFY((T * q - u).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY((q.tail<6>().head<3>() - tr).norm() < 1e-12);
    QVERIFY((q.tail<6>().tail<3>() - th).norm() < 1e-12);
  }

  void reducedBodyInvariants() {
    const FeModel mesh = load("beam/beam_free.inp");
    ReductionOptions opt;
    opt.modes = 8;
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
    QCOMPARE(body.modes.cols(), Eigen::Index(14));
    QCOMPARE(static_cast<int>(std::count(body.kinds.begin(), body.kinds.end(), ModeKind::Rigid)), 6);
    QVERIFY(std::abs(body.invariants.I1 - 0.2355) < 1e-9);
    QVERIFY((body.invariants.I2 / body.invariants.I1 - Eigen::Vector3d(0.15, 0, 0)).norm() < 1e-9);
    // elastic modes: Kbar is diag(omega^2) and the rigid rows vanish
    for (int j = 6; j < 14; ++j) QVERIFY(std::abs(body.invariants.Kbar(j, j) / body.eigenvalues(j) - 1) < 1e-6);
    QVERIFY(body.invariants.Kbar.topLeftCorner(6, 6).cwiseAbs().maxCoeff() < 1e-6 * body.eigenvalues(6));
  }

  void consistentInvariantsAreTheFeModels_data() {
    QTest::addColumn<QString>("deck");
    QTest::newRow("C3D10") << "beam/beam_free.inp";
    QTest::newRow("C3D20") << "beam/beam_hex_free.inp";
  }
  void consistentInvariantsAreTheFeModels() {
    // the 0.3 x 0.01 x 0.01 m steel box. Its consistent element masses are
    // exact on straight-edged elements, so the invariants' mass, centre of mass and inertia are
    // the solid's closed forms; and the elastic modes, orthonormal in that mass, decouple from
    // the frame motion in free flight, so the body's free-flight frequencies are the FE ones.
    QFETCH(QString, deck);
    const FeModel mesh = load(deck.toStdString());
    const double L = 0.3, a = 0.01, mass = kRho * L * a * a;
    const Eigen::Vector3d centre(L / 2, 0, 0);
    const Eigen::Vector3d J(mass * (2 * a * a) / 12, mass * (L * L + a * a) / 12, mass * (L * L + a * a) / 12);
    for (const auto invariantMass : {ReductionOptions::InvariantMass::Consistent, ReductionOptions::InvariantMass::Lumped}) {
      const bool consistent = invariantMass == ReductionOptions::InvariantMass::Consistent;
      ReductionOptions opt;
      opt.modes = 10;
      opt.invariant_mass = invariantMass;
      ReducedBody body;
      ReductionReport report;
      Diagnostics diag;
      QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
      const ModalInvariants& inv = body.invariants;
      const Eigen::Vector3d c = inv.I2 / inv.I1;
      const Eigen::Matrix3d Jc = inv.J0 - inv.I1 * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
      const double inertiaError = (Jc - Eigen::Matrix3d(J.asDiagonal())).norm() / J.norm();
      // free flight, linearised at rest: [r, theta, elastic q] with T = 1/2 v^T Mff v
      std::vector<int> elastic;
      for (int j = 0; j < inv.modeCount(); ++j)
        if (body.kinds[j] == ModeKind::Elastic) elastic.push_back(j);
      const int ne = static_cast<int>(elastic.size()), nf = 6 + ne;
      Eigen::MatrixXd Mff = Eigen::MatrixXd::Zero(nf, nf), Kff = Eigen::MatrixXd::Zero(nf, nf);
      Mff.topLeftCorner<3, 3>() = inv.I1 * Eigen::Matrix3d::Identity();
      Mff.block<3, 3>(0, 3) = -skew(inv.I2);
      Mff.block<3, 3>(3, 0) = skew(inv.I2);
      Mff.block<3, 3>(3, 3) = inv.J0;
      for (int e = 0; e < ne; ++e) {
        Mff.block<3, 1>(0, 6 + e) = Mff.block<3, 1>(6 + e, 0).transpose() = inv.I3.col(elastic[e]);
        Mff.block<3, 1>(3, 6 + e) = inv.I4.col(elastic[e]);
        Mff.block<1, 3>(6 + e, 3) = inv.I4.col(elastic[e]).transpose();
        for (int f = 0; f < ne; ++f) {
          Mff(6 + e, 6 + f) = inv.Mbar(elastic[e], elastic[f]);
          Kff(6 + e, 6 + f) = inv.Kbar(elastic[e], elastic[f]);
        }
      }
      Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(Kff, Mff);
      double frequencyError = 0;
      for (int e = 0; e < ne; ++e)
        frequencyError = std::max(frequencyError, std::abs(std::sqrt(ges.eigenvalues()(6 + e) / body.eigenvalues(elastic[e])) - 1));
      qInfo("%s invariants: mass %.3e, centre %.3e m, inertia %.3e relative; free-flight frequencies %.3e relative; "
            "the other mass's inertia %.3g %%, modal masses %.3g %%",
            consistent ? "consistent" : "lumped", std::abs(inv.I1 / mass - 1), (c - centre).norm(), inertiaError,
            frequencyError, 100 * report.other_mass_inertia_change, 100 * report.other_mass_modal_mass_change);
      QVERIFY(std::abs(inv.I1 / mass - 1) < 1e-10);  // the lumped masses keep the total too
      if (consistent) {
        QVERIFY((c - centre).norm() < 1e-10 * L);
        QVERIFY(inertiaError < 1e-10);
        QVERIFY(frequencyError < 1e-6);
        QVERIFY(report.other_mass_modal_mass_change > 1e-3);  // the comparison is measured, not zero
        QVERIFY(QString::fromStdString(body.method).contains("consistent-mass invariants"));
        bool said = false;
        for (const auto& d : diag.items()) said = said || d.message.find("the lumped (HRZ) nodal masses would") != std::string::npos;
        QVERIFY(said);
      } else {
        QVERIFY(inertiaError > 1e-4 || frequencyError > 1e-3);  // what the consistent mass fixes
      }
    }
  }

  void interfaceReferencePointIsSettable() {
    // a rigid and an averaging interface with a chosen reference point; the
    // constraint modes are the rigid motions about that point, and the static solution is the
    // full FE one whatever the point
    const FeModel mesh = load("conrod/conrod_free.inp");
    const Eigen::Vector3d p(0.01, 0.002, 0.006);
    for (const auto kind : {Interface::Kind::Rigid, Interface::Kind::Averaging}) {
      ReductionOptions opt;
      opt.method = ReductionOptions::Method::CraigBampton;
      opt.modes = 2;
      InterfaceSpec big{"BORE_BIG"}, small{"BORE_SMALL", kind};
      std::string error;
      QVERIFY2(parseInterfaceReference("node:" + std::to_string(mesh.node_ids[0]), big, error), error.c_str());
      QVERIFY2(parseInterfaceReference(" 0.01, 0.002,0.006 ", small, error), error.c_str());
      opt.interfaces = {big, small};
      ReducedBody body;
      ReductionReport report;
      Diagnostics diag;
      QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
      QVERIFY((body.interfaces[0].reference - mesh.coords[0]).norm() == 0);
      QVERIFY((body.interfaces[1].reference - p).norm() == 0);
      if (kind == Interface::Kind::Rigid) {
        // column 6 + 3 + a: unit rotation about axis a of BORE_SMALL's reference point
        for (int a = 0; a < 3; ++a)
          for (int k : mesh.node_sets.at("BORE_SMALL")) {
            const Eigen::Vector3d expected = Eigen::Vector3d::Unit(a).cross(mesh.coords[k] - p);
            QVERIFY((body.modes.block<3, 1>(3 * k, 9 + a) - expected).norm() < 1e-12);
          }
      } else {
        // a rigid motion of the whole body about p is reproduced by the reference dofs alone:
        // the averaging interface's reference follows the nodes' mean motion about p
        const Eigen::Vector3d th(0.01, -0.02, 0.03);
        Eigen::VectorXd u(body.modes.rows());
        for (int k = 0; k < mesh.nodeCount(); ++k) u.segment<3>(3 * k) = th.cross(mesh.coords[k] - p);
        const Eigen::VectorXd q = body.modes.colPivHouseholderQr().solve(u);
        QVERIFY((body.modes * q - u).norm() < 1e-9 * u.norm());
        QVERIFY(q.segment<3>(6).norm() < 1e-9);           // BORE_SMALL translation about p: none
        QVERIFY((q.segment<3>(9) - th).norm() < 1e-9 * th.norm());
      }
    }
    // the other choices, and the errors
    InterfaceSpec spec{"BORE_SMALL"};
    std::string error;
    QVERIFY(parseInterfaceReference("area-weighted centroid", spec, error));
    QCOMPARE(interfaceReferenceText(spec), std::string("area-centroid"));
    QVERIFY(parseInterfaceReference("Centroid", spec, error));
    QCOMPARE(interfaceReferenceText(spec), std::string("centroid"));
    QVERIFY(parseInterfaceReference("0.5,0,-1e-3", spec, error));
    QCOMPARE(interfaceReferenceText(spec), std::string("0.5,0,-0.001"));
    QVERIFY(!parseInterfaceReference("0.5,0", spec, error));
    QVERIFY(!parseInterfaceReference("node x", spec, error));
    QVERIFY(!parseInterfaceReference("middle", spec, error));
    QVERIFY2(error.find("area-centroid") != std::string::npos, error.c_str());
    for (const char* text : {"centroid", "area-centroid"}) {
      ReductionOptions opt;
      opt.method = ReductionOptions::Method::CraigBampton;
      opt.modes = 2;
      InterfaceSpec s{"BORE_SMALL"};
      QVERIFY(parseInterfaceReference(text, s, error));
      opt.interfaces = {s};
      ReducedBody body;
      ReductionReport report;
      Diagnostics diag;
      QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
      const std::vector<double> area = surfaceNodeAreas(mesh);
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      double total = 0;
      for (int k : mesh.node_sets.at("BORE_SMALL")) {
        const double w = std::string(text) == "centroid" ? 1.0 : area[k];
        sum += w * mesh.coords[k];
        total += w;
      }
      QVERIFY((body.interfaces[0].reference - sum / total).norm() < 1e-15);
    }
    ReductionOptions opt;
    opt.method = ReductionOptions::Method::CraigBampton;
    InterfaceSpec s{"BORE_SMALL"};
    QVERIFY(parseInterfaceReference("node 99999999", s, error));
    opt.interfaces = {s};
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY(!reduce(mesh, opt, body, report, diag));
    QVERIFY2(diag.str().find("the reference node 99999999 is not in the mesh") != std::string::npos, diag.str().c_str());
  }
};

QTEST_APPLESS_MAIN(ReductionTest)
#include "reduction_test.moc"
