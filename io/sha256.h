// SHA-256 (FIPS 180-4), used to fingerprint the model file in result metadata.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace flexim::io {

/// Incremental hasher: update() any number of times, then digest() once.
class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view data) { update(data.data(), data.size()); }
  /// Finishes the hash; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> digest();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> m_state;
  std::array<std::uint8_t, 64> m_buffer{};
  std::size_t m_buffered = 0;
  std::uint64_t m_totalBytes = 0;
};

/// Lower-case hex of a digest.
std::string toHex(const std::array<std::uint8_t, 32>& digest);

/// Hex SHA-256 of a byte string.
std::string sha256Hex(std::string_view data);

/// Hex SHA-256 of a file's contents; false (with a reason in error, when given) if unreadable.
bool sha256FileHex(const std::string& path, std::string& hex, std::string* error = nullptr);

}  // namespace flexim::io
