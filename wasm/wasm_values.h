// Embind helpers: C++ exceptions to JS Errors, and JS values (numbers, arrays, option objects) to the core's types,
// with messages that name the function and the argument. Included by bindings.cpp only.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <new>
#include <string>
#include <vector>

#include "pbd/errors.h"
#include "pbd/world.h"

namespace pbd::js {

using emscripten::val;

// --- Errors ----------------------------------------------------------------------------------------------------

[[noreturn]] inline void throwJsError(std::string message) {
  val error = val::global("Error").new_(val(message));
  std::string().swap(message);  // throw_ unwinds through JS: nothing after it runs, so free the text first
  error.throw_();
}

/// Runs `body`; a C++ exception becomes a JS Error. The core validates before mutating, so the world is unchanged.
template <class F>
auto guarded(const char* fn, F&& body) -> decltype(body()) {
  std::string message;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    message = std::string(fn) + ": out of memory (the request does not fit in the wasm heap)";
  } catch (const std::exception& e) {
    message = e.what();
  }
  throwJsError(std::move(message));
}

// --- JS value conversion ----------------------------------------------------------------------------------------

/// A JS number that must be an index (a non-negative integer below 2^32).
inline uint32_t toIndex(const char* fn, const char* arg, double value) {
  if (!(value >= 0 && value <= 4294967295.0 && value == std::floor(value))) {
    throw InvalidArgument(std::string(fn) + ": " + arg + " must be a non-negative integer (got " +
                          std::to_string(value) + ")");
  }
  return uint32_t(value);
}

inline int toInt(const char* fn, const char* arg, double value) {
  if (!(std::fabs(value) <= 2147483647.0 && value == std::floor(value))) {
    throw InvalidArgument(std::string(fn) + ": " + arg + " must be an integer (got " + std::to_string(value) + ")");
  }
  return int(value);
}

inline bool has(const val& obj, const char* key) { return obj[key].typeOf().as<std::string>() != "undefined"; }

/// A JS string that must be one of `names`, as the matching entry of `values`. Taken as a val, not a std::string
/// parameter: a failed call unwinds through JS, which would skip the destructor of a std::string argument (and the
/// free of its wire buffer) and leak them; the copy made here is destroyed by the C++ throw, before that unwinding.
template <class E, size_t N>
E enumValue(const char* fn, const char* arg, const val& v, const char* const (&names)[N], const E (&values)[N]) {
  const std::string got = v.isString() ? v.as<std::string>() : "a " + v.typeOf().as<std::string>();
  std::string allowed;
  for (size_t k = 0; k < N; ++k) {
    if (got == names[k]) return values[k];
    allowed += (k ? (k + 1 == N ? " or '" : ", '") : "'") + std::string(names[k]) + "'";
  }
  throw InvalidArgument(std::string(fn) + ": " + arg + " must be " + allowed + " (got '" + got + "')");
}

/// The name of `value` in `names` (the inverse of enumValue).
template <class E, size_t N>
const char* enumName(E value, const char* const (&names)[N], const E (&values)[N]) {
  for (size_t k = 0; k < N; ++k) {
    if (values[k] == value) return names[k];
  }
  return names[0];
}

/// obj[key] as a number, or `fallback` when absent. A present non-number is an error naming the field.
inline double numberField(const char* fn, const val& obj, const std::string& key, double fallback) {
  const val v = obj[key];
  const std::string type = v.typeOf().as<std::string>();
  if (type == "undefined") return fallback;
  if (type != "number") throw InvalidArgument(std::string(fn) + ": " + key + " must be a number (got a " + type + ")");
  return v.as<double>();
}

/// obj[key] as [x, y, z] (an array or typed array of 3 numbers), or `fallback` when absent.
inline Vec3 vec3Field(const char* fn, const val& obj, const std::string& key, const Vec3& fallback) {
  const val v = obj[key];
  if (v.typeOf().as<std::string>() == "undefined") return fallback;
  if (!v["length"].isNumber() || v["length"].as<int>() != 3) {
    throw InvalidArgument(std::string(fn) + ": " + key + " must be an array of 3 numbers");
  }
  Vec3 out;
  for (int a = 0; a < 3; ++a) out[a] = Real(numberField(fn, v, std::to_string(a), NAN));
  return out;
}

inline void requireObject(const char* fn, const char* arg, const val& v) {
  if (v.typeOf().as<std::string>() != "object" || v.isNull()) {
    throw InvalidArgument(std::string(fn) + ": " + arg + " must be an object");
  }
}

/// {compliance, stiffness} read from an options object (either may be absent).
inline Strength strengthOf(const char* fn, const val& options, const Strength& fallback) {
  return Strength{Real(numberField(fn, options, "compliance", fallback.compliance)),
                  Real(numberField(fn, options, "stiffness", fallback.stiffness))};
}

/// obj[key] as a quaternion [x, y, z, w], or `fallback` when absent.
inline Quat quatField(const char* fn, const val& obj, const std::string& key, const Quat& fallback) {
  const val v = obj[key];
  if (v.typeOf().as<std::string>() == "undefined") return fallback;
  if (!v["length"].isNumber() || v["length"].as<int>() != 4) {
    throw InvalidArgument(std::string(fn) + ": " + key + " must be a quaternion [x, y, z, w]");
  }
  return Quat(Real(numberField(fn, v, "3", NAN)), Real(numberField(fn, v, "0", NAN)), Real(numberField(fn, v, "1", NAN)),
              Real(numberField(fn, v, "2", NAN)));
}

inline Strength strengthField(const char* fn, const val& obj, const std::string& key, const Strength& fallback) {
  const val v = obj[key];
  if (v.typeOf().as<std::string>() == "undefined") return fallback;
  requireObject(fn, key.c_str(), v);
  return strengthOf(fn, v, fallback);
}

/// obj[key] as indices (an array or typed array), empty when absent. Converted in one copy, then checked, so that
/// large meshes do not cross into JS once per element.
inline std::vector<uint32_t> indexArray(const char* fn, const std::string& key, const val& v);

inline std::vector<uint32_t> indexArrayField(const char* fn, const val& obj, const std::string& key) {
  const val v = obj[key];
  if (v.typeOf().as<std::string>() == "undefined") return {};
  return indexArray(fn, key, v);
}

/// v as indices (an array or typed array of integers in [0, 2³²)): one copy out of JS, then checked, naming the
/// first bad element.
inline std::vector<uint32_t> indexArray(const char* fn, const std::string& key, const val& v) {
  std::vector<uint32_t> out;
  if (v.isUndefined() || v.isNull() || v.isString() || !v["length"].isNumber()) {  // a string has a length too
    throw InvalidArgument(std::string(fn) + ": " + key + " must be an array of indices");
  }
  const std::vector<double> numbers = emscripten::convertJSArrayToNumberVector<double>(v);
  out.reserve(numbers.size());
  for (size_t k = 0; k < numbers.size(); ++k) {
    const double x = numbers[k];
    if (x >= 0 && x <= 4294967295.0 && x == std::floor(x)) out.push_back(uint32_t(x));
    else toIndex(fn, (key + "[" + std::to_string(k) + "]").c_str(), x);  // throws, naming the element
  }
  return out;
}

/// A JS array or typed array of numbers as floats (non-numbers become NaN, which the core rejects by name).
inline std::vector<Real> floatArray(const char* fn, const char* arg, const val& v) {
  if (v.isUndefined() || v.isNull() || v.isString() || !v["length"].isNumber()) {  // a string has a length too
    throw InvalidArgument(std::string(fn) + ": " + arg + " must be an array or typed array of numbers");
  }
  return emscripten::convertJSArrayToNumberVector<Real>(v);
}

/// A new Uint32Array holding `values` (copied out of the wasm heap, so it stays valid when the heap grows).
inline val copyToUint32Array(const std::vector<uint32_t>& values) {
  val view = val(emscripten::typed_memory_view(values.size(), values.data()));
  return val::global("Uint32Array").new_(view);
}

/// A new Float32Array holding `values` (a copy, as copyToUint32Array).
inline val copyToFloat32Array(const std::vector<float>& values) {
  val view = val(emscripten::typed_memory_view(values.size(), values.data()));
  return val::global("Float32Array").new_(view);
}

inline val bodyRangeToJs(const BodyRange& r) {
  val o = val::object();
  o.set("firstParticle", r.firstParticle);
  o.set("particleCount", r.particleCount);
  o.set("firstConstraint", r.firstConstraint);
  o.set("constraintCount", r.constraintCount);
  o.set("tetherCount", r.tetherCount);
  o.set("firstDihedral", r.firstDihedral);
  o.set("dihedralCount", r.dihedralCount);
  o.set("firstVolume", r.firstVolume);
  o.set("volumeCount", r.volumeCount);
  o.set("body", r.body);
  o.set("firstSegment", r.firstSegment);
  o.set("segmentCount", r.segmentCount);
  return o;
}

}  // namespace pbd::js
