// A point or vector with one coordinate array per axis: T = float for one element, Float4 (math/wide_float.h) for
// four, so that a kernel written once over T gives the same bits on either path. Each operation is written out in a
// fixed order (dot: (x x' + y y') + z z').
#pragma once

namespace pbd {

/// Three lanes of coordinates: one point per lane.
template <class T>
struct LanePoint {
  T x, y, z;
};

template <class T>
LanePoint<T> operator-(const LanePoint<T>& a, const LanePoint<T>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T>
LanePoint<T> operator+(const LanePoint<T>& a, const LanePoint<T>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T>
LanePoint<T> operator-(const LanePoint<T>& a) { return {-a.x, -a.y, -a.z}; }
template <class T>
LanePoint<T> operator*(const LanePoint<T>& a, T s) { return {a.x * s, a.y * s, a.z * s}; }
template <class T>
LanePoint<T> operator/(const LanePoint<T>& a, T s) { return {a.x / s, a.y / s, a.z / s}; }
template <class T>
T dot(const LanePoint<T>& a, const LanePoint<T>& b) { return (a.x * b.x + a.y * b.y) + a.z * b.z; }
template <class T>
LanePoint<T> cross(const LanePoint<T>& a, const LanePoint<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

}  // namespace pbd
