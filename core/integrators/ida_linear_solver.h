// IDA's linear solver for the GGL iteration matrix: a dense LU with partial pivoting for small
// matrices, else KLU refactorised with the pivot order of its last full factorisation while
// those pivots hold up.
//
// Why not SUNDIALS' own KLU module: after each refactorisation it factorises afresh whenever
// KLU's cheap reciprocal condition estimate (min/max pivot) falls below uround^(2/3), ~4e-11.
// The GGL matrix mixes coordinate, velocity and multiplier rows with cj ~ 1/h in between, so
// that estimate is small at every step size, and the fresh factorisations (pivot search and a
// condition estimate each) were a third of the setups and 13 % of Andrews' mechanism's run.
// Here a refactorisation is kept unless its pivot ratio fell by more than 1e-4 against that of
// the last full factorisation (degraded pivots), as KktMatrix does.
// Why dense up to kDenseSize: the GGL matrices of small models are 15-55 % full (a slider-crank
// 75 x 75 with 1 768 entries, the flexible pendulum 88 x 88 with 4 077), where KLU's sparse
// refactorisation costs more than a dense LU (SmallLu; 8-15 % of those runs; measured crossover
// between 88 and 125 unknowns).
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

namespace flexim {

/// A direct SUNLinearSolver for a compressed-sparse-column SUNMatrix (SUNLinSolFree frees it).
/// KLU's symbolic analysis is redone only when the matrix's pattern changes.
SUNLinearSolver idaLinearSolver(SUNContext context);

/// Matrices of at most this many unknowns are factorised dense.
constexpr int kDenseSize = 100;

/// Full factorisations (every dense one) and KLU refactorisations so far.
struct IdaLinearSolverCounts {
  long factorizations = 0, refactorizations = 0;
};
IdaLinearSolverCounts idaLinearSolverCounts(SUNLinearSolver solver);

}  // namespace flexim
