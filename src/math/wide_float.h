// Four floats processed together: wasm SIMD128 under Emscripten with -msimd128, SSE on x86, scalar elsewhere.
// Eigen 3.4 has no wasm SIMD backend, so the batched loops over flat SoA arrays use this instead.
// Every operation is an exact IEEE single-precision op lane by lane, so all three paths give identical bits
// (no fused multiply-add: the build uses -ffp-contract=off).
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define PBD_WIDE_WASM 1
#elif defined(__SSE2__)
#include <immintrin.h>
#define PBD_WIDE_SSE 1
#endif

namespace pbd {

struct Float4 {
#if PBD_WIDE_WASM
  v128_t v;
  static Float4 load(const float* p) { return {wasm_v128_load(p)}; }
  static Float4 splat(float s) { return {wasm_f32x4_splat(s)}; }
  void store(float* p) const { wasm_v128_store(p, v); }
  friend Float4 operator+(Float4 a, Float4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
#elif PBD_WIDE_SSE
  __m128 v;
  static Float4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  static Float4 splat(float s) { return {_mm_set1_ps(s)}; }
  void store(float* p) const { _mm_storeu_ps(p, v); }
  friend Float4 operator+(Float4 a, Float4 b) { return {_mm_add_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {_mm_sub_ps(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {_mm_mul_ps(a.v, b.v)}; }
#else
  float v[4];
  static Float4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
  static Float4 splat(float s) { return {{s, s, s, s}}; }
  void store(float* p) const { for (int i = 0; i < 4; ++i) p[i] = v[i]; }
  friend Float4 operator+(Float4 a, Float4 b) { return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]}}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}}; }
#endif
};

/// out[k] = a[k] + s * b[k] for k in [begin, end): the prediction p = x + h v over flat xyz arrays.
inline void axpyRange(float* out, const float* a, float s, const float* b, size_t begin, size_t end) {
  size_t k = begin;
  const Float4 s4 = Float4::splat(s);
  for (; k + 4 <= end; k += 4) (Float4::load(a + k) + s4 * Float4::load(b + k)).store(out + k);
  for (; k < end; ++k) out[k] = a[k] + s * b[k];
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
