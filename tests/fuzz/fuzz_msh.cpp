// libFuzzer driver: gmsh .msh 4.1 ASCII reader.
#include "io/fe/gmsh_msh.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fe::FeModel m;
  Diagnostics d;
  const bool ok = io::readGmshMshFromString(text, "fuzz.msh", m, d);
  fuzz::checkDiagnostics(ok, d);
  if (ok) fuzz::checkModel(m);
  return 0;
}
