// libFuzzer driver: CalculiX .frd reader, both into an empty model (mesh from the frd) and
// against a small deck (mesh check and mode mapping).
#include "io/fe/calculix_frd.h"
#include "io/fe/calculix_inp.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  {
    fe::FeModel m;
    Diagnostics d;
    const bool ok = io::readCalculixFrdFromString(text, "fuzz.frd", m, d);
    fuzz::checkDiagnostics(ok, d);
    if (ok) fuzz::checkModel(m);
  }
  {
    static const char* kDeck = "*NODE\n1,0,0,0\n2,1,0,0\n3,0,1,0\n4,0,0,1\n*ELEMENT,TYPE=C3D4\n1,1,2,3,4\n";
    fe::FeModel m;
    Diagnostics d;
    if (!io::readCalculixInpFromString(kDeck, "deck.inp", m, d)) fuzz::fail("fixed deck rejected");
    const bool ok = io::readCalculixFrdFromString(text, "fuzz.frd", m, d);
    fuzz::checkDiagnostics(ok, d);
    fuzz::checkModel(m);
    if (!ok && m.modes.size() != 0) fuzz::fail("model changed on failure");
  }
  return 0;
}
