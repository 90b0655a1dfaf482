#include "core/fe/inertia.h"

#include <dmumps_c.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace flexim::fe {

namespace {

// MUMPS's control arrays are 1-based in its manual; these index the C structs.
constexpr int icntl(int i) { return i - 1; }
constexpr int infog(int i) { return i - 1; }

constexpr int kJobInit = -1, kJobEnd = -2, kJobAnalyseFactorise = 4;
constexpr int kUseCommWorld = -987654;  // the sequential library's stand-in communicator
constexpr int kSymmetricIndefinite = 2;
constexpr int kOrderingAuto = 7;  // Debian's sequential build has SCOTCH, PORD and AMD
constexpr int kOrderingGiven = 1;

/// INFO(1) values of a factorisation that needed more work space than the analysis estimated.
bool outOfWorkSpace(int info1) { return info1 == -8 || info1 == -9 || info1 == -14 || info1 == -15; }

std::string mumpsError(int info1, int info2) {
  if (outOfWorkSpace(info1)) return "MUMPS ran out of its work space (INFO(1) = " + std::to_string(info1) + ")";
  switch (info1) {
    case -13: return "MUMPS could not allocate memory (" + std::to_string(info2) + " entries)";
    default: return "MUMPS failed: INFO(1) = " + std::to_string(info1) + ", INFO(2) = " + std::to_string(info2);
  }
}

// Thread safety of the sequential MUMPS build (its MPI stand-in, the orderings) is not verified here, and
// the GUI may run two eigen solutions at once: one factorisation at a time. It costs little next
// to the eigen solution itself.
std::mutex& mumpsMutex() {
  static std::mutex m;
  return m;
}

}  // namespace

InertiaResult negativeEigenvalueCount(const Eigen::SparseMatrix<double>& A, const std::vector<int>* order) {
  InertiaResult out;
  const Eigen::Index n = A.rows();
  if (n == 0) {
    out.negative = 0;
    return out;
  }
  // MUMPS reads coordinates (1-based) of one triangle; take the lower one of a column-major matrix.
  std::vector<MUMPS_INT> irn, jcn;
  std::vector<double> values;
  size_t lower = 0;
  for (Eigen::Index j = 0; j < A.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, j); it; ++it) lower += it.row() >= it.col();
  irn.reserve(lower);
  jcn.reserve(lower);
  values.reserve(lower);
  for (Eigen::Index j = 0; j < A.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, j); it; ++it)
      if (it.row() >= it.col()) {
        irn.push_back(static_cast<MUMPS_INT>(it.row() + 1));
        jcn.push_back(static_cast<MUMPS_INT>(it.col() + 1));
        values.push_back(it.value());
      }

  std::lock_guard lock(mumpsMutex());
  DMUMPS_STRUC_C id{};
  id.comm_fortran = kUseCommWorld;
  id.par = 1;  // the host works too (there is only the host)
  id.sym = kSymmetricIndefinite;
  id.job = kJobInit;
  dmumps_c(&id);
  if (id.infog[infog(1)] < 0) {
    out.error = mumpsError(id.infog[infog(1)], id.infog[infog(2)]);
    return out;
  }
  id.icntl[icntl(1)] = -1;  // no error, diagnostic or statistics output on the terminal
  id.icntl[icntl(2)] = -1;
  id.icntl[icntl(3)] = -1;
  id.icntl[icntl(4)] = 0;
  id.icntl[icntl(7)] = kOrderingAuto;
  std::vector<MUMPS_INT> position;  // MUMPS's PERM_IN: the 1-based step at which each variable is eliminated
  if (order && static_cast<Eigen::Index>(order->size()) == n) {
    position.assign(static_cast<std::size_t>(n), 0);
    for (std::size_t k = 0; k < order->size(); ++k) position[std::size_t((*order)[k])] = static_cast<MUMPS_INT>(k + 1);
    if (std::find(position.begin(), position.end(), 0) == position.end()) {  // a permutation
      id.icntl[icntl(7)] = kOrderingGiven;
      id.perm_in = position.data();
    }
  }
  id.icntl[icntl(31)] = 1;  // only the inertia is wanted: the factors are discarded as they are made
  id.n = static_cast<MUMPS_INT>(n);
  id.nnz = static_cast<MUMPS_INT8>(values.size());
  id.irn = irn.data();
  id.jcn = jcn.data();
  id.a = values.data();
  // The work space is estimated by the analysis; a factorisation that needs more (delayed pivots
  // of an indefinite matrix) is repeated with a larger relaxation.
  for (int relaxation : {20, 60, 200}) {
    id.icntl[icntl(14)] = relaxation;
    id.job = kJobAnalyseFactorise;
    dmumps_c(&id);
    const int info1 = id.infog[infog(1)];
    if (info1 >= 0) {
      out.negative = id.infog[infog(12)];
      out.error.clear();
      break;
    }
    out.error = mumpsError(info1, id.infog[infog(2)]);
    if (!outOfWorkSpace(info1)) break;  // more work space would not help
  }
  id.job = kJobEnd;
  dmumps_c(&id);
  return out;
}

}  // namespace flexim::fe
