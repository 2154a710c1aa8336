// Two doubles processed together, beside math/wide_float.h's Float4 and on the same vector units (wasm SIMD128,
// SSE2, 64-bit Arm NEON, scalar elsewhere): for double-precision work on four lanes of floats, as a low and a high
// pair. Every operation is an exact IEEE double op lane by lane (no fused multiply-add: -ffp-contract=off), so all
// paths give the bits of plain `double` code.
#pragma once

#include "math/wide_float.h"

namespace pbd {

#if PBD_WIDE_WASM
struct Mask2 {
  v128_t m;
  friend Mask2 operator&(Mask2 a, Mask2 b) { return {wasm_v128_and(a.m, b.m)}; }
  /// Bit k set where lane k is true.
  unsigned bits() const { return wasm_i64x2_bitmask(m); }
};
struct Double2 {
  v128_t v;
  Double2() = default;
  explicit Double2(double s) : v(wasm_f64x2_splat(s)) {}
  static Double2 of(v128_t v) {
    Double2 r;
    r.v = v;
    return r;
  }
  /// Lanes 0 and 1 of f, and lanes 2 and 3.
  static Double2 low(Float4 f) { return of(wasm_f64x2_promote_low_f32x4(f.v)); }
  static Double2 high(Float4 f) { return of(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(f.v, f.v, 2, 3, 2, 3))); }
  /// The four lanes of lo then hi, each rounded to float.
  friend Float4 toFloat4(Double2 lo, Double2 hi) {
    return {wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo.v), wasm_f32x4_demote_f64x2_zero(hi.v), 0, 1, 4, 5)};
  }
  friend Double2 operator+(Double2 a, Double2 b) { return of(wasm_f64x2_add(a.v, b.v)); }
  friend Double2 operator-(Double2 a, Double2 b) { return of(wasm_f64x2_sub(a.v, b.v)); }
  friend Double2 operator*(Double2 a, Double2 b) { return of(wasm_f64x2_mul(a.v, b.v)); }
  friend Double2 operator/(Double2 a, Double2 b) { return of(wasm_f64x2_div(a.v, b.v)); }
  friend Mask2 operator>(Double2 a, Double2 b) { return {wasm_f64x2_gt(a.v, b.v)}; }
  friend Mask2 operator==(Double2 a, Double2 b) { return {wasm_f64x2_eq(a.v, b.v)}; }
};
#elif PBD_WIDE_SSE
struct Mask2 {
  __m128d m;
  friend Mask2 operator&(Mask2 a, Mask2 b) { return {_mm_and_pd(a.m, b.m)}; }
  unsigned bits() const { return unsigned(_mm_movemask_pd(m)); }
};
struct Double2 {
  __m128d v;
  Double2() = default;
  explicit Double2(double s) : v(_mm_set1_pd(s)) {}
  static Double2 of(__m128d v) {
    Double2 r;
    r.v = v;
    return r;
  }
  static Double2 low(Float4 f) { return of(_mm_cvtps_pd(f.v)); }
  static Double2 high(Float4 f) { return of(_mm_cvtps_pd(_mm_movehl_ps(f.v, f.v))); }
  friend Float4 toFloat4(Double2 lo, Double2 hi) { return {_mm_movelh_ps(_mm_cvtpd_ps(lo.v), _mm_cvtpd_ps(hi.v))}; }
  friend Double2 operator+(Double2 a, Double2 b) { return of(_mm_add_pd(a.v, b.v)); }
  friend Double2 operator-(Double2 a, Double2 b) { return of(_mm_sub_pd(a.v, b.v)); }
  friend Double2 operator*(Double2 a, Double2 b) { return of(_mm_mul_pd(a.v, b.v)); }
  friend Double2 operator/(Double2 a, Double2 b) { return of(_mm_div_pd(a.v, b.v)); }
  friend Mask2 operator>(Double2 a, Double2 b) { return {_mm_cmpgt_pd(a.v, b.v)}; }
  friend Mask2 operator==(Double2 a, Double2 b) { return {_mm_cmpeq_pd(a.v, b.v)}; }
};
#elif PBD_WIDE_NEON
struct Mask2 {
  uint64x2_t m;
  friend Mask2 operator&(Mask2 a, Mask2 b) { return {vandq_u64(a.m, b.m)}; }
  unsigned bits() const { return unsigned(vgetq_lane_u64(m, 0) & 1u) | unsigned(vgetq_lane_u64(m, 1) & 1u) << 1; }
};
struct Double2 {
  float64x2_t v;
  Double2() = default;
  explicit Double2(double s) : v(vdupq_n_f64(s)) {}
  static Double2 of(float64x2_t v) {
    Double2 r;
    r.v = v;
    return r;
  }
  static Double2 low(Float4 f) { return of(vcvt_f64_f32(vget_low_f32(f.v))); }
  static Double2 high(Float4 f) { return of(vcvt_high_f64_f32(f.v)); }
  friend Float4 toFloat4(Double2 lo, Double2 hi) { return {vcvt_high_f32_f64(vcvt_f32_f64(lo.v), hi.v)}; }
  friend Double2 operator+(Double2 a, Double2 b) { return of(vaddq_f64(a.v, b.v)); }
  friend Double2 operator-(Double2 a, Double2 b) { return of(vsubq_f64(a.v, b.v)); }
  friend Double2 operator*(Double2 a, Double2 b) { return of(vmulq_f64(a.v, b.v)); }
  friend Double2 operator/(Double2 a, Double2 b) { return of(vdivq_f64(a.v, b.v)); }
  friend Mask2 operator>(Double2 a, Double2 b) { return {vcgtq_f64(a.v, b.v)}; }
  friend Mask2 operator==(Double2 a, Double2 b) { return {vceqq_f64(a.v, b.v)}; }
};
#else
struct Mask2 {
  bool m[2];
  friend Mask2 operator&(Mask2 a, Mask2 b) { return {{a.m[0] && b.m[0], a.m[1] && b.m[1]}}; }
  unsigned bits() const { return unsigned(m[0]) | unsigned(m[1]) << 1; }
};
struct Double2 {
  double v[2];
  Double2() = default;
  explicit Double2(double s) : v{s, s} {}
  static Double2 low(Float4 f) { return pair(f.v[0], f.v[1]); }
  static Double2 high(Float4 f) { return pair(f.v[2], f.v[3]); }
  friend Float4 toFloat4(Double2 lo, Double2 hi) {
    return {{float(lo.v[0]), float(lo.v[1]), float(hi.v[0]), float(hi.v[1])}};
  }
  static Double2 pair(double a, double b) {
    Double2 r;
    r.v[0] = a, r.v[1] = b;
    return r;
  }
  friend Double2 operator+(Double2 a, Double2 b) { return pair(a.v[0] + b.v[0], a.v[1] + b.v[1]); }
  friend Double2 operator-(Double2 a, Double2 b) { return pair(a.v[0] - b.v[0], a.v[1] - b.v[1]); }
  friend Double2 operator*(Double2 a, Double2 b) { return pair(a.v[0] * b.v[0], a.v[1] * b.v[1]); }
  friend Double2 operator/(Double2 a, Double2 b) { return pair(a.v[0] / b.v[0], a.v[1] / b.v[1]); }
  friend Mask2 operator>(Double2 a, Double2 b) { return {{a.v[0] > b.v[0], a.v[1] > b.v[1]}}; }
  friend Mask2 operator==(Double2 a, Double2 b) { return {{a.v[0] == b.v[0], a.v[1] == b.v[1]}}; }
};
#endif

}  // namespace pbd
