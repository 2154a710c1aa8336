#include "world/body_builders.h"

#include <algorithm>
#include <limits>
#include <queue>

#include "pbd/world.h"
#include "world/validate.h"

namespace pbd {
namespace {

void checkStrength(const char* fn, const char* name, const Strength& s) {
  check::atLeast(fn, std::string(name) + ".compliance", s.compliance, 0);
  check::inRange(fn, std::string(name) + ".stiffness", s.stiffness, 0, 1);
}

void checkPins(const char* fn, const std::vector<uint32_t>& pinned, uint64_t count) {
  for (size_t k = 0; k < pinned.size(); ++k) check::index(fn, "pinned[" + std::to_string(k) + "]", pinned[k], count);
}

Vec3 pointAt(const BodyBlueprint& b, uint32_t i) { return Vec3(b.positions[3 * i], b.positions[3 * i + 1], b.positions[3 * i + 2]); }

/// A rod between two particles at their current distance.
void addRod(BodyBlueprint& b, uint32_t i, uint32_t j, const Strength& s) {
  const Real length = (pointAt(b, i) - pointAt(b, j)).norm();
  b.constraints.push_back({i, j, length, length, s});
}

void spreadMass(BodyBlueprint& b, size_t count, Real mass, const std::vector<uint32_t>& pinned) {
  b.inverseMasses.assign(count, Real(count) / mass);
  for (uint32_t p : pinned) b.inverseMasses[p] = 0;
}

/// Tethers every free particle of `b` to its nearest pinned particle (Euclidean, or geodesic over the body's
/// constraint edges by multi-source Dijkstra), with the limit slack x that distance.
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

}  // namespace

BodyBlueprint buildCloth(const ClothDef& def) {
  const char* fn = "addCloth";
  check::inRange(fn, "columns", def.columns, 2, kMaxParticles);
  check::inRange(fn, "rows", def.rows, 2, kMaxParticles);
  const uint64_t count = uint64_t(def.columns) * uint64_t(def.rows);
  if (count > kMaxParticles) check::fail(fn, "columns*rows", ("exceeds " + std::to_string(kMaxParticles)).c_str(), count);
  check::positive(fn, "spacing", def.spacing);
  check::finite(fn, "origin", def.origin);
  check::finite(fn, "axisU", def.axisU);
  check::finite(fn, "axisV", def.axisV);
  if (!(def.axisU.norm() > 0)) check::fail(fn, "axisU", "must be non-zero", def.axisU.norm());
  if (!(def.axisV.norm() > 0)) check::fail(fn, "axisV", "must be non-zero", def.axisV.norm());
  const Vec3 u = def.axisU.normalized(), v = def.axisV.normalized();
  if (u.cross(v).norm() < Real(1e-3)) check::fail(fn, "axisV", "must not be parallel to axisU (|u x v|)", u.cross(v).norm());
  check::positive(fn, "mass", def.mass);
  checkPins(fn, def.pinned, count);
  checkStrength(fn, "stretch", def.stretch);
  checkStrength(fn, "shear", def.shear);
  checkStrength(fn, "bend", def.bend);
  if (def.bendModel != BendModel::SkipOne && def.bendModel != BendModel::Dihedral) {
    check::fail(fn, "bendModel", "is unknown", int(def.bendModel));
  }
  if (def.tethers != TetherMode::None && def.tethers != TetherMode::Euclidean && def.tethers != TetherMode::Geodesic) {
    check::fail(fn, "tethers", "is unknown", int(def.tethers));
  }
  check::inRange(fn, "tetherSlack", def.tetherSlack, 1, 1e6);
  if (def.tethers != TetherMode::None && def.pinned.empty()) {
    check::fail(fn, "tethers", "need at least one pinned particle (pinned is empty)", 0);
  }

  const uint32_t C = uint32_t(def.columns), R = uint32_t(def.rows);
  BodyBlueprint b;
  b.positions.resize(3 * count);
  for (uint32_t r = 0; r < R; ++r) {
    for (uint32_t c = 0; c < C; ++c) {
      const Vec3 x = def.origin + (Real(c) * def.spacing) * u + (Real(r) * def.spacing) * v;
      for (int a = 0; a < 3; ++a) b.positions[3 * (r * C + c) + a] = x[a];
    }
  }
  spreadMass(b, count, def.mass, def.pinned);
  const auto id = [C](uint32_t c, uint32_t r) { return r * C + c; };
  b.constraints.reserve(size_t(count) * 6);
  // Each family is emitted as two independent sets (no two constraints of a set share a particle). Gauss-Seidel
  // over this order is the red-black ordering: on large rigid cloths the row-major order lets the error grow until
  // the cloth explodes (64 x 64, 10 substeps x 1 iteration, measured); this order does not.
  // An edge starting at column c, spanning k columns (or k rows when it is vertical), is in set (c / k) % 2.
  struct Edge {
    uint32_t c0, r0, c1, r1;  // offsets of the two endpoints from (c, r)
    uint32_t span;            // k
  };
  const auto family = [&](Edge e, const Strength& s) {
    const uint32_t dc = std::max(e.c0, e.c1), dr = std::max(e.r0, e.r1);
    for (uint32_t set = 0; set < 2; ++set) {
      for (uint32_t r = 0; r + dr < R; ++r) {
        for (uint32_t c = 0; c + dc < C; ++c) {
          if (((dc ? c : r) / e.span) % 2 == set) addRod(b, id(c + e.c0, r + e.r0), id(c + e.c1, r + e.r1), s);
        }
      }
    }
  };
  family({0, 0, 1, 0, 1}, def.stretch);  // horizontal
  family({0, 0, 0, 1, 1}, def.stretch);  // vertical
  family({0, 0, 1, 1, 1}, def.shear);    // diagonal
  family({1, 0, 0, 1, 1}, def.shear);    // anti-diagonal
  if (def.bendModel == BendModel::SkipOne) {
    family({0, 0, 2, 0, 2}, def.bend);   // skip-one horizontal
    family({0, 0, 0, 2, 2}, def.bend);   // skip-one vertical
  } else {
    // Every interior edge of the render triangulation: cell (c, r) is split into (c,r)(c+1,r)(c,r+1) and
    // (c+1,r)(c+1,r+1)(c,r+1). Each hinge is listed as wing, wing, edge, edge.
    const auto hinge = [&](uint32_t w0, uint32_t w1, uint32_t e0, uint32_t e1) {
      DihedralConstraintDef d;
      d.p0 = w0, d.p1 = w1, d.p2 = e0, d.p3 = e1;
      d.strength = def.bend;
      b.dihedrals.push_back(d);
    };
    for (uint32_t r = 0; r < R; ++r) {
      for (uint32_t c = 0; c < C; ++c) {
        if (c + 1 < C && r + 1 < R) hinge(id(c, r), id(c + 1, r + 1), id(c + 1, r), id(c, r + 1));  // cell diagonal
        if (c + 1 < C && r >= 1 && r + 1 < R) hinge(id(c + 1, r - 1), id(c, r + 1), id(c, r), id(c + 1, r));
        if (r + 1 < R && c >= 1 && c + 1 < C) hinge(id(c - 1, r + 1), id(c + 1, r), id(c, r), id(c, r + 1));
      }
    }
  }
  if (def.tethers != TetherMode::None) addTethers(b, def.tethers, def.tetherSlack);
  return b;
}

BodyBlueprint buildSoftBody(const SoftBodyDef& def) {
  const char* fn = "addSoftBody";
  if (def.positions.empty() || def.positions.size() % 3 != 0) {
    check::fail(fn, "positions", "length must be a positive multiple of 3", def.positions.size());
  }
  const uint64_t n = def.positions.size() / 3;
  if (n > kMaxParticles) check::fail(fn, "positions", "exceed the particle limit", n);
  for (size_t k = 0; k < def.positions.size(); ++k) check::finite(fn, "positions[" + std::to_string(k) + "]", def.positions[k]);
  if (def.tets.empty() || def.tets.size() % 4 != 0) check::fail(fn, "tets", "length must be a positive multiple of 4", def.tets.size());
  if (def.tets.size() / 4 > kMaxConstraints / 8) check::fail(fn, "tets", "exceed the constraint limit", def.tets.size() / 4);
  check::positive(fn, "density", def.density);
  checkPins(fn, def.pinned, n);
  checkStrength(fn, "edges", def.edges);
  checkStrength(fn, "volume", def.volume);

  BodyBlueprint b;
  b.positions = def.positions;
  std::vector<double> mass(n, 0.0);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(def.tets.size() / 4 * 6);
  for (size_t t = 0; t < def.tets.size() / 4; ++t) {
    const uint32_t* q = &def.tets[4 * t];
    const std::string name = "tets[" + std::to_string(t) + "]";
    for (int k = 0; k < 4; ++k) check::index(fn, name + "[" + std::to_string(k) + "]", q[k], n);
    for (int a = 0; a < 4; ++a)
      for (int c = a + 1; c < 4; ++c)
        if (q[a] == q[c]) check::fail(fn, name, "repeats a vertex", q[c]);
    const Vec3 p0 = pointAt(b, q[0]), p1 = pointAt(b, q[1]), p2 = pointAt(b, q[2]), p3 = pointAt(b, q[3]);
    const Real volume = tetVolume(p0, p1, p2, p3);
    // Degenerate relative to the tet's own size: |V| below 1e-6 of its longest edge cubed.
    const Real scale = std::max({(p1 - p0).norm(), (p2 - p0).norm(), (p3 - p0).norm(), (p2 - p1).norm(),
                                 (p3 - p1).norm(), (p3 - p2).norm()});
    if (std::abs(volume) <= Real(1e-6) * scale * scale * scale) check::fail(fn, name, "is degenerate (volume)", volume);
    if (volume < 0) check::fail(fn, name, "is inverted (negative volume; swap two vertices)", volume);
    for (int k = 0; k < 4; ++k) mass[q[k]] += def.density * volume / 4;
    b.volumes.push_back({{q[0], q[1], q[2], q[3]}, volume, def.volume.compliance, def.volume.stiffness, 0,
                         def.volumeOnlyResistsCompression});
    for (int a = 0; a < 4; ++a)
      for (int c = a + 1; c < 4; ++c) edges.push_back({std::min(q[a], q[c]), std::max(q[a], q[c])});
  }
  b.inverseMasses.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (mass[i] == 0) check::fail(fn, "positions", ("vertex " + std::to_string(i) + " is in no tet").c_str(), i);
    b.inverseMasses[i] = Real(1 / mass[i]);
  }
  for (uint32_t pin : def.pinned) b.inverseMasses[pin] = 0;
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  b.constraints.reserve(edges.size());
  for (const auto& [i, j] : edges) addRod(b, i, j, def.edges);
  return b;
}

BodyBlueprint buildRope(const RopeDef& def) {
  const char* fn = "addRope";
  check::inRange(fn, "segments", def.segments, 1, kMaxParticles - 1);
  check::finite(fn, "start", def.start);
  check::finite(fn, "end", def.end);
  if (!((def.end - def.start).norm() > 0)) check::fail(fn, "end", "must differ from start (|end - start|)", 0);
  check::positive(fn, "mass", def.mass);
  const uint32_t count = uint32_t(def.segments) + 1;
  checkPins(fn, def.pinned, count);
  checkStrength(fn, "stretch", def.stretch);
  checkStrength(fn, "bend", def.bend);

  BodyBlueprint b;
  b.positions.resize(3 * size_t(count));
  for (uint32_t k = 0; k < count; ++k) {
    const Vec3 x = def.start + (Real(k) / Real(def.segments)) * (def.end - def.start);
    for (int a = 0; a < 3; ++a) b.positions[3 * k + a] = x[a];
  }
  spreadMass(b, count, def.mass, def.pinned);
  b.constraints.reserve(2 * size_t(count));
  for (uint32_t k = 0; k + 1 < count; ++k) addRod(b, k, k + 1, def.stretch);
  for (uint32_t k = 0; k + 2 < count; ++k) addRod(b, k, k + 2, def.bend);
  return b;
}

}  // namespace pbd
