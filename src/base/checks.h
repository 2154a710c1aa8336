// Argument checks shared by the entry points of every layer (the World, the mesh tools, the solvers). Each throws
// pbd::InvalidArgument with the message "<function>: <argument> <reason> (got <value>)" so that JS users see which
// argument was wrong.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "pbd/errors.h"
#include "pbd/real.h"

namespace pbd::check {

template <class T>
[[noreturn]] void fail(const char* fn, const std::string& arg, const char* reason, const T& got) {
  std::ostringstream s;
  s << fn << ": " << arg << ' ' << reason << " (got " << got << ')';
  throw InvalidArgument(s.str());
}

/// A bound as people write it: 1, 1000000, 0.5, 1e+30 (std::to_string would give 1.000000).
inline std::string bound(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  std::ostringstream s;
  s << value;
  return s.str();
}

inline void finite(const char* fn, const std::string& arg, double value) {
  if (!std::isfinite(value)) fail(fn, arg, "must be finite", value);
}

inline void finite(const char* fn, const std::string& arg, const Vec3& v) {
  for (int a = 0; a < 3; ++a) finite(fn, arg + '.' + "xyz"[a], v[a]);
}

inline void atLeast(const char* fn, const std::string& arg, double value, double min) {
  finite(fn, arg, value);
  if (value < min) fail(fn, arg, ("must be >= " + bound(min)).c_str(), value);
}

/// A coefficient with a sentinel default: exactly `special` (e.g. -1 = "the other coefficient's"), or finite and
/// >= min. `reason` says both, e.g. "must be >= 0 (or -1: the surface's)".
inline void atLeastOrSpecial(const char* fn, const std::string& arg, double value, double min, double special,
                             const char* reason) {
  if (value == special) return;
  finite(fn, arg, value);
  if (value < min) fail(fn, arg, reason, value);
}

inline void positive(const char* fn, const std::string& arg, double value) {
  finite(fn, arg, value);
  if (!(value > 0)) fail(fn, arg, "must be > 0", value);
}

inline void inRange(const char* fn, const std::string& arg, double value, double lo, double hi) {
  finite(fn, arg, value);
  if (value < lo || value > hi) {
    fail(fn, arg, ("must be in [" + bound(lo) + ", " + bound(hi) + "]").c_str(), value);
  }
}

inline void index(const char* fn, const std::string& arg, uint64_t value, uint64_t count) {
  if (value >= count) fail(fn, arg, ("is out of range [0, " + std::to_string(count) + ")").c_str(), value);
}

inline void inverseMass(const char* fn, const std::string& arg, double value) {
  atLeast(fn, arg, value, 0);
}

/// An inverse mass that a builder derives from the finite argument `arg` (= got: a mass, density or total mass) must
/// be a positive finite Real: an extreme but finite argument would otherwise overflow it to Inf (NaN in the next
/// step) or underflow it to 0 (a particle silently pinned). Checked in double, before any conversion to Real.
inline void derivedInverseMass(const char* fn, const std::string& arg, double inverseMass, double got) {
  if (!(inverseMass > 0 && inverseMass <= double(std::numeric_limits<Real>::max()))) {
    fail(fn, arg, "is out of range: the inverse mass it gives a particle is not a positive finite float", got);
  }
}

/// A length or coordinate that a builder derives from the finite argument `arg` (= got) must fit in a Real: a huge
/// spacing or a start and end at opposite ends of the float range would put particles at Inf.
inline void derivedFinite(const char* fn, const std::string& arg, const char* reason, double derived, double got) {
  if (!(std::fabs(derived) <= double(std::numeric_limits<Real>::max()))) fail(fn, arg, reason, got);
}

}  // namespace pbd::check
