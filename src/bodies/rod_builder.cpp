// Builder of Cosserat rods (RodDef): particles with the segments' masses, frames carried along the chain without twist,
// and the compliances of the rod's material (constraints/cosserat_rod.h).
#include <cmath>
#include <numbers>
#include <string>

#include "base/checks.h"
#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "pbd/world.h"

namespace pbd {

RodBlueprint buildRod(const RodDef& def) {
  const char* fn = "addRod";
  if (def.points.size() % 3 != 0) check::fail(fn, "points", "must hold xyz triples (length)", def.points.size());
  const size_t count = def.points.size() / 3;
  check::inRange(fn, "points.length / 3", double(count), 2, kMaxParticles);
  for (size_t k = 0; k < def.points.size(); ++k) check::finite(fn, "points[" + std::to_string(k) + "]", def.points[k]);
  check::positive(fn, "radius", def.radius);
  check::positive(fn, "density", def.density);
  check::positive(fn, "youngsModulus", def.youngsModulus);
  check::positive(fn, "shearModulus", def.shearModulus);
  for (size_t k = 0; k < def.clampedSegments.size(); ++k)
    check::index(fn, "clampedSegments[" + std::to_string(k) + "]", def.clampedSegments[k], count - 1);

  RodBlueprint rod;
  BodyBlueprint& b = rod.body;
  b.positions = def.points;
  const uint32_t segments = uint32_t(count - 1);
  std::vector<Real> lengths(segments);
  for (uint32_t k = 0; k < segments; ++k) {
    lengths[k] = (pointAt(b, k + 1) - pointAt(b, k)).norm();
    if (!(lengths[k] > 0 && std::isfinite(lengths[k])))
      check::fail(fn, "points[" + std::to_string(3 * (k + 1)) + "]",
                  "must differ from the point before it (|segment|)", lengths[k]);
  }
  // Section constants in double: r⁴ of a thin wire is far below float's comfortable range.
  const double r = def.radius, area = std::numbers::pi * r * r, second = std::numbers::pi * r * r * r * r / 4;
  const double stretch = double(def.youngsModulus) * area, shear = double(def.shearModulus) * area;
  const double bend = double(def.youngsModulus) * second, twist = double(def.shearModulus) * 2 * second;
  const double linearDensity = double(def.density) * area;

  std::vector<double> mass(count, 0);
  rod.segments.resize(segments);
  for (uint32_t k = 0; k < segments; ++k) {
    const double l = lengths[k], m = linearDensity * l;
    mass[k] += m / 2, mass[k + 1] += m / 2;
    RodSegment& s = rod.segments[k];
    s.p0 = k, s.p1 = k + 1, s.restLength = lengths[k];
    s.inverseInertia = Real(2 / (m * r * r));
    s.compliance = Vec3(Real(1 / (l * shear)), Real(1 / (l * shear)), Real(1 / (l * stretch)));
    check::derivedInverseMass(fn, "radius", double(s.inverseInertia), def.radius);
  }
  for (uint32_t k : def.clampedSegments) rod.segments[k].inverseInertia = 0;
  b.inverseMasses.resize(count);
  for (size_t i = 0; i < count; ++i) {
    check::derivedInverseMass(fn, "density", 1 / mass[i], def.density);
    b.inverseMasses[i] = Real(1 / mass[i]);
  }
  for (uint32_t p : resolvePins(fn, def.pinned, {}, b.positions)) b.inverseMasses[p] = 0;

  // The first frame turns e3 onto the first segment by the shortest arc; each next one is the last turned by the
  // shortest arc between their directions (parallel transport), so the rest state has no twist.
  rod.orientations.resize(segments);
  Vec3 before(0, 0, 1);
  Quat q = Quat::Identity();
  for (uint32_t k = 0; k < segments; ++k) {
    const Vec3 along = (pointAt(b, k + 1) - pointAt(b, k)) / lengths[k];
    q = (Quat::FromTwoVectors(before, along) * q).normalized();
    rod.orientations[k] = q;
    before = thirdDirector(q);
  }
  rod.joints.resize(segments - 1);
  for (uint32_t k = 0; k + 1 < segments; ++k) {
    const double meanLength = (double(lengths[k]) + double(lengths[k + 1])) / 2;
    RodJoint& j = rod.joints[k];
    j.segment = k;
    j.restDarboux = darbouxVector(rod.orientations[k], rod.orientations[k + 1]);
    j.compliance = Vec3(Real(meanLength / (4 * bend)), Real(meanLength / (4 * bend)), Real(meanLength / (4 * twist)));
  }
  return rod;
}

}  // namespace pbd
