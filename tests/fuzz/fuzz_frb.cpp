// libFuzzer driver: reduced-body file (.frb) decoder.
//
// Almost every mutation of a file breaks its SHA-256, so the input is decoded twice: as it is
// (header, chunk walk, checksum) and resealed with a correct checksum, so that mutations reach
// the chunk contents as a hostile but well-checksummed file would. Resealing: an input that
// ends with a 44-byte END chunk gets its digest recomputed; any other input gets an END chunk
// appended.
//
// Invariants: a failure leaves the output untouched and says why; whatever loads is consistent
// (checkReducedBody accepts it: "a saved file always loads" read backwards), and writing it
// again gives a file that loads to the same bytes.
#include "io/fe/reduced_body_file.h"
#include "io/sha256.h"
#include "tests/fuzz/fuzz_check.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t kEndChunkBytes = 4 + 8 + 32;

std::string digestOf(std::string_view bytes) {
  flexim::io::Sha256 h;
  h.update(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  const std::array<std::uint8_t, 32> d = h.digest();
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

std::string resealed(std::string_view in) {
  static const char kEndHeader[12] = {'E', 'N', 'D', ' ', 32, 0, 0, 0, 0, 0, 0, 0};
  if (in.size() >= kEndChunkBytes && std::memcmp(in.data() + in.size() - kEndChunkBytes, kEndHeader, 12) == 0) {
    const std::string_view before = in.substr(0, in.size() - kEndChunkBytes);
    return std::string(in.substr(0, in.size() - 32)) + digestOf(before);
  }
  return std::string(in) + std::string(kEndHeader, 12) + digestOf(in);
}

void decode(std::string_view bytes) {
  using namespace flexim;
  fe::ReducedBody out;
  out.name = "untouched";
  std::string error;
  const bool ok = io::decodeReducedBody(bytes, out, &error);
  if (!ok) {
    if (error.empty()) fuzz::fail("decoder failed without a message");
    if (out.name != "untouched" || !out.coords.empty() || out.modes.size() != 0) fuzz::fail("output changed on failure");
    return;
  }
  if (!error.empty()) fuzz::fail("decoder succeeded with a message");
  if (!io::checkReducedBody(out).empty()) fuzz::fail("a loaded body fails checkReducedBody");
  const std::string again = io::encodeReducedBody(out);
  fe::ReducedBody back;
  if (!io::decodeReducedBody(again, back, &error)) fuzz::fail("a re-encoded body does not load");
  if (io::encodeReducedBody(back) != again) fuzz::fail("encode -> decode -> encode changed the bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  decode(bytes);
  decode(resealed(bytes));
  return 0;
}
