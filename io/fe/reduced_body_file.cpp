#include "io/fe/reduced_body_file.h"

#include "core/fe/fe_model.h"
#include "io/atomic_file.h"
#include "io/sha256.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>

namespace flexim::io {

namespace {

constexpr char kMagic[8] = {'F', 'L', 'X', 'R', 'B', 'O', 'D', 'Y'};
constexpr std::size_t kHeaderBytes = 12;       // magic + u32 version
constexpr std::size_t kChunkHeaderBytes = 12;  // tag + u64 length
constexpr std::size_t kDigestBytes = 32;       // SHA-256 in the END chunk

// Chunks of format version 1, in the order they are written.
constexpr const char* kMeta = "META";
constexpr const char* kNode = "NODE";
constexpr const char* kMode = "MODE";
constexpr const char* kInvr = "INVR";
constexpr const char* kSurf = "SURF";
constexpr const char* kIntf = "INTF";
constexpr const char* kStrs = "STRS";  // optional, older readers skip it
constexpr const char* kGstf = "GSTF";  // optional, format version 2: geometric stiffening load cases
constexpr const char* kElas = "ELAS";  // optional: elastic constants per node (strains), older readers skip it
constexpr const char* kEnd = "END ";

/// What is wrong with a node's elastic constants: a node in no element has (0, 0), any other a
/// usable material.
std::string elasticityProblem(const std::array<double, 2>& constants) {
  const auto [E, nu] = constants;
  return E == 0.0 && nu == 0.0 ? std::string() : fe::elasticProblem(E, nu);
}

// Fixed byte counts per item.
constexpr std::uint64_t kNodeBytes = 4 + 3 * 8 + 8;          // id, x y z, mass
constexpr std::uint64_t kTriangleBytes = 3 * 4;
constexpr std::uint64_t kInterfaceMinBytes = 4 + 1 + 3 * 8 + 8;  // empty name, kind, reference, count
constexpr std::uint64_t kSourceMinBytes = 4 + 4;                 // two empty strings

std::string num(std::uint64_t v) { return std::to_string(v); }

// ---- writing ------------------------------------------------------------------------------

class Writer {
 public:
  std::string bytes;

  void raw(const char* p, std::size_t n) { bytes.append(p, n); }
  void u8(std::uint8_t v) { bytes.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void i32(int v) { u32(static_cast<std::uint32_t>(static_cast<std::int32_t>(v))); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes += s;
  }
  /// Any Eigen matrix, column-major.
  template <typename M>
  void matrix(const M& m) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) f64(m(i, j));
  }
  /// Writes the tag and a placeholder length; returns where the length goes.
  std::size_t beginChunk(const char* tag) {
    raw(tag, 4);
    const std::size_t at = bytes.size();
    u64(0);
    return at;
  }
  void endChunk(std::size_t at) {
    const std::uint64_t length = bytes.size() - at - 8;
    for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>((length >> (8 * i)) & 0xff);
  }
};

// ---- reading ------------------------------------------------------------------------------

/// Thrown inside the decoder only, caught in decodeReducedBody.
struct FormatError {
  std::string message;
};

[[noreturn]] void fail(std::string message) { throw FormatError{std::move(message)}; }

std::uint64_t readU64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint32_t readU32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

/// Cursor over one chunk's payload [pos, end) of the whole file. Every read is bounds-checked;
/// counts are checked against the bytes left in the chunk before anything is allocated.
class Reader {
 public:
  Reader(std::string_view file, std::size_t begin, std::size_t end, std::string tag)
      : m_data(reinterpret_cast<const unsigned char*>(file.data())), m_pos(begin), m_end(end), m_tag(std::move(tag)) {}

  std::uint64_t remaining() const { return m_end - m_pos; }
  std::size_t position() const { return m_pos; }

  [[noreturn]] void error(const std::string& what) const { fail("chunk " + m_tag + ": " + what); }

  void need(std::uint64_t bytes) const {
    if (bytes > remaining())
      error("ends at byte " + num(m_end) + " but needs " + num(bytes) + " more bytes at byte " + num(m_pos) +
            " (corrupted)");
  }
  std::uint8_t u8() {
    need(1);
    return m_data[m_pos++];
  }
  std::uint32_t u32() {
    need(4);
    const std::uint32_t v = readU32(m_data + m_pos);
    m_pos += 4;
    return v;
  }
  std::uint64_t u64() {
    need(8);
    const std::uint64_t v = readU64(m_data + m_pos);
    m_pos += 8;
    return v;
  }
  int i32() { return static_cast<int>(static_cast<std::int32_t>(u32())); }
  /// A double that must be finite; `what` names it in the error.
  double real(const char* what) {
    const std::size_t at = m_pos;
    const double v = std::bit_cast<double>(u64());
    if (!std::isfinite(v)) error(std::string(what) + ": non-finite number (NaN or Inf) at byte " + num(at));
    return v;
  }
  std::string str(const char* what) {
    const std::uint32_t n = u32();
    if (n > remaining())
      error(std::string(what) + ": string length " + num(n) + " at byte " + num(m_pos - 4) + " exceeds the chunk");
    std::string s(reinterpret_cast<const char*>(m_data + m_pos), n);
    m_pos += n;
    return s;
  }
  /// Reads a u64 count of items that take at least `itemBytes` each and checks that they fit in
  /// the rest of the chunk (so a hostile count cannot make us allocate).
  std::uint64_t count(const char* what, std::uint64_t itemBytes) {
    const std::size_t at = m_pos;
    const std::uint64_t n = u64();
    if (itemBytes > 0 && n > remaining() / itemBytes)
      error(std::string(what) + " " + num(n) + " at byte " + num(at) + " does not fit in the " + num(remaining()) +
            " bytes left in the chunk (corrupted)");
    return n;
  }
  template <typename M>
  void matrix(M& m, const char* what) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = real(what);
  }
  void finish() const {
    if (m_pos != m_end)
      error(num(m_end - m_pos) + " unexpected bytes at its end (byte " + num(m_pos) + "): corrupted or written by " +
            "an incompatible program");
  }

 private:
  const unsigned char* m_data;
  std::size_t m_pos, m_end;
  std::string m_tag;
};

/// Checked a * b (false on overflow).
bool mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

/// Number of doubles in the INVR chunk for m modes: I1, I2, I3, I4, I5, J0, J1, J2, Mbar, Kbar.
bool invariantDoubles(std::uint64_t m, std::uint64_t& out) {
  std::uint64_t mm = 0, quad = 0;
  if (!mul(m, m, mm) || !mul(mm, 14, quad)) return false;  // I5 3m^2 + J2 9m^2 + Mbar + Kbar
  const std::uint64_t lin = 15 * m;                        // I3 3m + I4 3m + J1 9m (m < 2^32 here)
  out = 13 + lin + quad;                                   // I1 1 + I2 3 + J0 9
  return out >= quad;
}

/// The tag as written in messages ("END " -> "END").
std::string shownTag(std::string tag) {
  while (!tag.empty() && tag.back() == ' ') tag.pop_back();
  return tag;
}

bool validTagByte(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ' || c == '_';
}

/// Magic and version. `bytes` may be just the start of the file; `fileSize` is the whole size.
void checkHeader(std::string_view bytes, std::uint64_t fileSize) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail("not a Flexim reduced-body file");
  if (bytes.size() < kHeaderBytes) fail("file truncated in the header at byte " + num(fileSize));
  const std::uint32_t version = readU32(reinterpret_cast<const unsigned char*>(bytes.data()) + 8);
  if (version > kReducedBodyFormatVersion)
    fail("reduced-body format version " + num(version) + " is newer than this Flexim supports (" +
         num(kReducedBodyFormatVersion) + "); update Flexim to read it");
  if (version == 0) fail("invalid reduced-body format version 0 (corrupted header)");
}

struct ChunkSpan {
  std::size_t begin = 0, end = 0;  ///< payload byte range
};

/// The payload length a known chunk's own counts call for, from the start of its payload
/// (`available` bytes of it are in the file): false when that cannot be told (a chunk of
/// variable layout, or its counts are cut off); `what` says which counts ("7 nodes"); `need`
/// stays at the largest u64 when the counts overflow any length.
bool lengthFromCounts(const std::string& tag, const unsigned char* payload, std::uint64_t available, std::string& what,
                      std::uint64_t& need) {
  need = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t product = 0;
  const auto plus = [&](std::uint64_t fixed, std::uint64_t count, std::uint64_t each) {
    if (mul(count, each, product) && product <= need - fixed) need = fixed + product;
  };
  if (tag == kNode && available >= 8) {
    const std::uint64_t n = readU64(payload);
    what = num(n) + " nodes";
    plus(8, n, kNodeBytes);
  } else if (tag == kSurf && available >= 8) {
    const std::uint64_t t = readU64(payload);
    what = num(t) + " triangles";
    plus(8, t, kTriangleBytes);
  } else if (tag == kMode && available >= 16) {
    const std::uint64_t m = readU64(payload), rows = readU64(payload + 8);
    what = num(m) + " modes of " + num(rows) + " rows";
    std::uint64_t column = 0;
    if (mul(rows, 8, column) && column <= std::numeric_limits<std::uint64_t>::max() - 9) plus(16, m, 9 + column);
  } else if (tag == kStrs && available >= 16) {
    const std::uint64_t m = readU64(payload), rows = readU64(payload + 8);
    what = "stress modes of " + num(m) + " modes of " + num(rows) + " rows";
    std::uint64_t column = 0;
    if (mul(rows, 8, column)) plus(16, m, column);
  } else if (tag == kElas && available >= 8) {
    const std::uint64_t n = readU64(payload);
    what = "elastic constants of " + num(n) + " nodes";
    plus(8, n, 16);
  } else if (tag == kGstf && available >= 16) {
    const std::uint64_t cases = readU64(payload), m = readU64(payload + 8);
    what = num(cases) + " stiffening load cases of " + num(m) + " modes";
    std::uint64_t square = 0;
    if (mul(m, m, square) && mul(square, 8, square)) plus(16, cases, square);
  } else if (tag == kInvr && available >= 8) {
    const std::uint64_t m = readU64(payload);
    what = "invariants for " + num(m) + " modes";
    std::uint64_t doubles = 0;
    if (invariantDoubles(m, doubles)) plus(8, doubles, 8);
  } else {
    return false;
  }
  return true;
}

/// Why a chunk whose length runs past the end of the file cannot be the start of a longer file
/// that was cut short ("" when it can: then the file is reported as truncated). An END chunk is
/// always 32 bytes; no file holds 2^63 bytes or more; a known chunk's length follows from its
/// counts.
std::string impossibleLength(const std::string& tag, std::uint64_t length, const unsigned char* payload,
                             std::uint64_t available) {
  if (tag == kEnd) return "";  // its length has a check of its own
  const std::string claim = "claims " + num(length) + " bytes but only " + num(available) + " remain";
  if (length >= (std::uint64_t(1) << 63)) return claim + ", more than any file can hold";
  std::string what;
  std::uint64_t need = 0;
  if (lengthFromCounts(tag, payload, available, what, need) && need != length)
    return claim + ", and its " + what +
           (need == std::numeric_limits<std::uint64_t>::max() ? " cannot fit in any file" : " need " + num(need) + " bytes");
  return "";
}

void decodeMeta(Reader r, fe::ReducedBody& b) {
  b.name = r.str("name");
  b.method = r.str("method");
  b.created = r.str("created");
  r.str("writer");  // provenance for humans ("Flexim 0.1.0"); not part of ReducedBody
  const std::uint64_t n = r.count("source count", kSourceMinBytes);
  b.sources.resize(n);
  for (fe::SourceFile& s : b.sources) {
    s.path = r.str("source path");
    s.sha256 = r.str("source sha256");
  }
  r.finish();
}

void decodeNodes(Reader r, fe::ReducedBody& b) {
  const std::uint64_t n = r.count("node count", kNodeBytes);
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) r.error("too many nodes (" + num(n) + ")");
  b.node_ids.resize(n);
  b.coords.resize(n);
  b.node_mass.resize(n);
  for (int& id : b.node_ids) id = r.i32();
  for (Eigen::Vector3d& x : b.coords)
    for (int k = 0; k < 3; ++k) x[k] = r.real("node coordinates");
  for (std::uint64_t i = 0; i < n; ++i) {
    b.node_mass[i] = r.real("node masses");
    if (b.node_mass[i] < 0) r.error("node " + std::to_string(b.node_ids[i]) + " has a negative mass");
  }
  r.finish();
  std::vector<int> sorted = b.node_ids;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) r.error("duplicate node id " + std::to_string(*dup));
}

void decodeModes(Reader r, fe::ReducedBody& b) {
  const std::uint64_t m = r.u64(), rows = r.u64();
  const std::uint64_t n = b.coords.size();
  if (rows != 3 * n)
    r.error("mode shapes have " + num(rows) + " rows, but the NODE chunk has " + num(n) + " nodes (expected " +
            num(3 * n) + " rows)");
  const std::uint64_t perMode = 1 + 8 + 8 * rows;  // kind, eigenvalue, column
  if (m > r.remaining() / perMode)
    r.error("mode count " + num(m) + " does not fit in the " + num(r.remaining()) + " bytes left (corrupted)");
  b.kinds.resize(m);
  for (std::uint64_t j = 0; j < m; ++j) {
    const std::uint8_t k = r.u8();
    if (k > static_cast<std::uint8_t>(fe::ModeKind::FixedInterface))
      r.error("unknown kind " + num(k) + " of mode " + num(j + 1));
    b.kinds[j] = static_cast<fe::ModeKind>(k);
  }
  b.eigenvalues.resize(static_cast<Eigen::Index>(m));
  for (std::uint64_t j = 0; j < m; ++j) b.eigenvalues[static_cast<Eigen::Index>(j)] = r.real("eigenvalues");
  b.modes.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(m));
  r.matrix(b.modes, "mode shapes");
  r.finish();
}

void decodeStressModes(Reader r, fe::ReducedBody& b) {
  const std::uint64_t m = r.u64(), rows = r.u64();
  const std::uint64_t n = b.coords.size();
  const auto modes = static_cast<std::uint64_t>(b.modes.cols());
  if (m != modes) r.error("stress modes are for " + num(m) + " modes, but the MODE chunk has " + num(modes));
  if (rows != 6 * n)
    r.error("stress modes have " + num(rows) + " rows, but the NODE chunk has " + num(n) + " nodes (expected " +
            num(6 * n) + " rows)");
  std::uint64_t bytes = 0;
  if (!mul(m, 8 * rows, bytes) || bytes != r.remaining())
    r.error("has " + num(r.remaining()) + " bytes of stress modes, expected " + num(bytes) + " (corrupted)");
  b.stress_modes.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(m));
  r.matrix(b.stress_modes, "stress modes");
  r.finish();
}

void decodeElasticity(Reader r, fe::ReducedBody& b) {
  const std::uint64_t n = r.u64();
  if (n != b.coords.size()) r.error("has elastic constants of " + num(n) + " nodes, but the NODE chunk has " + num(b.coords.size()));
  if (n > r.remaining() / 16) r.error("node count " + num(n) + " does not fit in the " + num(r.remaining()) + " bytes left (corrupted)");
  b.node_elasticity.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double E = r.real("Young's modulus"), nu = r.real("Poisson's ratio");
    if (const std::string p = elasticityProblem({E, nu}); !p.empty()) r.error("node " + num(i + 1) + ": " + p);
    b.node_elasticity[i] = {E, nu};
  }
  r.finish();
}

void decodeGeometricStiffness(Reader r, fe::ReducedBody& b) {
  const std::uint64_t cases = r.u64(), m = r.u64();
  const auto modes = static_cast<std::uint64_t>(b.modes.cols());
  const auto expected = static_cast<std::uint64_t>(fe::kInertiaLoadCases) + 6 * b.interfaces.size();
  if (m != modes) r.error("geometric stiffness is for " + num(m) + " modes, but the MODE chunk has " + num(modes));
  if (cases != expected)
    r.error("has " + num(cases) + " stiffening load cases, expected " + num(expected) + " (12 + 6 per interface)");
  std::uint64_t bytes = 0;
  if (!mul(m * m, 8 * cases, bytes) || bytes != r.remaining())
    r.error("has " + num(r.remaining()) + " bytes of geometric stiffness, expected " + num(bytes) + " (corrupted)");
  b.geometric_stiffness.assign(static_cast<std::size_t>(cases), Eigen::MatrixXd(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m)));
  for (Eigen::MatrixXd& k : b.geometric_stiffness) r.matrix(k, "geometric stiffness");
  r.finish();
}

void decodeInvariants(Reader r, fe::ReducedBody& b) {
  const std::uint64_t m = r.u64();
  const auto modes = static_cast<std::uint64_t>(b.modes.cols());
  if (m != modes) r.error("invariants are for " + num(m) + " modes, but the MODE chunk has " + num(modes));
  std::uint64_t doubles = 0, bytes = 0;
  if (!invariantDoubles(m, doubles) || !mul(doubles, 8, bytes) || bytes != r.remaining())
    r.error("has " + num(r.remaining()) + " bytes of invariants, expected " + num(bytes) + " for " + num(m) +
            " modes (corrupted)");
  const auto mi = static_cast<Eigen::Index>(m);
  fe::ModalInvariants& inv = b.invariants;
  inv.I1 = r.real("I1");
  r.matrix(inv.I2, "I2");
  inv.I3.resize(3, mi);
  r.matrix(inv.I3, "I3");
  inv.I4.resize(3, mi);
  r.matrix(inv.I4, "I4");
  inv.I5.assign(m, Eigen::MatrixXd(3, mi));
  for (Eigen::MatrixXd& x : inv.I5) r.matrix(x, "I5");
  r.matrix(inv.J0, "J0");
  inv.J1.resize(m);
  for (Eigen::Matrix3d& x : inv.J1) r.matrix(x, "J1");
  inv.J2.resize(m * m);
  for (Eigen::Matrix3d& x : inv.J2) r.matrix(x, "J2");
  inv.Mbar.resize(mi, mi);
  r.matrix(inv.Mbar, "Mbar");
  inv.Kbar.resize(mi, mi);
  r.matrix(inv.Kbar, "Kbar");
  r.finish();
}

void decodeSurface(Reader r, fe::ReducedBody& b) {
  const std::uint64_t count = r.count("triangle count", kTriangleBytes);
  const int n = static_cast<int>(b.coords.size());
  b.surface.resize(count);
  for (std::uint64_t t = 0; t < count; ++t)
    for (int k = 0; k < 3; ++k) {
      const int v = r.i32();
      if (v < 0 || v >= n)
        r.error("triangle " + num(t) + " refers to node index " + std::to_string(v) + ", but there are " +
                std::to_string(n) + " nodes");
      b.surface[t][k] = v;
    }
  r.finish();
}

void decodeInterfaces(Reader r, fe::ReducedBody& b) {
  const std::uint64_t count = r.count("interface count", kInterfaceMinBytes);
  const int n = static_cast<int>(b.coords.size());
  b.interfaces.resize(count);
  for (fe::Interface& f : b.interfaces) {
    f.name = r.str("interface name");
    const std::uint8_t kind = r.u8();
    if (kind > static_cast<std::uint8_t>(fe::Interface::Kind::Averaging))
      r.error("interface '" + f.name + "' has unknown kind " + num(kind));
    f.kind = static_cast<fe::Interface::Kind>(kind);
    r.matrix(f.reference, "interface reference point");
    f.nodes.resize(r.count("interface node count", 4));
    for (int& v : f.nodes) {
      v = r.i32();
      if (v < 0 || v >= n)
        r.error("interface '" + f.name + "' refers to node index " + std::to_string(v) + ", but there are " +
                std::to_string(n) + " nodes");
    }
  }
  r.finish();
}

// ---- consistency check before saving ---------------------------------------------------------

template <typename M>
bool allFinite(const M& m) {
  return m.array().isFinite().all();
}

std::string shape(const Eigen::MatrixXd& m) { return std::to_string(m.rows()) + " x " + std::to_string(m.cols()); }

}  // namespace

std::string checkReducedBody(const fe::ReducedBody& b) {
  const std::size_t n = b.coords.size();
  if (b.node_ids.size() != n || b.node_mass.size() != n)
    return "node arrays differ in length (" + std::to_string(b.node_ids.size()) + " ids, " + std::to_string(n) +
           " coordinates, " + std::to_string(b.node_mass.size()) + " masses)";
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return "too many nodes";
  for (std::size_t i = 0; i < n; ++i) {
    if (!allFinite(b.coords[i])) return "node " + std::to_string(b.node_ids[i]) + " has a non-finite coordinate";
    if (!std::isfinite(b.node_mass[i]) || b.node_mass[i] < 0)
      return "node " + std::to_string(b.node_ids[i]) + " has an invalid mass";
  }
  std::vector<int> sorted = b.node_ids;
  std::sort(sorted.begin(), sorted.end());
  if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
    return "duplicate node id " + std::to_string(*dup);

  const Eigen::Index m = b.modes.cols();
  if (m > 0 && b.modes.rows() != static_cast<Eigen::Index>(3 * n))
    return "mode shapes are " + shape(b.modes) + ", expected " + std::to_string(3 * n) + " rows (3 per node)";
  if (!allFinite(b.modes)) return "mode shapes contain NaN or Inf";
  if (static_cast<Eigen::Index>(b.kinds.size()) != m)
    return std::to_string(b.kinds.size()) + " mode kinds for " + std::to_string(m) + " modes";
  for (fe::ModeKind k : b.kinds)
    if (static_cast<unsigned>(k) > static_cast<unsigned>(fe::ModeKind::FixedInterface)) return "invalid mode kind";
  if (b.eigenvalues.size() != m)
    return std::to_string(b.eigenvalues.size()) + " eigenvalues for " + std::to_string(m) + " modes";
  if (!allFinite(b.eigenvalues)) return "eigenvalues contain NaN or Inf";
  if (b.stress_modes.size() > 0 &&
      (b.stress_modes.rows() != static_cast<Eigen::Index>(6 * n) || b.stress_modes.cols() != m))
    return "stress modes are " + shape(b.stress_modes) + ", expected " + std::to_string(6 * n) + " x " + std::to_string(m);
  if (!allFinite(b.stress_modes)) return "stress modes contain NaN or Inf";
  if (!b.node_elasticity.empty() && b.node_elasticity.size() != n)
    return "elastic constants of " + std::to_string(b.node_elasticity.size()) + " nodes, expected " + std::to_string(n);
  for (std::size_t i = 0; i < b.node_elasticity.size(); ++i)
    if (const std::string p = elasticityProblem(b.node_elasticity[i]); !p.empty())
      return "node " + std::to_string(b.node_ids[i]) + ": " + p;
  if (!b.geometric_stiffness.empty()) {
    const std::size_t cases = static_cast<std::size_t>(fe::kInertiaLoadCases) + 6 * b.interfaces.size();
    if (b.geometric_stiffness.size() != cases)
      return std::to_string(b.geometric_stiffness.size()) + " stiffening load cases, expected " + std::to_string(cases) +
             " (12 + 6 per interface)";
    for (const Eigen::MatrixXd& k : b.geometric_stiffness) {
      if (k.rows() != m || k.cols() != m)
        return "a geometric stiffness is " + shape(k) + ", expected " + std::to_string(m) + " x " + std::to_string(m);
      if (!allFinite(k)) return "geometric stiffness contains NaN or Inf";
    }
  }

  const fe::ModalInvariants& inv = b.invariants;
  const auto sized = [m](const Eigen::MatrixXd& x, Eigen::Index rows) {
    return (x.rows() == rows && x.cols() == m) || (m == 0 && x.size() == 0);
  };
  if (!sized(inv.I3, 3) || !sized(inv.I4, 3)) return "invariants I3/I4 are not 3 x " + std::to_string(m);
  if (!sized(inv.Mbar, m) || !sized(inv.Kbar, m))
    return "invariants Mbar/Kbar are not " + std::to_string(m) + " x " + std::to_string(m);
  if (static_cast<Eigen::Index>(inv.I5.size()) != m || static_cast<Eigen::Index>(inv.J1.size()) != m ||
      static_cast<Eigen::Index>(inv.J2.size()) != m * m)
    return "invariants I5/J1/J2 have " + std::to_string(inv.I5.size()) + "/" + std::to_string(inv.J1.size()) + "/" +
           std::to_string(inv.J2.size()) + " entries, expected " + std::to_string(m) + "/" + std::to_string(m) +
           "/" + std::to_string(m * m);
  for (const Eigen::MatrixXd& x : inv.I5)
    if (!sized(x, 3)) return "an I5 entry is not 3 x " + std::to_string(m);
  bool finite = std::isfinite(inv.I1) && allFinite(inv.I2) && allFinite(inv.I3) && allFinite(inv.I4) &&
                allFinite(inv.J0) && allFinite(inv.Mbar) && allFinite(inv.Kbar);
  for (const Eigen::MatrixXd& x : inv.I5) finite = finite && allFinite(x);
  for (const Eigen::Matrix3d& x : inv.J1) finite = finite && allFinite(x);
  for (const Eigen::Matrix3d& x : inv.J2) finite = finite && allFinite(x);
  if (!finite) return "invariants contain NaN or Inf";

  const auto inRange = [n](int v) { return v >= 0 && static_cast<std::size_t>(v) < n; };
  for (std::size_t t = 0; t < b.surface.size(); ++t)
    for (int v : b.surface[t])
      if (!inRange(v)) return "surface triangle " + std::to_string(t) + " refers to node index " + std::to_string(v);
  for (const fe::Interface& f : b.interfaces) {
    if (static_cast<unsigned>(f.kind) > static_cast<unsigned>(fe::Interface::Kind::Averaging))
      return "interface '" + f.name + "' has an invalid kind";
    if (!allFinite(f.reference)) return "interface '" + f.name + "' has a non-finite reference point";
    for (int v : f.nodes)
      if (!inRange(v)) return "interface '" + f.name + "' refers to node index " + std::to_string(v);
  }
  constexpr std::size_t maxString = std::numeric_limits<std::uint32_t>::max();
  bool shortStrings = b.name.size() <= maxString && b.method.size() <= maxString && b.created.size() <= maxString;
  for (const fe::SourceFile& s : b.sources)
    shortStrings = shortStrings && s.path.size() <= maxString && s.sha256.size() <= maxString;
  for (const fe::Interface& f : b.interfaces) shortStrings = shortStrings && f.name.size() <= maxString;
  if (!shortStrings) return "a text field is longer than 4 GiB";
  return {};
}

std::string encodeReducedBody(const fe::ReducedBody& b) {
  const std::size_t n = b.coords.size();
  const auto m = static_cast<std::size_t>(b.modes.cols());
  Writer w;
  w.bytes.reserve(256 + n * kNodeBytes + m * (9 + 24 * n) + 8 * (13 + 15 * m + 14 * m * m) +
                  b.surface.size() * kTriangleBytes);
  w.raw(kMagic, sizeof kMagic);
  w.u32(kReducedBodyFormatVersion);

  std::size_t at = w.beginChunk(kMeta);
  w.str(b.name);
  w.str(b.method);
  w.str(b.created);
  w.str(std::string("Flexim ") + FLEXIM_VERSION);
  w.u64(b.sources.size());
  for (const fe::SourceFile& s : b.sources) {
    w.str(s.path);
    w.str(s.sha256);
  }
  w.endChunk(at);

  at = w.beginChunk(kNode);
  w.u64(n);
  for (int id : b.node_ids) w.i32(id);
  for (const Eigen::Vector3d& x : b.coords) w.matrix(x);
  for (double mass : b.node_mass) w.f64(mass);
  w.endChunk(at);

  at = w.beginChunk(kMode);
  w.u64(m);
  w.u64(3 * n);
  for (fe::ModeKind k : b.kinds) w.u8(static_cast<std::uint8_t>(k));
  for (Eigen::Index j = 0; j < b.eigenvalues.size(); ++j) w.f64(b.eigenvalues[j]);
  if (m > 0) w.matrix(b.modes);
  w.endChunk(at);

  const fe::ModalInvariants& inv = b.invariants;
  at = w.beginChunk(kInvr);
  w.u64(m);
  w.f64(inv.I1);
  w.matrix(inv.I2);
  w.matrix(inv.I3);
  w.matrix(inv.I4);
  for (const Eigen::MatrixXd& x : inv.I5) w.matrix(x);
  w.matrix(inv.J0);
  for (const Eigen::Matrix3d& x : inv.J1) w.matrix(x);
  for (const Eigen::Matrix3d& x : inv.J2) w.matrix(x);
  w.matrix(inv.Mbar);
  w.matrix(inv.Kbar);
  w.endChunk(at);

  at = w.beginChunk(kSurf);
  w.u64(b.surface.size());
  for (const auto& t : b.surface)
    for (int v : t) w.i32(v);
  w.endChunk(at);

  at = w.beginChunk(kIntf);
  w.u64(b.interfaces.size());
  for (const fe::Interface& f : b.interfaces) {
    w.str(f.name);
    w.u8(static_cast<std::uint8_t>(f.kind));
    w.matrix(f.reference);
    w.u64(f.nodes.size());
    for (int v : f.nodes) w.i32(v);
  }
  w.endChunk(at);

  if (b.stress_modes.size() > 0) {
    at = w.beginChunk(kStrs);
    w.u64(static_cast<std::uint64_t>(b.stress_modes.cols()));
    w.u64(static_cast<std::uint64_t>(b.stress_modes.rows()));
    w.matrix(b.stress_modes);
    w.endChunk(at);
  }

  if (!b.node_elasticity.empty()) {
    at = w.beginChunk(kElas);
    w.u64(b.node_elasticity.size());
    for (const auto& [E, nu] : b.node_elasticity) {
      w.f64(E);
      w.f64(nu);
    }
    w.endChunk(at);
  }

  if (!b.geometric_stiffness.empty()) {
    at = w.beginChunk(kGstf);
    w.u64(b.geometric_stiffness.size());
    w.u64(m);
    for (const Eigen::MatrixXd& k : b.geometric_stiffness) w.matrix(k);
    w.endChunk(at);
  }

  const std::array<std::uint8_t, 32> digest = [&] {
    Sha256 h;
    h.update(w.bytes);
    return h.digest();
  }();
  at = w.beginChunk(kEnd);
  w.raw(reinterpret_cast<const char*>(digest.data()), digest.size());
  w.endChunk(at);
  return std::move(w.bytes);
}

bool decodeReducedBody(std::string_view bytes, fe::ReducedBody& out, std::string* error) {
  try {
    checkHeader(bytes, bytes.size());
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t size = bytes.size();

    // 1. chunk structure: every length must fit in the file; the END chunk closes it
    std::map<std::string, ChunkSpan> chunks;
    std::size_t pos = kHeaderBytes, endChunk = 0;
    bool ended = false;
    while (pos < size) {
      if (size - pos < kChunkHeaderBytes) fail("file truncated in a chunk header at byte " + num(size));
      for (int i = 0; i < 4; ++i)
        if (!validTagByte(data[pos + i])) fail("corrupted chunk header at byte " + num(pos) + " (invalid tag)");
      const std::string tag(reinterpret_cast<const char*>(data + pos), 4);
      const std::uint64_t length = readU64(data + pos + 4);
      const std::size_t begin = pos + kChunkHeaderBytes;
      if (tag == kEnd && length != kDigestBytes)
        fail("END chunk at byte " + num(pos) + " has length " + num(length) + ", expected " + num(kDigestBytes) +
             " (corrupted)");
      if (length > size - begin) {
        // a length past the end: a file cut short, unless no complete file could have it
        if (const std::string why = impossibleLength(tag, length, data + begin, size - begin); !why.empty())
          fail("corrupted chunk " + shownTag(tag) + " at byte " + num(pos) + ": " + why);
        fail("file truncated in chunk " + shownTag(tag) + " at byte " + num(size));
      }
      const ChunkSpan span{begin, begin + static_cast<std::size_t>(length)};
      if (tag == kEnd) {
        if (span.end != size)
          fail(num(size - span.end) + " bytes of unexpected data after the END chunk at byte " + num(span.end));
        endChunk = pos;
        ended = true;
        break;
      }
      const bool known = tag == kMeta || tag == kNode || tag == kMode || tag == kInvr || tag == kSurf || tag == kIntf ||
                         tag == kStrs || tag == kGstf || tag == kElas;
      if (known && !chunks.emplace(tag, span).second) fail("duplicate chunk " + shownTag(tag) + " at byte " + num(pos));
      // unknown chunks (written by a newer Flexim) are skipped
      pos = span.end;
    }
    if (!ended) fail("file truncated at byte " + num(size) + " (the END chunk is missing)");

    // 2. checksum over everything before the END chunk
    Sha256 h;
    h.update(data, endChunk);
    const std::array<std::uint8_t, 32> digest = h.digest();
    if (std::memcmp(digest.data(), data + endChunk + kChunkHeaderBytes, kDigestBytes) != 0)
      fail("checksum mismatch: file corrupted");

    // 3. contents, in dependency order
    for (const char* tag : {kMeta, kNode, kMode, kInvr})
      if (!chunks.count(tag)) fail(std::string("required chunk ") + tag + " is missing");
    const auto reader = [&](const char* tag) {
      const ChunkSpan& s = chunks.at(tag);
      return Reader(bytes, s.begin, s.end, tag);
    };
    fe::ReducedBody b;
    decodeMeta(reader(kMeta), b);
    decodeNodes(reader(kNode), b);
    decodeModes(reader(kMode), b);
    decodeInvariants(reader(kInvr), b);
    if (chunks.count(kSurf)) decodeSurface(reader(kSurf), b);
    if (chunks.count(kIntf)) decodeInterfaces(reader(kIntf), b);
    if (chunks.count(kStrs)) decodeStressModes(reader(kStrs), b);
    if (chunks.count(kGstf)) decodeGeometricStiffness(reader(kGstf), b);
    if (chunks.count(kElas)) decodeElasticity(reader(kElas), b);
    out = std::move(b);
    return true;
  } catch (const FormatError& e) {
    if (error) *error = e.message;
  } catch (const std::bad_alloc&) {
    if (error) *error = "out of memory while reading the reduced body";
  }
  return false;
}

bool saveReducedBody(const fe::ReducedBody& body, const std::string& path, std::string* error) {
  const auto failed = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (const std::string why = checkReducedBody(body); !why.empty())
    return failed("cannot save reduced body '" + body.name + "': " + why);
  const std::string bytes = encodeReducedBody(body);

  return writeFileAtomically(path, bytes, error);
}

bool loadReducedBody(const std::string& path, fe::ReducedBody& out, std::string* error) {
  const auto failed = [&](const std::string& why) {
    if (error) *error = "'" + path + "': " + why;
    return false;
  };
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return failed("cannot read: " + ec.message());
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return failed(std::string("cannot read: ") + std::strerror(errno));

  // the header first, so that a large file of another kind is not read at all
  std::string bytes(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kHeaderBytes)), '\0');
  if (std::fread(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
    return failed(std::string("cannot read: ") + std::strerror(errno));
  try {
    checkHeader(bytes, size);
  } catch (const FormatError& e) {
    return failed(e.message);
  }
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    return failed("not enough memory to read " + num(size) + " bytes");
  }
  const std::size_t rest = bytes.size() - kHeaderBytes;
  const std::size_t got = std::fread(bytes.data() + kHeaderBytes, 1, rest, f.get());
  if (got != rest) {
    if (std::ferror(f.get())) return failed(std::string("cannot read: ") + std::strerror(errno));
    bytes.resize(kHeaderBytes + got);  // the file shrank while reading: report it as truncated
  }
  std::string why;
  if (!decodeReducedBody(bytes, out, &why)) return failed(why);
  return true;
}

}  // namespace flexim::io
