// The BLAS's threads during an eigen solution. OpenBLAS (its pthread build, Debian's default)
// runs each call on all cores, and between calls its idle workers spin (yielding) for about
// 2^28 cycles before they sleep. That pays for the level-3 kernels of a supernodal
// factorisation, but a Lanczos iteration makes thousands of small level-2 calls (triangular
// solves, one right-hand side) in a row: its workers then spin all the time, on a core that other
// work (the GUI, a second solve, another program) could use, for little gain.
//
// So: every free core for a large factorisation (blasThreadsForFactorisation), one thread for
// the rest (ScopedBlasThreads). A BLAS without a thread control (reference BLAS, BLIS, MKL
// through the alternatives) is left alone: the calls do nothing. OPENBLAS_NUM_THREADS still sets
// "every core".
#pragma once

namespace flexim::fe {

/// The BLAS's thread count when the program started (OPENBLAS_NUM_THREADS, or the cores); 1
/// when the BLAS has no thread control.
int blasThreadsAvailable();

/// The BLAS threads a factorisation of a matrix of `rows` rows should take now: one below
/// kThreadedRows (a second thread gains nothing there, and one thread makes the result the same
/// to the last bit whatever the machine is doing), else blasThreadsAvailable(), but no more than
/// the caller's own core and the cores no other thread is runnable on (/proc/loadavg). A second
/// thread on a core that other work holds does not halve a factorisation's time but multiplies
/// it: each of its many BLAS calls waits for the thread that is not running (on the 53 369-node
/// deck beside a build on both cores, 115 s with two threads against 18 s with one).
int blasThreadsForFactorisation(long rows);

/// From this many rows on, a factorisation may take more than one BLAS thread.
constexpr long kThreadedRows = 20000;

/// Sets the BLAS's thread count for its lifetime, then restores the previous one.
class ScopedBlasThreads {
 public:
  explicit ScopedBlasThreads(int threads);
  ~ScopedBlasThreads();
  ScopedBlasThreads(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads& operator=(const ScopedBlasThreads&) = delete;

 private:
  int m_previous = 0;
};

}  // namespace flexim::fe
