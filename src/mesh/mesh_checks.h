// Argument checks shared by the mesh utilities, in the style of base/checks.h ("<fn>: <arg> <reason> (got v)").
// The element's name is built only when the check fails: no allocation per element.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include "constraints/tet_volume.h"
#include "base/checks.h"

namespace pbd::check {

/// xyz per point: the size must be a multiple of 3 and every value finite ("<arg>[k] must be finite").
inline void positions(const char* fn, const char* arg, std::span<const float> p) {
  if (p.size() % 3 != 0) fail(fn, std::string(arg) + ".size()", "must be a multiple of 3", p.size());
  for (size_t k = 0; k < p.size(); ++k) {
    if (!std::isfinite(p[k])) fail(fn, std::string(arg) + '[' + std::to_string(k) + ']', "must be finite", p[k]);
  }
}

/// `corners` indices per element (3 per triangle, 4 per tet), each below `count` ("<arg>[k] is out of range").
inline void elements(const char* fn, const char* arg, std::span<const uint32_t> indices, size_t corners,
                     size_t count) {
  if (indices.size() % corners != 0) {
    fail(fn, std::string(arg) + ".size()", ("must be a multiple of " + std::to_string(corners)).c_str(),
         indices.size());
  }
  for (size_t k = 0; k < indices.size(); ++k) {
    if (indices[k] >= count) index(fn, std::string(arg) + '[' + std::to_string(k) + ']', indices[k], count);
  }
}

/// addSoftBody's test of a tet at rest, shared with tetrahedralize (which must return only tets that pass it): the
/// reason the tet is refused ("is degenerate (volume)", "is inverted (...)"), or nullptr when it is accepted.
/// `volume` gets its signed volume (tetVolume, in Real). Degenerate means |V| <= 1e-6 times its longest edge cubed,
/// i.e. flat relative to its own size (scale-free); inverted means V < 0.
inline const char* tetShapeDefect(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, Real& volume) {
  volume = tetVolume(p0, p1, p2, p3);
  const Real scale = std::max({(p1 - p0).norm(), (p2 - p0).norm(), (p3 - p0).norm(), (p2 - p1).norm(),
                               (p3 - p1).norm(), (p3 - p2).norm()});
  if (std::abs(volume) <= Real(1e-6) * scale * scale * scale) return "is degenerate (volume)";
  if (volume < 0) return "is inverted (negative volume; swap two vertices)";
  return nullptr;
}

/// The whole check of tet t (vertices q[0..3], each below `count`, at positions point(q[k])) as addSoftBody and
/// addTetVolumeConstraints make it: each index in range ("tets[t][k]"), no vertex repeated, a shape that
/// tetShapeDefect accepts ("tets[t]"). Returns the tet's volume. The names are formatted only on failure.
template <class Point>
Real tet(const char* fn, size_t t, const uint32_t* q, size_t count, Point point) {
  auto name = [t] { return "tets[" + std::to_string(t) + "]"; };
  for (int k = 0; k < 4; ++k) {
    if (q[k] >= count) index(fn, name() + "[" + std::to_string(k) + "]", q[k], count);
  }
  for (int a = 0; a < 4; ++a)
    for (int c = a + 1; c < 4; ++c)
      if (q[a] == q[c]) fail(fn, name(), "repeats a vertex", q[c]);
  Real volume;
  if (const char* reason = tetShapeDefect(point(q[0]), point(q[1]), point(q[2]), point(q[3]), volume))
    fail(fn, name(), reason, volume);
  return volume;
}

}  // namespace pbd::check
