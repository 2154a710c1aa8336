// Shared by the fuzz targets: reads arguments from the fuzzer's bytes, front to back, so that a seed can be written
// by hand (tests/fuzz/make_seeds.py writes the seeds with the same encoding). An exhausted input reads as zeros.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "pbd/real.h"

namespace pbd::fuzz {

/// Reports a broken invariant and aborts, which libFuzzer records as a crash (with the input that caused it).
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s\n", what);
  std::abort();
}
#define PBD_FUZZ_CHECK(cond) ((cond) ? void(0) : ::pbd::fuzz::fail(#cond " (" __FILE__ ":" PBD_FUZZ_STR(__LINE__) ")"))
#define PBD_FUZZ_STR(x) PBD_FUZZ_STR2(x)
#define PBD_FUZZ_STR2(x) #x

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return empty() ? 0 : size_ - pos_; }

  uint8_t byte() { return empty() ? 0 : data_[pos_++]; }
  bool flag() { return byte() & 1; }

  uint32_t rawU32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= uint32_t(byte()) << (8 * k);
    return v;
  }
  float rawFloat() {
    const uint32_t bits = rawU32();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

  /// One byte b: b < 16 a special value (0, ±1, NaN, ±Inf, ±huge, tiny, denormal, -0, ...); b < 240 the small
  /// value (b - 128) / 16 in [-7, 6.94] (exact, so coplanar and coincident points are common); else 4 raw bytes.
  Real real() {
    static constexpr float kSpecial[16] = {0.0f,
                                           1.0f,
                                           -1.0f,
                                           std::numeric_limits<float>::quiet_NaN(),
                                           std::numeric_limits<float>::infinity(),
                                           -std::numeric_limits<float>::infinity(),
                                           1e30f,
                                           -1e30f,
                                           std::numeric_limits<float>::max(),
                                           std::numeric_limits<float>::lowest(),
                                           std::numeric_limits<float>::min(),
                                           std::numeric_limits<float>::denorm_min(),
                                           -0.0f,
                                           1e-6f,
                                           1e6f,
                                           0.5f};
    const uint8_t b = byte();
    if (b < 16) return kSpecial[b];
    if (b < 240) return Real(int(b) - 128) / 16;
    return rawFloat();
  }
  Vec3 vec3() {
    const Real x = real(), y = real(), z = real();
    return Vec3(x, y, z);
  }

  /// An index into [0, count): b < 192 is b % count (in range; b itself when count is 0); b < 240 is b - 192 (raw,
  /// often out of range); else a special: count, count + 1, 2^24, 2^31, UINT32_MAX, or 4 raw bytes.
  uint32_t index(uint32_t count) {
    const uint8_t b = byte();
    if (b < 192) return count ? b % count : b;
    if (b < 240) return b - 192;
    switch (b % 6) {
      case 0: return count;
      case 1: return count + 1;
      case 2: return 1u << 24;
      case 3: return 1u << 31;
      case 4: return std::numeric_limits<uint32_t>::max();
      default: return rawU32();
    }
  }

  /// An int: b < 240 is lo + b % (hi - lo + 1) (in [lo, hi], the bounded range the fuzzer may use); else a value
  /// that a careful caller would never pass: 0, -1, INT_MIN, INT_MAX, 2^20 + 1, or 4 raw bytes.
  int smallInt(int lo, int hi) {
    const uint8_t b = byte();
    if (b < 240) return lo + b % (hi - lo + 1);
    switch (b % 6) {
      case 0: return 0;
      case 1: return -1;
      case 2: return std::numeric_limits<int>::min();
      case 3: return std::numeric_limits<int>::max();
      case 4: return (1 << 20) + 1;
      default: return int(rawU32());
    }
  }

  /// An enum value: usually one of the n valid ones, occasionally an unknown one (n, or 255).
  template <class E>
  E enumValue(int n) {
    const uint8_t b = byte();
    if (b < 250) return static_cast<E>(b % n);
    return static_cast<E>(b == 255 ? 255 : n);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

/// FNV-1a over raw bytes.
struct Hash {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
};

inline bool allFinite(const float* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) return false;
  }
  return true;
}

}  // namespace pbd::fuzz
