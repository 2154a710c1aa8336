// Strain triangles (ClothModel::StrainTriangles): built per render triangle by the cloth and mesh builders, stored in
// the world with three multipliers each, and projected right after the distance constraints (constraint_passes.cpp).
#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "base/checks.h"
#include "world/symmetric_sweep.h"
#include "world/world_state.h"

namespace pbd {

bool usesStrainTriangles(const char* fn, ClothModel model) {
  if (model != ClothModel::Edges && model != ClothModel::StrainTriangles) check::fail(fn, "model", "is unknown", int(model));
  return model == ClothModel::StrainTriangles;
}

void addStrainTriangles(const char* fn, BodyBlueprint& b, std::span<const uint32_t> triangles, const Vec3& warp,
                        const Strength& stretch, const Strength& shear) {
  b.triangleStrains.reserve(b.triangleStrains.size() + triangles.size() / 3);
  for (size_t t = 0; t < triangles.size() / 3; ++t) {
    TriangleStrainConstraint c{};
    Vec3 X[3];
    for (int k = 0; k < 3; ++k) {
      c.p[k] = triangles[3 * t + k];
      X[k] = pointAt(b, c.p[k]);
    }
    if (!restTriangleFrame(X, c.restInverse, c.restArea, warp)) {
      check::fail(fn, "triangles[" + std::to_string(t) + "]", "is degenerate (no rest frame: zero area)", c.restArea);
    }
    // The def's compliance is per unit area (1 / modulus, m/N), so that a finer mesh of the same sheet is as stiff:
    // the energy ½ C² A / compliance is the strain energy density times the area (constraints/triangle_strain.h).
    c.stretchCompliance = triangleCompliance(stretch.compliance, c.restArea);
    c.shearCompliance = triangleCompliance(shear.compliance, c.restArea);
    c.stretchStiffness = stretch.stiffness;
    c.shearStiffness = shear.stiffness;
    b.triangleStrains.push_back(c);
  }
}

void World::Impl::reserveTriangleStrains(const char* fn, size_t extra) {
  const size_t total = constraints.triangleStrains.size() + extra;
  if (total > kMaxConstraints) check::fail(fn, "triangle strain count", "would exceed the limit", total);
  constraints.triangleStrains.reserve(total);
  constraints.triangleStrainLambda.reserve(3 * total);
}

void World::Impl::appendTriangleStrains(const BodyBlueprint& b, uint32_t first) {
  for (TriangleStrainConstraint c : b.triangleStrains) {
    for (uint32_t& q : c.p) q += first;
    c.stretchKPrime = symmetricSweepKPrime(c.stretchStiffness, settings.iterations);
    c.shearKPrime = symmetricSweepKPrime(c.shearStiffness, settings.iterations);
    constraints.triangleStrains.push_back(c);
    constraints.triangleStrainLambda.insert(constraints.triangleStrainLambda.end(), 3, Real(0));
  }
}

uint32_t World::triangleStrainCount() const { return uint32_t(impl_->constraints.triangleStrains.size()); }

}  // namespace pbd
