// Four floats processed together: wasm SIMD128 under Emscripten with -msimd128, SSE on x86, NEON on 64-bit Arm,
// scalar elsewhere (32-bit Arm too: its NEON has no vector divide or square root).
// Eigen 3.4 has no wasm SIMD backend, so the batched loops over flat SoA arrays use this instead.
// Every operation is an exact IEEE single-precision op lane by lane, and min/max/select are defined by compares, so
// all three paths give identical bits (no fused multiply-add: the build uses -ffp-contract=off).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define PBD_WIDE_WASM 1
#elif defined(__SSE2__)
#include <immintrin.h>
#define PBD_WIDE_SSE 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define PBD_WIDE_NEON 1
#endif

namespace pbd {

/// Which path this build compiled, for tests and benchmarks to report.
#if PBD_WIDE_WASM
inline constexpr const char* kWideFloatPath = "wasm simd128";
#elif PBD_WIDE_SSE
inline constexpr const char* kWideFloatPath = "sse";
#elif PBD_WIDE_NEON
inline constexpr const char* kWideFloatPath = "neon";
#else
inline constexpr const char* kWideFloatPath = "scalar";
#endif

#if PBD_WIDE_WASM
/// v unchanged, hidden from LLVM's instruction combining (an empty asm statement, no instruction): it turns an and
/// with a compare's mask into a bitselect with zero and a xor with the sign bits into a neg, each three instructions
/// in V8's code where the and and the xor are one.
inline v128_t opaque(v128_t v) {
  __asm__("" : "+r"(v));
  return v;
}

/// Per-lane booleans (all bits set = true).
struct Mask4 {
  v128_t m;
  friend Mask4 operator&(Mask4 a, Mask4 b) { return {wasm_v128_and(a.m, b.m)}; }
  friend Mask4 operator|(Mask4 a, Mask4 b) { return {wasm_v128_or(a.m, b.m)}; }
  /// True when every lane is true.
  friend bool all(Mask4 a) { return wasm_i32x4_all_true(a.m); }
  /// True when any lane is true.
  friend bool any(Mask4 a) { return wasm_v128_any_true(a.m); }
};
struct Float4 {
  v128_t v;
  static Float4 load(const float* p) { return {wasm_v128_load(p)}; }
  static Float4 splat(float s) { return {wasm_f32x4_splat(s)}; }
  static Float4 make(float a, float b, float c, float d) { return {wasm_f32x4_make(a, b, c, d)}; }
  void store(float* p) const { wasm_v128_store(p, v); }
  /// Lane k = *pk: one load-into-lane instruction per lane (wasm_f32x4_make of four loads costs a load and a
  /// replace_lane each).
  static Float4 gather(const float* a, const float* b, const float* c, const float* d) {
    v128_t r = wasm_v128_load32_zero(a);
    r = wasm_v128_load32_lane(b, r, 1);
    r = wasm_v128_load32_lane(c, r, 2);
    return {wasm_v128_load32_lane(d, r, 3)};
  }
  /// *pk = lane k: one store-from-lane instruction per lane.
  void scatter(float* a, float* b, float* c, float* d) const {
    wasm_v128_store32_lane(a, v, 0);
    wasm_v128_store32_lane(b, v, 1);
    wasm_v128_store32_lane(c, v, 2);
    wasm_v128_store32_lane(d, v, 3);
  }
  template <int k>
  float lane() const { return wasm_f32x4_extract_lane(v, k); }
  /// Lane k gets lane k + 1 (lane 3 gets lane 0), and back.
  Float4 rotatedDown() const { return {wasm_i32x4_shuffle(v, v, 1, 2, 3, 0)}; }
  Float4 rotatedUp() const { return {wasm_i32x4_shuffle(v, v, 3, 0, 1, 2)}; }
  /// Rows to columns: four xyzw particles in, x y z w of the four out, and back (it is its own inverse).
  friend void transpose(Float4& a, Float4& b, Float4& c, Float4& d) {
    const v128_t ab01 = wasm_i32x4_shuffle(a.v, b.v, 0, 4, 1, 5), cd01 = wasm_i32x4_shuffle(c.v, d.v, 0, 4, 1, 5);
    const v128_t ab23 = wasm_i32x4_shuffle(a.v, b.v, 2, 6, 3, 7), cd23 = wasm_i32x4_shuffle(c.v, d.v, 2, 6, 3, 7);
    a.v = wasm_i32x4_shuffle(ab01, cd01, 0, 1, 4, 5);
    b.v = wasm_i32x4_shuffle(ab01, cd01, 2, 3, 6, 7);
    c.v = wasm_i32x4_shuffle(ab23, cd23, 0, 1, 4, 5);
    d.v = wasm_i32x4_shuffle(ab23, cd23, 2, 3, 6, 7);
  }
  friend Float4 operator+(Float4 a, Float4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
  friend Float4 operator/(Float4 a, Float4 b) { return {wasm_f32x4_div(a.v, b.v)}; }
  /// The sign bit flipped, as f32x4.neg does.
  friend Float4 operator-(Float4 a) { return {wasm_v128_xor(a.v, opaque(wasm_i32x4_const_splat(INT32_MIN)))}; }
  friend Float4 sqrt(Float4 a) { return {wasm_f32x4_sqrt(a.v)}; }
  friend Mask4 operator<(Float4 a, Float4 b) { return {wasm_f32x4_lt(a.v, b.v)}; }
  friend Mask4 operator>(Float4 a, Float4 b) { return {wasm_f32x4_gt(a.v, b.v)}; }
  friend Mask4 operator!=(Float4 a, Float4 b) { return {wasm_f32x4_ne(a.v, b.v)}; }
  friend Mask4 operator==(Float4 a, Float4 b) { return {wasm_f32x4_eq(a.v, b.v)}; }
  friend Mask4 operator<=(Float4 a, Float4 b) { return {wasm_f32x4_le(a.v, b.v)}; }
  /// True where the sign bit is set (-0 and negative NaNs included), like std::signbit.
  friend Mask4 signbit(Float4 a) { return {wasm_i32x4_shr(a.v, 31)}; }
  /// mask ? a : b, lane by lane.
  friend Float4 select(Mask4 mask, Float4 a, Float4 b) { return {wasm_v128_bitselect(a.v, b.v, mask.m)}; }
  /// mask ? a : +0, lane by lane: one and, where select(mask, a, 0) is three instructions in V8.
  friend Float4 selectOrZero(Mask4 mask, Float4 a) { return {wasm_v128_and(a.v, opaque(mask.m))}; }
  /// b < a ? b : a and a < b ? b : a, lane by lane (wasm's pseudo-min and -max: one instruction, unlike a select).
  friend Float4 pmin(Float4 a, Float4 b) { return {wasm_f32x4_pmin(a.v, b.v)}; }
  friend Float4 pmax(Float4 a, Float4 b) { return {wasm_f32x4_pmax(a.v, b.v)}; }
};
#elif PBD_WIDE_SSE
struct Mask4 {
  __m128 m;
  friend Mask4 operator&(Mask4 a, Mask4 b) { return {_mm_and_ps(a.m, b.m)}; }
  friend Mask4 operator|(Mask4 a, Mask4 b) { return {_mm_or_ps(a.m, b.m)}; }
  friend bool all(Mask4 a) { return _mm_movemask_ps(a.m) == 0xF; }
  friend bool any(Mask4 a) { return _mm_movemask_ps(a.m) != 0; }
};
struct Float4 {
  __m128 v;
  static Float4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  static Float4 splat(float s) { return {_mm_set1_ps(s)}; }
  static Float4 make(float a, float b, float c, float d) { return {_mm_setr_ps(a, b, c, d)}; }
  void store(float* p) const { _mm_storeu_ps(p, v); }
  static Float4 gather(const float* a, const float* b, const float* c, const float* d) { return make(*a, *b, *c, *d); }
  void scatter(float* a, float* b, float* c, float* d) const {
    _mm_store_ss(a, v);
    _mm_store_ss(b, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1)));
    _mm_store_ss(c, _mm_movehl_ps(v, v));
    _mm_store_ss(d, _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 3)));
  }
  template <int k>
  float lane() const { return _mm_cvtss_f32(_mm_shuffle_ps(v, v, _MM_SHUFFLE(k, k, k, k))); }
  Float4 rotatedDown() const { return {_mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 3, 2, 1))}; }
  Float4 rotatedUp() const { return {_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 1, 0, 3))}; }
  friend void transpose(Float4& a, Float4& b, Float4& c, Float4& d) { _MM_TRANSPOSE4_PS(a.v, b.v, c.v, d.v); }
  friend Float4 operator+(Float4 a, Float4 b) { return {_mm_add_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {_mm_sub_ps(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {_mm_mul_ps(a.v, b.v)}; }
  friend Float4 operator/(Float4 a, Float4 b) { return {_mm_div_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
  friend Float4 sqrt(Float4 a) { return {_mm_sqrt_ps(a.v)}; }
  friend Mask4 operator<(Float4 a, Float4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
  friend Mask4 operator>(Float4 a, Float4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
  friend Mask4 operator!=(Float4 a, Float4 b) { return {_mm_cmpneq_ps(a.v, b.v)}; }
  friend Mask4 operator==(Float4 a, Float4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
  friend Mask4 operator<=(Float4 a, Float4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
  friend Mask4 signbit(Float4 a) { return {_mm_castsi128_ps(_mm_srai_epi32(_mm_castps_si128(a.v), 31))}; }
  friend Float4 select(Mask4 mask, Float4 a, Float4 b) {
    return {_mm_or_ps(_mm_and_ps(mask.m, a.v), _mm_andnot_ps(mask.m, b.v))};
  }
  friend Float4 selectOrZero(Mask4 mask, Float4 a) { return {_mm_and_ps(mask.m, a.v)}; }
  // minps(x, y) = x < y ? x : y, maxps(x, y) = x > y ? x : y: with the operands swapped, exactly pmin and pmax.
  friend Float4 pmin(Float4 a, Float4 b) { return {_mm_min_ps(b.v, a.v)}; }
  friend Float4 pmax(Float4 a, Float4 b) { return {_mm_max_ps(b.v, a.v)}; }
};
#elif PBD_WIDE_NEON
struct Mask4 {
  uint32x4_t m;
  friend Mask4 operator&(Mask4 a, Mask4 b) { return {vandq_u32(a.m, b.m)}; }
  friend Mask4 operator|(Mask4 a, Mask4 b) { return {vorrq_u32(a.m, b.m)}; }
  friend bool all(Mask4 a) { return vminvq_u32(a.m) != 0; }
  friend bool any(Mask4 a) { return vmaxvq_u32(a.m) != 0; }
};
struct Float4 {
  float32x4_t v;
  static Float4 load(const float* p) { return {vld1q_f32(p)}; }
  static Float4 splat(float s) { return {vdupq_n_f32(s)}; }
  static Float4 make(float a, float b, float c, float d) {
    const float lanes[4] = {a, b, c, d};
    return {vld1q_f32(lanes)};
  }
  void store(float* p) const { vst1q_f32(p, v); }
  static Float4 gather(const float* a, const float* b, const float* c, const float* d) {
    float32x4_t r = vld1q_dup_f32(a);
    r = vld1q_lane_f32(b, r, 1);
    r = vld1q_lane_f32(c, r, 2);
    return {vld1q_lane_f32(d, r, 3)};
  }
  void scatter(float* a, float* b, float* c, float* d) const {
    vst1q_lane_f32(a, v, 0);
    vst1q_lane_f32(b, v, 1);
    vst1q_lane_f32(c, v, 2);
    vst1q_lane_f32(d, v, 3);
  }
  template <int k>
  float lane() const { return vgetq_lane_f32(v, k); }
  Float4 rotatedDown() const { return {vextq_f32(v, v, 1)}; }
  Float4 rotatedUp() const { return {vextq_f32(v, v, 3)}; }
  /// 32-bit transposes of the pairs (a b), (c d), then 64-bit ones across them.
  friend void transpose(Float4& a, Float4& b, Float4& c, Float4& d) {
    const float64x2_t ab02 = vreinterpretq_f64_f32(vtrn1q_f32(a.v, b.v)), ab13 = vreinterpretq_f64_f32(vtrn2q_f32(a.v, b.v));
    const float64x2_t cd02 = vreinterpretq_f64_f32(vtrn1q_f32(c.v, d.v)), cd13 = vreinterpretq_f64_f32(vtrn2q_f32(c.v, d.v));
    a.v = vreinterpretq_f32_f64(vtrn1q_f64(ab02, cd02));
    b.v = vreinterpretq_f32_f64(vtrn1q_f64(ab13, cd13));
    c.v = vreinterpretq_f32_f64(vtrn2q_f64(ab02, cd02));
    d.v = vreinterpretq_f32_f64(vtrn2q_f64(ab13, cd13));
  }
  friend Float4 operator+(Float4 a, Float4 b) { return {vaddq_f32(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {vsubq_f32(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {vmulq_f32(a.v, b.v)}; }
  friend Float4 operator/(Float4 a, Float4 b) { return {vdivq_f32(a.v, b.v)}; }
  friend Float4 operator-(Float4 a) { return {vnegq_f32(a.v)}; }
  friend Float4 sqrt(Float4 a) { return {vsqrtq_f32(a.v)}; }
  friend Mask4 operator<(Float4 a, Float4 b) { return {vcltq_f32(a.v, b.v)}; }
  friend Mask4 operator>(Float4 a, Float4 b) { return {vcgtq_f32(a.v, b.v)}; }
  friend Mask4 operator!=(Float4 a, Float4 b) { return {vmvnq_u32(vceqq_f32(a.v, b.v))}; }
  friend Mask4 operator==(Float4 a, Float4 b) { return {vceqq_f32(a.v, b.v)}; }
  friend Mask4 operator<=(Float4 a, Float4 b) { return {vcleq_f32(a.v, b.v)}; }
  friend Mask4 signbit(Float4 a) { return {vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_f32(a.v), 31))}; }
  friend Float4 select(Mask4 mask, Float4 a, Float4 b) { return {vbslq_f32(mask.m, a.v, b.v)}; }
  friend Float4 selectOrZero(Mask4 mask, Float4 a) {
    return {vreinterpretq_f32_u32(vandq_u32(mask.m, vreinterpretq_u32_f32(a.v)))};
  }
  // NEON's vminq/vmaxq return NaN for a NaN operand and order -0 below +0, unlike pmin/pmax: compare and select.
  friend Float4 pmin(Float4 a, Float4 b) { return {vbslq_f32(vcltq_f32(b.v, a.v), b.v, a.v)}; }
  friend Float4 pmax(Float4 a, Float4 b) { return {vbslq_f32(vcltq_f32(a.v, b.v), b.v, a.v)}; }
};
#else
struct Mask4 {
  bool m[4];
  friend Mask4 operator&(Mask4 a, Mask4 b) { return {{a.m[0] && b.m[0], a.m[1] && b.m[1], a.m[2] && b.m[2], a.m[3] && b.m[3]}}; }
  friend Mask4 operator|(Mask4 a, Mask4 b) { return {{a.m[0] || b.m[0], a.m[1] || b.m[1], a.m[2] || b.m[2], a.m[3] || b.m[3]}}; }
  friend bool all(Mask4 a) { return a.m[0] && a.m[1] && a.m[2] && a.m[3]; }
  friend bool any(Mask4 a) { return a.m[0] || a.m[1] || a.m[2] || a.m[3]; }
};
struct Float4 {
  float v[4];
  static Float4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
  static Float4 splat(float s) { return {{s, s, s, s}}; }
  static Float4 make(float a, float b, float c, float d) { return {{a, b, c, d}}; }
  void store(float* p) const { for (int i = 0; i < 4; ++i) p[i] = v[i]; }
  static Float4 gather(const float* a, const float* b, const float* c, const float* d) { return {{*a, *b, *c, *d}}; }
  void scatter(float* a, float* b, float* c, float* d) const { *a = v[0], *b = v[1], *c = v[2], *d = v[3]; }
  template <int k>
  float lane() const { return v[k]; }
  Float4 rotatedDown() const { return {{v[1], v[2], v[3], v[0]}}; }
  Float4 rotatedUp() const { return {{v[3], v[0], v[1], v[2]}}; }
  friend void transpose(Float4& a, Float4& b, Float4& c, Float4& d) {
    Float4* rows[4] = {&a, &b, &c, &d};
    for (int r = 0; r < 4; ++r)
      for (int k = r + 1; k < 4; ++k) std::swap(rows[r]->v[k], rows[k]->v[r]);
  }
  template <class Op>
  static Float4 map(Float4 a, Float4 b, Op op) { return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}}; }
  template <class Op>
  static Mask4 test(Float4 a, Float4 b, Op op) { return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}}; }
  friend Float4 operator+(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x + y; }); }
  friend Float4 operator-(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x - y; }); }
  friend Float4 operator*(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x * y; }); }
  friend Float4 operator/(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x / y; }); }
  friend Float4 operator-(Float4 a) { return {{-a.v[0], -a.v[1], -a.v[2], -a.v[3]}}; }
  friend Float4 sqrt(Float4 a) { return {{std::sqrt(a.v[0]), std::sqrt(a.v[1]), std::sqrt(a.v[2]), std::sqrt(a.v[3])}}; }
  friend Mask4 operator<(Float4 a, Float4 b) { return test(a, b, [](float x, float y) { return x < y; }); }
  friend Mask4 operator>(Float4 a, Float4 b) { return test(a, b, [](float x, float y) { return x > y; }); }
  friend Mask4 operator!=(Float4 a, Float4 b) { return test(a, b, [](float x, float y) { return x != y; }); }
  friend Mask4 operator==(Float4 a, Float4 b) { return test(a, b, [](float x, float y) { return x == y; }); }
  friend Mask4 operator<=(Float4 a, Float4 b) { return test(a, b, [](float x, float y) { return x <= y; }); }
  friend Mask4 signbit(Float4 a) { return {{std::signbit(a.v[0]), std::signbit(a.v[1]), std::signbit(a.v[2]), std::signbit(a.v[3])}}; }
  friend Float4 select(Mask4 mask, Float4 a, Float4 b) {
    return {{mask.m[0] ? a.v[0] : b.v[0], mask.m[1] ? a.v[1] : b.v[1], mask.m[2] ? a.v[2] : b.v[2], mask.m[3] ? a.v[3] : b.v[3]}};
  }
  friend Float4 selectOrZero(Mask4 mask, Float4 a) { return select(mask, a, Float4::splat(0)); }
  friend Float4 pmin(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return y < x ? y : x; }); }
  friend Float4 pmax(Float4 a, Float4 b) { return map(a, b, [](float x, float y) { return x < y ? y : x; }); }
};
#endif

/// The one-lane twins of Float4's select, selectOrZero, pmin and pmax, so kernels written as templates over the lane
/// type run on plain floats.
inline float select(bool mask, float a, float b) { return mask ? a : b; }
inline float selectOrZero(bool mask, float a) { return mask ? a : 0.0f; }
inline float pmin(float a, float b) { return b < a ? b : a; }
inline float pmax(float a, float b) { return a < b ? b : a; }
inline bool signbit(float a) { return std::signbit(a); }

/// x < 0 ? -x : x lane by lane (so -0 and NaN come out as they went in), as pmax(x, -x): the same bits in two
/// instructions, where V8 compiles the compare and select to five.
template <class T>
T absLanes(T x) {
  return pmax(x, -x);
}

/// A constant in every lane.
template <class T>
T lanes(float c);
template <>
inline float lanes<float>(float c) { return c; }
template <>
inline Float4 lanes<Float4>(float c) { return Float4::splat(c); }

/// out[k] = a[k] + s * b[k] for k in [begin, end) over flat arrays (the Jacobi solve's p += ω Δp).
inline void axpyRange(float* out, const float* a, float s, const float* b, size_t begin, size_t end) {
  size_t k = begin;
  const Float4 s4 = Float4::splat(s);
  for (; k + 4 <= end; k += 4) (Float4::load(a + k) + s4 * Float4::load(b + k)).store(out + k);
  for (; k < end; ++k) out[k] = a[k] + s * b[k];
}

/// The three vectors of four particles' xyz (x y z x | y z x y | z x y z) with a per-particle value in place of each
/// coordinate: out[c] = the values of the particles whose coordinates vector c holds, from four values per particle.
/// One vector load and three shuffles where the vector unit has them; data movement only.
inline void spreadOverXyz(const float* perParticle, Float4 (&out)[3]) {
#if PBD_WIDE_WASM
  const v128_t s = wasm_v128_load(perParticle);
  out[0].v = wasm_i32x4_shuffle(s, s, 0, 0, 0, 1);
  out[1].v = wasm_i32x4_shuffle(s, s, 1, 1, 2, 2);
  out[2].v = wasm_i32x4_shuffle(s, s, 2, 3, 3, 3);
#elif PBD_WIDE_SSE
  const __m128 s = _mm_loadu_ps(perParticle);
  out[0].v = _mm_shuffle_ps(s, s, _MM_SHUFFLE(1, 0, 0, 0));
  out[1].v = _mm_shuffle_ps(s, s, _MM_SHUFFLE(2, 2, 1, 1));
  out[2].v = _mm_shuffle_ps(s, s, _MM_SHUFFLE(3, 3, 3, 2));
#else
  const float* s = perParticle;
  out[0] = Float4::make(s[0], s[0], s[0], s[1]);
  out[1] = Float4::make(s[1], s[1], s[2], s[2]);
  out[2] = Float4::make(s[2], s[3], s[3], s[3]);
#endif
}

/// The same three vectors for four particles at one point g: g's x y z x | y z x y | z x y z.
inline void repeatOverXyz(const float g[3], Float4 (&out)[3]) {
  out[0] = Float4::make(g[0], g[1], g[2], g[0]);
  out[1] = Float4::make(g[1], g[2], g[0], g[1]);
  out[2] = Float4::make(g[2], g[0], g[1], g[2]);
}

/// xyzw[4i .. 4i+3] = (xyz[3i .. 3i+2], w[i]) for i in [begin, end): positions padded to a vector per particle.
/// Four particles at a time where the vector unit has the shuffles (three xyz vectors and one w vector in, four
/// xyzw vectors out); data movement only, so the bits are the scalar loop's.
inline void padRange(const float* xyz, const float* w, size_t begin, size_t end, float* xyzw) {
  size_t i = begin;
#if PBD_WIDE_WASM
  for (; i + 4 <= end; i += 4) {
    const float* s = xyz + 3 * i;
    // a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3, ws = w0 w1 w2 w3
    const v128_t a = wasm_v128_load(s), b = wasm_v128_load(s + 4), c = wasm_v128_load(s + 8);
    const v128_t ws = wasm_v128_load(w + i);
    float* o = xyzw + 4 * i;
    wasm_v128_store(o, wasm_i32x4_shuffle(a, ws, 0, 1, 2, 4));
    wasm_v128_store(o + 4, wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 3, 4, 5, 5), ws, 0, 1, 2, 5));
    wasm_v128_store(o + 8, wasm_i32x4_shuffle(wasm_i32x4_shuffle(b, c, 2, 3, 4, 4), ws, 0, 1, 2, 6));
    wasm_v128_store(o + 12, wasm_i32x4_shuffle(c, ws, 1, 2, 3, 7));
  }
#elif PBD_WIDE_NEON
  for (; i + 4 <= end; i += 4) {
    const float32x4x3_t s = vld3q_f32(xyz + 3 * i);  // de-interleaved: x0..x3, y0..y3, z0..z3
    vst4q_f32(xyzw + 4 * i, float32x4x4_t{{s.val[0], s.val[1], s.val[2], vld1q_f32(w + i)}});
  }
#endif
  for (; i < end; ++i) {
    xyzw[4 * i] = xyz[3 * i], xyzw[4 * i + 1] = xyz[3 * i + 1], xyzw[4 * i + 2] = xyz[3 * i + 2];
    xyzw[4 * i + 3] = w[i];
  }
}

/// One particle padded: xyzw[0..3] = (xyz[0..2], *w). In wasm one vector built by lane loads and stored at once, where
/// four loads and four stores cost V8 twice the instructions (a copy in a particle order of its own: no run of four
/// consecutive particles for padRange's shuffles).
inline void padParticle(const float* xyz, const float* w, float* xyzw) {
#if PBD_WIDE_WASM
  const v128_t v = wasm_v128_load32_lane(xyz + 2, wasm_v128_load64_zero(xyz), 2);
  wasm_v128_store(xyzw, wasm_v128_load32_lane(w, v, 3));
#else
  xyzw[0] = xyz[0], xyzw[1] = xyz[1], xyzw[2] = xyz[2], xyzw[3] = *w;
#endif
}

/// padParticle's way back, w dropped: xyz[0..2] = xyzw[0..2] (in wasm one load and two lane stores).
inline void unpadParticle(const float* xyzw, float* xyz) {
#if PBD_WIDE_WASM
  const v128_t v = wasm_v128_load(xyzw);
  wasm_v128_store64_lane(xyz, v, 0);
  wasm_v128_store32_lane(xyz + 2, v, 2);
#else
  xyz[0] = xyzw[0], xyz[1] = xyzw[1], xyz[2] = xyzw[2];
#endif
}

/// xyz[3i .. 3i+2] = xyzw[4i .. 4i+2] for i in [begin, end): padRange's way back, w dropped.
inline void unpadRange(const float* xyzw, size_t begin, size_t end, float* xyz) {
  size_t i = begin;
#if PBD_WIDE_WASM
  for (; i + 4 <= end; i += 4) {
    const float* s = xyzw + 4 * i;
    const v128_t p0 = wasm_v128_load(s), p1 = wasm_v128_load(s + 4), p2 = wasm_v128_load(s + 8);
    const v128_t p3 = wasm_v128_load(s + 12);
    float* o = xyz + 3 * i;
    wasm_v128_store(o, wasm_i32x4_shuffle(p0, p1, 0, 1, 2, 4));      // x0 y0 z0 x1
    wasm_v128_store(o + 4, wasm_i32x4_shuffle(p1, p2, 1, 2, 4, 5));  // y1 z1 x2 y2
    wasm_v128_store(o + 8, wasm_i32x4_shuffle(p2, p3, 2, 4, 5, 6));  // z2 x3 y3 z3
  }
#elif PBD_WIDE_NEON
  for (; i + 4 <= end; i += 4) {
    const float32x4x4_t s = vld4q_f32(xyzw + 4 * i);
    vst3q_f32(xyz + 3 * i, float32x4x3_t{{s.val[0], s.val[1], s.val[2]}});
  }
#endif
  for (; i < end; ++i) {
    xyz[3 * i] = xyzw[4 * i], xyz[3 * i + 1] = xyzw[4 * i + 1], xyz[3 * i + 2] = xyzw[4 * i + 2];
  }
}

/// Four particles' padded positions (padRange's xyzw: x, y, z and the inverse mass), one particle per lane. Loaded as
/// four vectors and a 4x4 transpose: lane by lane, each value cost a load and an insert (and each store an extract),
/// more than the arithmetic of a dihedral or tet kernel's batch.
struct PaddedLanes {
  float* at[4];      ///< Each lane's particle: its xyzw.
  Float4 x, y, z, w;  ///< Coordinates and inverse masses, one particle per lane.
};

/// The padded positions of particles i0..i3, one particle per lane, read only (what loadPaddedLanes loads).
inline void loadLanesOf(const float* xyzw, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t i3, Float4& x, Float4& y,
                        Float4& z, Float4& w) {
  x = Float4::load(xyzw + 4 * size_t(i0)), y = Float4::load(xyzw + 4 * size_t(i1));
  z = Float4::load(xyzw + 4 * size_t(i2)), w = Float4::load(xyzw + 4 * size_t(i3));
  transpose(x, y, z, w);
}

inline PaddedLanes loadPaddedLanes(float* xyzw, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t i3) {
  PaddedLanes l{{xyzw + 4 * size_t(i0), xyzw + 4 * size_t(i1), xyzw + 4 * size_t(i2), xyzw + 4 * size_t(i3)}, {}, {},
                {}, {}};
  loadLanesOf(xyzw, i0, i1, i2, i3, l.x, l.y, l.z, l.w);
  return l;
}

/// Stores x, y, z back to the lanes' particles, w unchanged. The lanes must be four different particles, or the
/// last lane's store wins.
inline void storePaddedLanes(const PaddedLanes& l, Float4 x, Float4 y, Float4 z) {
  Float4 w = l.w;
  transpose(x, y, z, w);
  x.store(l.at[0]), y.store(l.at[1]), z.store(l.at[2]), w.store(l.at[3]);
}

/// v[k] += (p[k] - inertial[k]) * invH, then x[k] = p[k]: the velocity update and position commit of Algorithm 1.
/// Mathematically v = (p - x) / h, since inertial = x + h v; written as a change of v because p - x in float32 carries
/// the rounding of x + h v, which would otherwise accumulate in v as a drift of ulp(x)/h per substep.
inline void commitRange(float* x, float* v, const float* p, const float* inertial, float invH, size_t begin, size_t end) {
  size_t k = begin;
  const Float4 s4 = Float4::splat(invH);
  for (; k + 4 <= end; k += 4) {
    const Float4 pk = Float4::load(p + k);
    (Float4::load(v + k) + (pk - Float4::load(inertial + k)) * s4).store(v + k);
    pk.store(x + k);
  }
  for (; k < end; ++k) {
    v[k] = v[k] + (p[k] - inertial[k]) * invH;
    x[k] = p[k];
  }
}

}  // namespace pbd
