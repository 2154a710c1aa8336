// Little-endian byte writer and bounds-checked reader for binary blobs (world snapshots), plus the 64-bit FNV-1a
// checksum. The reader never reads past its end: every read checks first and throws SnapshotError naming the section
// being read, how many bytes it needed and how many were left.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pbd/errors.h"

namespace pbd::io {

/// 64-bit FNV-1a of `size` bytes, continuing from `hash` (the offset basis for a fresh hash).
inline uint64_t fnv1a64(const uint8_t* data, size_t size, uint64_t hash = 1469598103934665603ull) {
  for (size_t k = 0; k < size; ++k) hash = (hash ^ data[k]) * 1099511628211ull;
  return hash;
}

/// Appends fixed-size little-endian values to a growing byte vector.
class ByteWriter {
 public:
  // Room up front: the headers then never reallocate (and GCC 12 no longer sees a write into an empty vector's
  // zero-byte buffer in the inlined growth path: its -Wstringop-overflow false positive).
  ByteWriter() { bytes_.reserve(256); }
  void u8(uint8_t v) { bytes_.push_back(v); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  /// A float by its IEEE-754 bits, so NaN payloads and -0 survive (the snapshot must round-trip bit for bit).
  void f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void bytes(const uint8_t* data, size_t size) { bytes_.insert(bytes_.end(), data, data + size); }

  /// Starts a length-prefixed block: writes a u64 placeholder and returns where, for endBlock.
  size_t beginBlock() {
    const size_t at = bytes_.size();
    u64(0);
    return at;
  }
  /// Patches the placeholder written by beginBlock with the number of bytes written since.
  void endBlock(size_t at) {
    const uint64_t length = bytes_.size() - at - 8;
    for (int k = 0; k < 8; ++k) bytes_[at + k] = uint8_t(length >> (8 * k));
  }

  size_t size() const { return bytes_.size(); }
  const uint8_t* data() const { return bytes_.data(); }
  std::vector<uint8_t>& buffer() { return bytes_; }

 private:
  void put(uint64_t v, int n) {
    for (int k = 0; k < n; ++k) bytes_.push_back(uint8_t(v >> (8 * k)));
  }
  std::vector<uint8_t> bytes_;
};

/// Reads little-endian values from [data, data + size). `context` names what is being read in error messages.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size, std::string fn, std::string context)
      : data_(data), left_(size), fn_(std::move(fn)), context_(std::move(context)) {}

  uint8_t u8() { return uint8_t(get(1)); }
  uint32_t u32() { return uint32_t(get(4)); }
  uint64_t u64() { return get(8); }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  /// Returns a pointer to the next `n` bytes and skips them.
  const uint8_t* take(uint64_t n) {
    need(n);
    const uint8_t* at = data_;
    data_ += n;
    left_ -= size_t(n);
    return at;
  }
  /// A reader over the next `n` bytes (a section's body), which this reader skips.
  ByteReader sub(uint64_t n, std::string context) {
    const uint8_t* at = take(n);
    return ByteReader(at, size_t(n), fn_, std::move(context));
  }
  /// Throws unless `n` more bytes are available.
  void need(uint64_t n) const {
    if (n > left_) {
      fail("truncated blob (" + context_ + " needs " + std::to_string(n) + " bytes, " + std::to_string(left_) + " left)");
    }
  }
  size_t left() const { return left_; }
  const std::string& context() const { return context_; }

  /// Throws SnapshotError "<fn>: <reason>".
  [[noreturn]] void fail(const std::string& reason) const { throw SnapshotError(fn_ + ": " + reason); }

 private:
  uint64_t get(int n) {
    need(uint64_t(n));
    uint64_t v = 0;
    for (int k = 0; k < n; ++k) v |= uint64_t(data_[k]) << (8 * k);
    data_ += n;
    left_ -= size_t(n);
    return v;
  }
  const uint8_t* data_;
  size_t left_;
  std::string fn_;
  std::string context_;
};

}  // namespace pbd::io
