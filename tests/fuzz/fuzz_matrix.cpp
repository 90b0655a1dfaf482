// libFuzzer driver: matrix files. The input feeds each reader on its own (ccx .sti/.mas
// triplets, .dof, MatrixMarket, Abaqus .mtx); split at the first two NUL bytes it is also read
// as a .sti / .mas / .dof trio.
#include "io/fe/matrix_files.h"
#include "tests/fuzz/fuzz_check.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void checkMatrix(const Eigen::SparseMatrix<double>& A, bool symmetric) {
  for (Eigen::Index c = 0; c < A.outerSize(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, c); it; ++it)
      if (!std::isfinite(it.value())) flexim::fuzz::fail("non-finite matrix entry");
  if (symmetric && (Eigen::SparseMatrix<double>(A.transpose()) - A).norm() != 0.0) flexim::fuzz::fail("matrix not symmetric");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  {
    Eigen::SparseMatrix<double> A;
    Diagnostics d;
    const bool ok = io::readCalculixMatrixText(text, "fuzz.sti", 64, A, d);
    fuzz::checkDiagnostics(ok, d);
    if (ok) checkMatrix(A, true);
  }
  {
    std::vector<int> nodes, components;
    Diagnostics d;
    const bool ok = io::readCalculixDofText(text, "fuzz.dof", nodes, components, d);
    fuzz::checkDiagnostics(ok, d);
    if (nodes.size() != components.size()) fuzz::fail("dof arrays differ in size");
  }
  {
    Eigen::SparseMatrix<double> A;
    Diagnostics d;
    const bool ok = io::readMatrixMarketFromString(text, "fuzz.mtx", A, d);
    fuzz::checkDiagnostics(ok, d);
    if (ok) checkMatrix(A, false);
  }
  {
    io::AbaqusMatrix A;
    Diagnostics d;
    const bool ok = io::readAbaqusMtxFromString(text, "fuzz.mtx", A, d);
    fuzz::checkDiagnostics(ok, d);
    if (ok) {
      checkMatrix(A.A, true);
      if (A.node_ids.size() != static_cast<std::size_t>(A.A.rows())) fuzz::fail("abaqus dofs vs rows");
    }
  }
  const std::size_t a = text.find('\0');
  const std::size_t b = a == std::string_view::npos ? a : text.find('\0', a + 1);
  if (b != std::string_view::npos) {
    fe::FeModel m;
    Diagnostics d;
    const bool ok = io::readCalculixMatricesFromStrings(text.substr(0, a), "f.sti", text.substr(a + 1, b - a - 1), "f.mas",
                                                        text.substr(b + 1), "f.dof", m, d);
    fuzz::checkDiagnostics(ok, d);
    fuzz::checkModel(m);
    if (ok && (m.K.rows() != static_cast<Eigen::Index>(m.dofs.size()) || m.M.rows() != m.K.rows())) fuzz::fail("trio sizes");
  }
  return 0;
}
