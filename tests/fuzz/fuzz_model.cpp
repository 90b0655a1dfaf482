// libFuzzer driver: the JSON model loader (io::loadModelString: parse, read every item by its
// description, load the reduced-body files of flexible bodies, validate()), then the topology
// that `flexim-cli validate` prints.
//
// Reduced-body files named in the model are resolved against FLEXIM_FUZZ_FRB_DIR, the .frb seed
// folder (tests/fuzz/corpus/frb), so seeds can name real bodies there ("tiny_cb.frb").
//
// Invariants: the loader never throws; it succeeds exactly when it reports no error, and every
// message is non-empty; a failure leaves the output model untouched; a model that loads saves
// to text that loads again, and save -> load -> save is byte-identical (docs/model-format.md).
#include "core/model/topology.h"
#include "core/model/validate.h"
#include "io/model_json.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef FLEXIM_FUZZ_FRB_DIR
#error "FLEXIM_FUZZ_FRB_DIR must name the folder of the .frb seeds"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace flexim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string baseDir = FLEXIM_FUZZ_FRB_DIR;

  ModelSpec model;
  model.name = "untouched";
  Diagnostics d;
  const bool ok = io::loadModelString(text, model, d, "fuzz.json", baseDir);
  fuzz::checkDiagnostics(ok, d);
  if (!ok) {
    if (model.name != "untouched" || !model.bodies.empty()) fuzz::fail("model changed on failure");
    return 0;
  }
  if (validate(model).hasErrors()) fuzz::fail("a loaded model fails validate()");
  (void)describe(buildTopology(model));

  const std::string saved = io::saveModelString(model);
  ModelSpec again;
  Diagnostics d2;
  if (!io::loadModelString(saved, again, d2, "saved.json", baseDir)) {
    std::fprintf(stderr, "%s\n--- saved text ---\n%s\n", d2.str().c_str(), saved.c_str());
    fuzz::fail("a saved model does not load");
  }
  if (io::saveModelString(again) != saved) fuzz::fail("save -> load -> save changed the text");
  return 0;
}
