// libFuzzer driver: Nastran bulk data reader (in memory, INCLUDE refused).
#include "io/fe/nastran.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  io::NastranOptions options;
  options.follow_includes = false;
  fe::FeModel m;
  Diagnostics d;
  const bool ok = io::readNastranBulkFromString(text, "fuzz.bdf", m, d, options);
  fuzz::checkDiagnostics(ok, d);
  if (ok) fuzz::checkModel(m);
  return 0;
}
