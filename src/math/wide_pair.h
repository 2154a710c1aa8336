// Two Float4 values as one lane type, eight lanes. A kernel written as a template over its lane type then runs two
// independent batches in one instruction stream, each operation issued for both halves side by side. The point is
// latency, not width: a distance projection is one long chain (loads, a square root, a division, stores), and an
// out-of-order core only overlaps the next batch's chain with this one's once it has fetched that far; interleaved,
// the two chains overlap from the first instruction. Each operation is Float4's on each half, so the bits are those
// of two Float4 calls.
#pragma once

#include "math/wide_float.h"

namespace pbd {

struct Mask4x2 {
  Mask4 a, b;
  friend Mask4x2 operator&(Mask4x2 x, Mask4x2 y) { return {x.a & y.a, x.b & y.b}; }
};

struct Float4x2 {
  Float4 a, b;
  friend Float4x2 operator+(Float4x2 x, Float4x2 y) { return {x.a + y.a, x.b + y.b}; }
  friend Float4x2 operator-(Float4x2 x, Float4x2 y) { return {x.a - y.a, x.b - y.b}; }
  friend Float4x2 operator*(Float4x2 x, Float4x2 y) { return {x.a * y.a, x.b * y.b}; }
  friend Float4x2 operator/(Float4x2 x, Float4x2 y) { return {x.a / y.a, x.b / y.b}; }
  friend Float4x2 operator-(Float4x2 x) { return {-x.a, -x.b}; }
  friend Float4x2 sqrt(Float4x2 x) { return {sqrt(x.a), sqrt(x.b)}; }
  friend Mask4x2 operator<(Float4x2 x, Float4x2 y) { return {x.a < y.a, x.b < y.b}; }
  friend Mask4x2 operator>(Float4x2 x, Float4x2 y) { return {x.a > y.a, x.b > y.b}; }
  friend Mask4x2 operator!=(Float4x2 x, Float4x2 y) { return {x.a != y.a, x.b != y.b}; }
  friend Mask4x2 operator==(Float4x2 x, Float4x2 y) { return {x.a == y.a, x.b == y.b}; }
  friend Mask4x2 operator<=(Float4x2 x, Float4x2 y) { return {x.a <= y.a, x.b <= y.b}; }
  friend Mask4x2 signbit(Float4x2 x) { return {signbit(x.a), signbit(x.b)}; }
  friend Float4x2 select(Mask4x2 m, Float4x2 x, Float4x2 y) { return {select(m.a, x.a, y.a), select(m.b, x.b, y.b)}; }
  friend Float4x2 pmin(Float4x2 x, Float4x2 y) { return {pmin(x.a, y.a), pmin(x.b, y.b)}; }
  friend Float4x2 pmax(Float4x2 x, Float4x2 y) { return {pmax(x.a, y.a), pmax(x.b, y.b)}; }
};

template <>
inline Float4x2 lanes<Float4x2>(float c) {
  const Float4 s = Float4::splat(c);
  return {s, s};
}

}  // namespace pbd
