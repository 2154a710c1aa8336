// The soft body builder: a tet mesh becomes particles with masses from density, edge constraints, volume
// constraints or Neo-Hookean elements, and optionally one shape matching cluster over the whole body.
#include <algorithm>

#include "mesh/mesh_checks.h"
#include "pbd/world.h"
#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "bodies/soft_material.h"
#include "base/checks.h"

namespace pbd {

BodyBlueprint buildSoftBody(const SoftBodyDef& def) {
  const char* fn = "addSoftBody";
  if (def.positions.empty() || def.positions.size() % 3 != 0) {
    check::fail(fn, "positions", "length must be a positive multiple of 3", def.positions.size());
  }
  const uint64_t n = def.positions.size() / 3;
  if (n > kMaxParticles) check::fail(fn, "positions", "exceed the particle limit", n);
  for (size_t k = 0; k < def.positions.size(); ++k)
    if (!std::isfinite(def.positions[k])) check::finite(fn, "positions[" + std::to_string(k) + "]", def.positions[k]);
  if (def.tets.empty() || def.tets.size() % 4 != 0) check::fail(fn, "tets", "length must be a positive multiple of 4", def.tets.size());
  if (def.tets.size() / 4 > kMaxConstraints / 8) check::fail(fn, "tets", "exceed the constraint limit", def.tets.size() / 4);
  check::positive(fn, "density", def.density);
  check::atLeast(fn, "totalMass", def.totalMass, 0);
  const std::vector<uint32_t> pins = resolvePins(fn, def.pinned, def.pinRegions, def.positions);
  checkStrength(fn, "edges", def.edges);
  checkStrength(fn, "volume", def.volume);
  const bool neoHookean = def.material == SoftMaterial::NeoHookean;
  if (!neoHookean && def.material != SoftMaterial::Volume) check::fail(fn, "material", "is unknown", int(def.material));
  LameParameters lame{};
  if (neoHookean) {
    checkNeoHookeanMaterial(fn, def.youngsModulus, def.poissonRatio, def.materialStiffness,
                            {"youngsModulus", "poissonRatio", "materialStiffness"});
    lame = lameFromYoungPoisson(def.youngsModulus, def.poissonRatio);
  }

  BodyBlueprint b;
  b.positions = def.positions;
  std::vector<double> mass(n, 0.0);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(def.tets.size() / 4 * 6);
  for (size_t t = 0; t < def.tets.size() / 4; ++t) {
    const uint32_t* q = &def.tets[4 * t];
    // Degenerate relative to the tet's own size, or inverted; tetrahedralize applies the same test to its output.
    const Real volume = check::tet(fn, t, q, n, [&b](uint32_t i) { return pointAt(b, i); });
    const Vec3 p0 = pointAt(b, q[0]), p1 = pointAt(b, q[1]), p2 = pointAt(b, q[2]), p3 = pointAt(b, q[3]);
    for (int k = 0; k < 4; ++k) mass[q[k]] += def.density * volume / 4;
    if (neoHookean) {
      const Vec3 X[4] = {p0, p1, p2, p3};
      NeoHookeanTet e{};
      for (int k = 0; k < 4; ++k) e.p[k] = q[k];
      if (!neoHookeanRestShape(X, e.restInverse, e.restVolume))
        check::fail(fn, "tets[" + std::to_string(t) + "]", "is degenerate (shape)", volume);
      applyNeoHookeanMaterial(e, lame, def.materialStiffness);
      b.neoHookeans.push_back(e);
    } else {
      b.volumes.push_back({{q[0], q[1], q[2], q[3]}, volume, def.volume.compliance, def.volume.stiffness, 0,
                           def.volumeOnlyResistsCompression});
    }
    if (!def.edgeConstraints) continue;
    for (int a = 0; a < 4; ++a)
      for (int c = a + 1; c < 4; ++c) edges.push_back({std::min(q[a], q[c]), std::max(q[a], q[c])});
  }
  b.inverseMasses.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (mass[i] == 0) check::fail(fn, "positions", ("vertex " + std::to_string(i) + " is in no tet").c_str(), i);
    const double inverse = def.totalMass > 0 ? double(n) / def.totalMass : 1 / mass[i];
    if (def.totalMass > 0) check::derivedInverseMass(fn, "totalMass", inverse, def.totalMass);
    else check::derivedInverseMass(fn, "density", inverse, def.density);
    b.inverseMasses[i] = Real(inverse);
  }
  for (uint32_t pin : pins) b.inverseMasses[pin] = 0;
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  b.constraints.reserve(edges.size());
  for (const auto& [i, j] : edges) addLink(b, i, j, def.edges);
  if (def.shapeMatching) {
    std::vector<uint32_t> all(n);
    for (uint32_t i = 0; i < n; ++i) all[i] = i;
    b.shapeMatching = resolveShapeMatching(fn, "shapeMatching", all, b.positions.data(), b.inverseMasses.data(), n,
                                           "shapeMatchingStrength", def.shapeMatchingStrength);
  }
  return b;
}

}  // namespace pbd
