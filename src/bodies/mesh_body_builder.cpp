// The triangle-mesh builder: any render mesh becomes a cloth, shell or balloon. Welding first is what keeps UV seams
// and split-normal seams from opening: peer engines that simulate render vertices directly burst along them.
#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "pbd/mesh_weld.h"
#include "pbd/world.h"
#include "mesh/surface_topology.h"
#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "base/checks.h"

namespace pbd {
namespace {

/// Lumped masses: each triangle gives a third of its area to each of its vertices; scaled to `total`.
std::vector<double> areaMasses(const BodyBlueprint& b, const std::vector<uint32_t>& triangles, Real total) {
  std::vector<double> mass(b.positions.size() / 3, 0.0);
  double area = 0;
  for (size_t t = 0; t < triangles.size(); t += 3) {
    const Vec3 a = pointAt(b, triangles[t]), c1 = pointAt(b, triangles[t + 1]), c2 = pointAt(b, triangles[t + 2]);
    const double third = double((c1 - a).cross(c2 - a).norm()) / 6;
    for (int k = 0; k < 3; ++k) mass[triangles[t + k]] += third;
    area += 3 * third;
  }
  for (double& m : mass) m *= double(total) / area;
  return mass;
}

/// One hinge per edge shared by exactly two triangles, as (wing, wing, edge, edge) with the edge in the first
/// triangle's winding order, which is what gives the dihedral angle its sign convention. Two triangles on the same
/// three vertices (a doubled face) make no hinge: their angle is undefined, and a constraint repeating a particle is
/// one a snapshot of the world would refuse (the tearing fuzz target found it).
void addHinges(BodyBlueprint& b, const std::vector<uint32_t>& triangles, const Strength& strength) {
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, int>> firstWing;  // undirected edge -> wing, uses
  std::vector<std::array<uint32_t, 4>> hinges;
  for (size_t t = 0; t < triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t e0 = triangles[t + k], e1 = triangles[t + (k + 1) % 3], wing = triangles[t + (k + 2) % 3];
      auto [it, added] = firstWing.try_emplace({std::min(e0, e1), std::max(e0, e1)}, wing, 1);
      if (added) continue;
      if (++it->second.second == 2) hinges.push_back({it->second.first, wing, e1, e0});
    }
  }
  for (const auto& h : hinges) {
    if (firstWing.at({std::min(h[2], h[3]), std::max(h[2], h[3])}).second != 2) continue;  // non-manifold edge
    if (h[0] == h[1]) continue;  // a doubled face
    DihedralConstraintDef d;
    d.p0 = h[0], d.p1 = h[1], d.p2 = h[2], d.p3 = h[3];
    d.strength = strength;
    b.dihedrals.push_back(d);
  }
}

/// Vertices that no triangle uses (three.js's spheres have one per pole) would be massless particles: they are
/// removed, and their render vertices follow the body's first particle (they are not drawn by any triangle).
void dropUnusedVertices(BodyBlueprint& b, std::vector<uint32_t>& triangles) {
  const size_t n = b.positions.size() / 3;
  std::vector<uint32_t> renumber(n, ~0u);
  for (uint32_t i : triangles) renumber[i] = 0;
  uint32_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (renumber[i] == ~0u) continue;
    renumber[i] = kept;
    for (int a = 0; a < 3; ++a) b.positions[3 * size_t(kept) + a] = b.positions[3 * i + a];
    ++kept;
  }
  b.positions.resize(3 * size_t(kept));
  for (uint32_t& i : triangles) i = renumber[i];
  for (uint32_t& particle : b.renderToParticle) particle = renumber[particle] == ~0u ? 0 : renumber[particle];
}

}  // namespace

BodyBlueprint buildTriangleMesh(const TriangleMeshDef& def) {
  const char* fn = "addTriangleMesh";
  if (def.positions.empty() || def.positions.size() % 3 != 0) {
    check::fail(fn, "positions", "length must be a positive multiple of 3", def.positions.size());
  }
  if (def.positions.size() / 3 > kMaxParticles) check::fail(fn, "positions", "exceed the particle limit", def.positions.size() / 3);
  if (def.triangles.empty() || def.triangles.size() % 3 != 0) {
    check::fail(fn, "triangles", "length must be a positive multiple of 3", def.triangles.size());
  }
  if (def.triangles.size() / 3 > kMaxConstraints / 4) check::fail(fn, "triangles", "exceed the constraint limit", def.triangles.size() / 3);
  if (def.weldTolerance != -1) check::atLeast(fn, "weldTolerance", def.weldTolerance, 0);
  check::positive(fn, "mass", def.mass);
  checkStrength(fn, "stretch", def.stretch);
  checkStrength(fn, "shear", def.shear);
  const bool strainTriangles = usesStrainTriangles(fn, def.model);
  checkStrength(fn, "bend", def.bend);
  checkStrength(fn, "volume", def.volume);
  checkTethers(fn, def.tethers, def.tetherSlack);
  check::atLeast(fn, "pressure", def.pressure, 0);
  const size_t renderCount = def.positions.size() / 3;
  for (size_t k = 0; k < def.pinned.size(); ++k) check::index(fn, "pinned[" + std::to_string(k) + "]", def.pinned[k], renderCount);

  BodyBlueprint b;
  std::vector<uint32_t> triangles;
  if (def.weldTolerance == -1) {
    for (size_t k = 0; k < def.positions.size(); ++k)
      if (!std::isfinite(def.positions[k])) check::finite(fn, "positions[" + std::to_string(k) + "]", def.positions[k]);
    for (size_t k = 0; k < def.triangles.size(); ++k) check::index(fn, "triangles[" + std::to_string(k) + "]", def.triangles[k], renderCount);
    b.positions = def.positions;
    triangles = def.triangles;
    b.renderToParticle.resize(renderCount);
    for (uint32_t i = 0; i < renderCount; ++i) b.renderToParticle[i] = i;
  } else {
    WeldResult welded = [&] {
      try {
        return weldVertices(def.positions, def.triangles, def.weldTolerance);
      } catch (const InvalidArgument& e) {  // name this entry point, keep the argument the welder named
        const std::string what = e.what();
        const size_t colon = what.find(":");
        throw InvalidArgument(std::string(fn) + (colon == std::string::npos ? ": " + what : what.substr(colon)));
      }
    }();
    b.positions = std::move(welded.positions);
    triangles = std::move(welded.triangles);
    b.renderToParticle = std::move(welded.renderToParticle);
  }
  if (triangles.empty()) {  // welding dropped every triangle (each had two corners within the tolerance)
    check::fail(fn, "triangles", "are all degenerate (none is left after welding)", def.triangles.size() / 3);
  }
  for (size_t t = 0; t < triangles.size(); t += 3) {
    const Vec3 a = pointAt(b, triangles[t]), c1 = pointAt(b, triangles[t + 1]), c2 = pointAt(b, triangles[t + 2]);
    const Real scale = std::max({(c1 - a).norm(), (c2 - a).norm(), (c2 - c1).norm()});
    if (!((c1 - a).cross(c2 - a).norm() > Real(1e-6) * scale * scale)) {
      check::fail(fn, "triangles[" + std::to_string(t / 3) + "]", "is degenerate (zero area after welding)", t / 3);
    }
  }
  dropUnusedVertices(b, triangles);
  if (def.pressure > 0) mesh::requireClosedManifold(fn, b.positions, triangles);

  std::vector<uint32_t> pinnedParticles;
  for (uint32_t r : def.pinned) pinnedParticles.push_back(b.renderToParticle[r]);
  const std::vector<uint32_t> pins = resolvePins(fn, pinnedParticles, def.pinRegions, b.positions);
  if (def.tethers != TetherMode::None && pins.empty()) {
    check::fail(fn, "tethers", "need at least one pinned particle (pinned and pinRegions catch none)", 0);
  }
  const size_t n = b.positions.size() / 3;
  const std::vector<double> mass = areaMasses(b, triangles, def.mass);
  b.inverseMasses.resize(n);
  for (size_t i = 0; i < n; ++i) {
    check::derivedInverseMass(fn, "mass", 1 / mass[i], def.mass);
    b.inverseMasses[i] = Real(1 / mass[i]);
  }
  for (uint32_t pin : pins) b.inverseMasses[pin] = 0;

  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(triangles.size());
  for (size_t t = 0; t < triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = triangles[t + k], j = triangles[t + (k + 1) % 3];
      edges.push_back({std::min(i, j), std::max(i, j)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (const auto& [i, j] : edges) addLink(b, i, j, def.stretch);
  if (def.bending) addHinges(b, triangles, def.bend);
  if (def.tethers != TetherMode::None) addTethers(b, def.tethers, def.tetherSlack);
  if (strainTriangles) {
    // The edges were built all the same: geodesic tethers walk them. The strain triangles replace them in the solve.
    b.constraints.erase(b.constraints.begin(), b.constraints.begin() + std::ptrdiff_t(edges.size()));
    addStrainTriangles(fn, b, triangles, Vec3::Zero(), def.stretch, def.shear);  // x along each first edge
  }
  b.triangles = triangles;
  if (def.pressure > 0) {
    b.surface = std::move(triangles);
    b.pressure = def.pressure;
    b.surfaceVolumeUnilateral = def.volumeOnlyResistsCompression;
    b.surfaceVolume = def.volume;
  }
  return b;
}

}  // namespace pbd
