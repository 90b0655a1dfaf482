// IDA's linear solver (core/integrators/ida_linear_solver.h) on its own: dense and KLU paths
// against a dense reference solve, KLU's refactorisation kept while its pivots hold and a fresh
// factorisation when they degrade, and a singular matrix reported as recoverable.
#include "core/integrators/ida_linear_solver.h"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <Eigen/Dense>
#include <QtTest>

#include <random>

using namespace flexim;

namespace {

/// A sparse unsymmetric n x n matrix, diagonally dominant, with a few entries per column.
Eigen::MatrixXd sparseMatrix(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> row(0, n - 1);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < n; ++j) {
    A(j, j) = 4.0 + value(rng);
    for (int k = 0; k < 3; ++k) A(row(rng), j) += value(rng);
  }
  return A;
}

/// Writes A's non-zeros (all of `pattern`'s, some of them zero) into the CSC SUNMatrix S.
void fill(SUNMatrix S, const Eigen::MatrixXd& A, const Eigen::MatrixXd& pattern) {
  const int n = static_cast<int>(A.cols());
  sunindextype* ptr = SUNSparseMatrix_IndexPointers(S);
  sunindextype* idx = SUNSparseMatrix_IndexValues(S);
  double* data = SUNSparseMatrix_Data(S);
  sunindextype k = 0;
  for (int j = 0; j < n; ++j) {
    ptr[j] = k;
    for (int i = 0; i < n; ++i)
      if (pattern(i, j) != 0) {
        idx[k] = i;
        data[k++] = A(i, j);
      }
  }
  ptr[n] = k;
}

struct Fixture {
  SUNContext context = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  N_Vector x = nullptr, b = nullptr;
  explicit Fixture(int n) {
    SUNContext_Create(nullptr, &context);
    matrix = SUNSparseMatrix(n, n, static_cast<sunindextype>(n) * n, CSC_MAT, context);
    solver = idaLinearSolver(context);
    x = N_VNew_Serial(n, context);
    b = N_VNew_Serial(n, context);
    SUNLinSolInitialize(solver);
  }
  ~Fixture() {
    N_VDestroy(x);
    N_VDestroy(b);
    SUNLinSolFree(solver);
    SUNMatDestroy(matrix);
    SUNContext_Free(&context);
  }
  /// Solves A x = rhs after a setup with A; the relative error against a dense reference solve.
  double solveError(const Eigen::MatrixXd& A, const Eigen::MatrixXd& pattern) {
    fill(matrix, A, pattern);
    if (SUNLinSolSetup(solver, matrix) != SUNLS_SUCCESS) return -1;
    const int n = static_cast<int>(A.cols());
    const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(n, 1.0, 2.0);
    Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(b), n) = rhs;
    if (SUNLinSolSolve(solver, matrix, x, b, 0.0) != SUNLS_SUCCESS) return -1;
    const Eigen::VectorXd reference = A.partialPivLu().solve(rhs);
    return (Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(x), n) - reference).norm() / reference.norm();
  }
};

}  // namespace

class IdaLinearSolverTest : public QObject {
  Q_OBJECT
 private slots:
  void solvesSmallMatricesDense() {
    const int n = kDenseSize;
    Fixture f(n);
    const Eigen::MatrixXd A = sparseMatrix(n, 1);
    QVERIFY(f.solveError(A, A) >= 0);
    QVERIFY(f.solveError(A, A) < 1e-13);
    QCOMPARE(idaLinearSolverCounts(f.solver).factorizations, 2L);  // dense: every setup
    QCOMPARE(idaLinearSolverCounts(f.solver).refactorizations, 0L);
  }

  void refactorisesLargeMatricesWhilePivotsHold() {
    const int n = kDenseSize + 50;
    Fixture f(n);
    Eigen::MatrixXd A = sparseMatrix(n, 2);
    A(9, 7) = 0;
    Eigen::MatrixXd pattern = A;
    pattern(9, 7) = 1;  // an explicit zero that a later matrix fills
    const double first = f.solveError(A, pattern);
    QVERIFY(first >= 0 && first < 1e-13);
    // a few percent change of every value: the pivot order holds
    for (int k = 0; k < 5; ++k) {
      A *= 1.02;
      A.diagonal().array() += 0.01;
      const double e = f.solveError(A, pattern);
      QVERIFY2(e >= 0 && e < 1e-12, qPrintable(QString::number(e)));
    }
    QCOMPARE(idaLinearSolverCounts(f.solver).factorizations, 1L);
    QCOMPARE(idaLinearSolverCounts(f.solver).refactorizations, 5L);
    // column 7's diagonal pivot collapses to 1e-9 of its size while row 9 fills in: the old pivot
    // order would divide by it, so the solver pivots afresh
    A(7, 7) *= 1e-9;
    A(9, 7) = 2.0;
    const double e = f.solveError(A, pattern);
    QVERIFY2(e >= 0 && e < 1e-12, qPrintable(QString::number(e)));
    QCOMPARE(idaLinearSolverCounts(f.solver).factorizations, 2L);
    QCOMPARE(idaLinearSolverCounts(f.solver).refactorizations, 5L);
  }

  void reportsASingularMatrixAsRecoverable() {
    for (int n : {8, kDenseSize + 20}) {
      Fixture f(n);
      Eigen::MatrixXd A = sparseMatrix(n, 3);
      A.col(3).setZero();  // a zero column: singular whatever the pivots
      Eigen::MatrixXd pattern = A;
      pattern(3, 3) = 1;  // kept in the pattern as an explicit zero
      fill(f.matrix, A, pattern);
      QCOMPARE(SUNLinSolSetup(f.solver, f.matrix), SUNLS_PACKAGE_FAIL_REC);
    }
  }
};

QTEST_GUILESS_MAIN(IdaLinearSolverTest)
#include "ida_linear_solver_test.moc"
