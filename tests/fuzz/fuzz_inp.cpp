// libFuzzer driver: CalculiX/Abaqus input deck reader (in memory, *INCLUDE refused).
#include "io/fe/calculix_inp.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  io::InpOptions options;
  options.follow_includes = false;
  fe::FeModel m;
  Diagnostics d;
  const bool ok = io::readCalculixInpFromString(text, "fuzz.inp", m, d, options);
  fuzz::checkDiagnostics(ok, d);
  if (ok) fuzz::checkModel(m);
  if (!ok && m.nodeCount() != 0) fuzz::fail("model changed on failure");
  return 0;
}
