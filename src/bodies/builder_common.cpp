// Validation and construction steps shared by the body builders.
#include "bodies/builder_common.h"

#include <algorithm>
#include <limits>
#include <queue>

#include "base/checks.h"

namespace pbd {

void checkStrength(const char* fn, const char* name, const Strength& s) {
  const std::string prefix = *name ? std::string(name) + '.' : std::string();
  check::atLeast(fn, prefix + "compliance", s.compliance, 0);
  check::inRange(fn, prefix + "stiffness", s.stiffness, 0, 1);
}

void checkTethers(const char* fn, TetherMode mode, Real slack) {
  if (mode != TetherMode::None && mode != TetherMode::Euclidean && mode != TetherMode::Geodesic) {
    check::fail(fn, "tethers", "is unknown", int(mode));
  }
  check::inRange(fn, "tetherSlack", slack, 1, 1e6);
}

std::vector<uint32_t> resolvePins(const char* fn, const std::vector<uint32_t>& pinned,
                                  const std::vector<PinRegion>& regions, const std::vector<Real>& positions) {
  const size_t count = positions.size() / 3;
  for (size_t k = 0; k < pinned.size(); ++k) check::index(fn, "pinned[" + std::to_string(k) + "]", pinned[k], count);
  for (size_t r = 0; r < regions.size(); ++r) {
    const PinRegion& region = regions[r];
    const std::string name = "pinRegions[" + std::to_string(r) + "]";
    check::finite(fn, name + ".centre", region.centre);
    if (region.shape == PinRegion::Shape::Box) {
      for (int a = 0; a < 3; ++a) check::atLeast(fn, name + ".halfExtents." + "xyz"[a], region.halfExtents[a], 0);
    } else if (region.shape == PinRegion::Shape::Sphere) {
      check::atLeast(fn, name + ".radius", region.radius, 0);
    } else {
      check::fail(fn, name + ".shape", "is unknown", int(region.shape));
    }
  }
  std::vector<char> isPinned(count, 0);
  for (uint32_t i : pinned) isPinned[i] = 1;
  for (const PinRegion& region : regions) {
    for (size_t i = 0; i < count; ++i) {
      const Vec3 d = Vec3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]) - region.centre;
      const bool inside = region.shape == PinRegion::Shape::Box
                              ? (d.cwiseAbs() - region.halfExtents).maxCoeff() <= 0
                              : d.squaredNorm() <= region.radius * region.radius;
      if (inside) isPinned[i] = 1;
    }
  }
  std::vector<uint32_t> all;
  for (size_t i = 0; i < count; ++i) if (isPinned[i]) all.push_back(uint32_t(i));
  return all;
}

Vec3 pointAt(const BodyBlueprint& b, uint32_t i) { return Vec3(b.positions[3 * i], b.positions[3 * i + 1], b.positions[3 * i + 2]); }

void addLink(BodyBlueprint& b, uint32_t i, uint32_t j, const Strength& s) {
  const Real length = (pointAt(b, i) - pointAt(b, j)).norm();
  b.constraints.push_back({i, j, length, length, s});
}

void spreadMass(BodyBlueprint& b, size_t count, Real mass, const std::vector<uint32_t>& pinned) {
  b.inverseMasses.assign(count, Real(count) / mass);
  for (uint32_t p : pinned) b.inverseMasses[p] = 0;
}

void addTethers(BodyBlueprint& b, TetherMode mode, Real slack) {
  const uint32_t n = uint32_t(b.inverseMasses.size());
  std::vector<uint32_t> pins;
  for (uint32_t i = 0; i < n; ++i) if (b.inverseMasses[i] == 0) pins.push_back(i);
  std::vector<double> distance(n, std::numeric_limits<double>::infinity());
  std::vector<uint32_t> anchor(n, 0);
  if (mode == TetherMode::Euclidean) {
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t pin : pins) {
        const double d = (pointAt(b, i) - pointAt(b, pin)).norm();
        if (d < distance[i]) distance[i] = d, anchor[i] = pin;
      }
    }
  } else {
    std::vector<std::vector<std::pair<uint32_t, double>>> adjacency(n);
    for (const DistanceConstraintDef& c : b.constraints) {
      adjacency[c.i].push_back({c.j, c.minLength});
      adjacency[c.j].push_back({c.i, c.minLength});
    }
    using Entry = std::pair<double, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    for (uint32_t pin : pins) distance[pin] = 0, anchor[pin] = pin, queue.push({0.0, pin});
    while (!queue.empty()) {
      const auto [d, i] = queue.top();
      queue.pop();
      if (d > distance[i]) continue;
      for (const auto& [j, length] : adjacency[i]) {
        if (d + length < distance[j]) distance[j] = d + length, anchor[j] = anchor[i], queue.push({distance[j], j});
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (b.inverseMasses[i] == 0 || !std::isfinite(distance[i])) continue;  // pinned, or not connected to a pin
    b.tethers.push_back({i, anchor[i], Real(distance[i] * slack)});
  }
}

}  // namespace pbd
