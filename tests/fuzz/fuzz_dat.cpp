// libFuzzer driver: CalculiX .dat eigenvalue table reader.
#include "io/fe/calculix_dat.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  io::CalculixEigenTable t;
  Diagnostics d;
  const bool ok = io::readCalculixDatFromString(text, "fuzz.dat", t, d);
  fuzz::checkDiagnostics(ok, d);
  const std::size_t n = t.mode.size();
  if (t.eigenvalue.size() != n || t.frequency_hz.size() != n || t.omega_real.size() != n || t.omega_imag.size() != n)
    fuzz::fail("table columns differ in length");
  if (ok && n == 0) fuzz::fail("success without rows");
  return 0;
}
