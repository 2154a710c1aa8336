// Stable Neo-Hookean tets: gradients against central differences (inverted tets included), no correction at rest
// or after a rigid motion (coupled XPBD, PBD), the sequential XPBD solve's rest behaviour, no momentum from the
// correction, recovery from a squashed and an inverted tet, and the small-strain energy against linear elasticity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "native/batch_oracle.h"
#include "scenes/finite_difference.h"

using namespace pbd;

namespace {

const Vec3 kRest[4] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};  // V0 = 1/6 m³

/// The unit corner tet's Dm⁻¹ and V0.
struct RestTet {
  Mat3 restInverse;
  Real restVolume = 0;
  RestTet() { EXPECT_TRUE(neoHookeanRestShape(kRest, restInverse, restVolume)); }
};

Mat3 deformation(const Vec3 x[4], const Mat3& restInverse) {
  const Vec3* q[4] = {&x[0], &x[1], &x[2], &x[3]};
  return deformationGradient<3>(q, restInverse);
}

/// Everything a projection needs besides the positions: method, k', α̃ (= α / h²) and the material's γ.
struct Solve {
  bool xpbd = true;
  Real kPrime[2] = {1, 1};
  Real alphaTilde[2] = {0, 0};
  Real gamma = 1;
};

/// Inverse mass of each vertex of the unit tet at 1000 kg/m³ (a quarter of its mass each).
const Real kW = 4 / (1000.0f / 6);
const Real kWeights[4] = {kW, kW, kW, kW};

/// XPBD with the material of Young's modulus E (Pa), ν = 0.3, and substeps of h = 1/600 s.
Solve xpbdMaterial(Real E, Real restVolume) {
  const NeoHookeanMaterial m = neoHookeanMaterial(lameFromYoungPoisson(E, 0.3f), restVolume);
  const Real invH2 = 600.0f * 600.0f;
  Solve s;
  s.alphaTilde[0] = m.deviatoricCompliance * invH2;
  s.alphaTilde[1] = m.hydrostaticCompliance * invH2;
  s.gamma = m.gamma;
  return s;
}

Solve pbdSetup(Real kDeviatoric, Real kHydrostatic) {
  Solve s;
  s.xpbd = false;
  s.kPrime[0] = kDeviatoric;
  s.kPrime[1] = kHydrostatic;
  return s;
}

/// One projection of x in place with the sequential or the coupled solve.
void projectTet(Vec3 x[4], const Real w[4], const RestTet& t, const Solve& s, bool coupled, Real lambda[2]) {
  Vec3* p[4] = {&x[0], &x[1], &x[2], &x[3]};
  if (coupled)
    projectNeoHookean(p, w, t.restInverse, s.gamma, s.xpbd, s.kPrime, s.alphaTilde, lambda);
  else
    projectNeoHookeanSequential(p, w, t.restInverse, s.gamma, s.xpbd, s.kPrime, s.alphaTilde, lambda);
}

Real maxMove(const Vec3 a[4], const Vec3 b[4]) {
  Real m = 0;
  for (int k = 0; k < 4; ++k) m = std::max(m, (a[k] - b[k]).norm());
  return m;
}

/// A random rotation and translation of the rest tet.
void rigidlyMoved(std::mt19937& rng, Vec3 out[4]) {
  std::uniform_real_distribution<Real> u(-1, 1);
  const Eigen::AngleAxis<Real> rotation(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized());
  const Vec3 shift(5 * u(rng), 5 * u(rng), 5 * u(rng));
  for (int k = 0; k < 4; ++k) out[k] = rotation * kRest[k] + shift;
}

/// Runs substeps at rest (no inertia to carry): λ restarts at 0, then 4 iterations. Fails on a non-finite position.
void settleWith(Vec3 x[4], const RestTet& t, const Solve& s, bool coupled, int substeps) {
  for (int substep = 0; substep < substeps; ++substep) {
    Real lambda[2] = {0, 0};
    for (int it = 0; it < 4; ++it) projectTet(x, kWeights, t, s, coupled, lambda);
    for (int k = 0; k < 4; ++k) ASSERT_TRUE(x[k].allFinite()) << "substep " << substep;
  }
}

}  // namespace

TEST(NeoHookeanKernel, GradientsMatchCentralDifferencesIncludingInvertedTets) {
  const RestTet t;
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  int inverted = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Vec3 x[4];
    for (int k = 0; k < 4; ++k) x[k] = kRest[k] + Vec3(u(rng), u(rng), u(rng));
    if (trial % 4 == 0) x[3].z() = -0.4f;  // pushed through the opposite face
    const Mat3 F = deformation(x, t.restInverse);
    inverted += F.determinant() < 0;
    Real CD, CH;
    Vec3 gD[4], gH[4];
    ASSERT_TRUE(neoHookeanDeviatoric(F, t.restInverse, 0, CD, gD));
    neoHookeanHydrostatic(F, t.restInverse, 1.2f, CH, gH);
    for (int k = 0; k < 4; ++k) {
      auto moved = [&](const Vec3& y) {
        Vec3 z[4] = {x[0], x[1], x[2], x[3]};
        z[k] = y;
        return deformation(z, t.restInverse);
      };
      const Vec3 fdD = scenes::centralDifference([&](const Vec3& y) { return neoHookeanDeviatoricValue(moved(y)); }, x[k]);
      const Vec3 fdH = scenes::centralDifference(
          [&](const Vec3& y) { return neoHookeanHydrostaticValue(moved(y), Real(1.2f)); }, x[k]);
      EXPECT_LT((fdD - gD[k]).norm(), 2e-3f) << "trial " << trial << " vertex " << k;
      EXPECT_LT((fdH - gH[k]).norm(), 2e-3f) << "trial " << trial << " vertex " << k;
    }
  }
  EXPECT_EQ(inverted, 10);
}

TEST(NeoHookeanKernel, NoCorrectionAtRestOrAfterARigidMotion) {
  const RestTet t;
  std::mt19937 rng(5);
  const Real w[4] = {kW, 2 * kW, 0.5f * kW, 1.5f * kW};
  for (int trial = 0; trial < 10; ++trial) {
    Vec3 start[4];
    if (trial == 0)
      for (int k = 0; k < 4; ++k) start[k] = kRest[k];
    else
      rigidlyMoved(rng, start);
    // α̃_D from ~1000 down to ~2 times Σ w |∇C_D|² (the stiffest that converges), and PBD.
    for (const Solve& s : {xpbdMaterial(1e5f, t.restVolume), xpbdMaterial(1e7f, t.restVolume),
                           xpbdMaterial(5e7f, t.restVolume), pbdSetup(1, 1)}) {
      Vec3 x[4] = {start[0], start[1], start[2], start[3]};
      Real lambda[2] = {0, 0};
      for (int it = 0; it < 10; ++it) projectTet(x, w, t, s, /*coupled=*/true, lambda);
      EXPECT_LT(maxMove(x, start), 1e-5f) << "trial " << trial << " xpbd " << s.xpbd << " α̃_D "
                                           << s.alphaTilde[0] / neoHookeanDeviatoricWeight(w, t.restInverse)
                                           << " Σ w |∇C_D|²";
    }
  }
}

TEST(NeoHookeanKernel, SequentialXpbdMovesARestingTetAndSettlesShortOfRest) {
  // The pre-stressed pair solved one after the other: the first projection pulls a resting tet in (C_D = sqrt(3)
  // at rest). Substeps of 4 iterations then settle at a volume below V0, about Σ w |∇C_D|² / α̃_D below.
  const RestTet t;
  const Real ratioPerE = xpbdMaterial(1, t.restVolume).alphaTilde[0] / neoHookeanDeviatoricWeight(kWeights, t.restInverse);
  for (Real E : {1e6f, 1e7f}) {
    const Solve s = xpbdMaterial(E, t.restVolume);
    Vec3 x[4] = {kRest[0], kRest[1], kRest[2], kRest[3]};
    Real first = 0;
    for (int substep = 0; substep < 3000; ++substep) {
      Real lambda[2] = {0, 0};
      for (int it = 0; it < 4; ++it) projectTet(x, kWeights, t, s, /*coupled=*/false, lambda);
      if (substep == 0) first = maxMove(x, kRest);
    }
    const Real V = tetVolume(x[0], x[1], x[2], x[3]) / t.restVolume;
    std::printf("α̃_D = %.0f Σ w |∇C_D|²: the first sequential substep moves a resting tet by %.2e m, it settles at "
                "V = %.4f V0\n", ratioPerE / E, first, V);
    EXPECT_GT(first, 1e-5f);
    EXPECT_GT(V, 0.85f);
    EXPECT_LT(V, 0.999f);
  }
}

TEST(NeoHookeanKernel, ASmallShearRelaxesToRest) {
  // A 5% simple shear changes neither C to first order; what restores it is the pre-stress of the pair acting along
  // the sheared gradients. With λ starting each substep at 0 it relaxes completely.
  const RestTet t;
  Vec3 x[4];
  for (int k = 0; k < 4; ++k) x[k] = kRest[k] + Vec3(0.05f * kRest[k].y(), 0, 0);
  settleWith(x, t, xpbdMaterial(1e6f, t.restVolume), true, 2000);
  const Mat3 F = deformation(x, t.restInverse);
  EXPECT_LT((F.transpose() * F - Mat3::Identity()).norm(), 1e-3f);
}

TEST(NeoHookeanKernel, CorrectionsCarryNoLinearOrAngularMomentum) {
  const RestTet t;
  std::mt19937 rng(9);
  std::uniform_real_distribution<Real> u(-0.3f, 0.3f);
  const Real mass[4] = {1, 3, 0.5f, 2};
  const Real w[4] = {1 / mass[0], 1 / mass[1], 1 / mass[2], 1 / mass[3]};
  for (int trial = 0; trial < 30; ++trial) {
    Vec3 start[4];
    for (int k = 0; k < 4; ++k) start[k] = kRest[k] + Vec3(u(rng), u(rng), u(rng)) + Vec3(1, -2, 0.5f);
    // Every projection whose gradients are taken at one configuration conserves both exactly: the coupled solve,
    // and either constraint alone. The sequential pair conserves linear momentum exactly, angular to second order.
    struct Case {
      Solve setup;
      bool coupled;
      bool checkAngular;
    };
    for (const Case& c : {Case{xpbdMaterial(1e8f, t.restVolume), true, true}, Case{pbdSetup(1, 0), false, true},
                          Case{pbdSetup(0, 1), false, true}, Case{xpbdMaterial(1e8f, t.restVolume), false, false}}) {
      Vec3 x[4] = {start[0], start[1], start[2], start[3]};
      Real lambda[2] = {0, 0};
      projectTet(x, w, t, c.setup, c.coupled, lambda);
      Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
      Real scale = 0, roundoff = 0;  // float rounding of x - start is about 1e-7 |x|
      for (int k = 0; k < 4; ++k) {
        const Vec3 d = x[k] - start[k];
        linear += mass[k] * d;
        angular += mass[k] * start[k].cross(d);
        scale += mass[k] * d.norm();
        roundoff += 1e-6f * mass[k] * (1 + start[k].norm());
      }
      ASSERT_GT(scale, 1e-4f);
      EXPECT_LT(linear.norm(), 1e-5f * scale + roundoff) << "trial " << trial;
      if (c.checkAngular) {
        EXPECT_LT(angular.norm(), 1e-5f * scale * 3 + 3 * roundoff) << "trial " << trial;  // |x| <= 3
      }
    }
  }
}

TEST(NeoHookeanKernel, SquashedAndInvertedTetsRecoverWithoutNaN) {
  const RestTet t;
  const Vec3 squashed[4] = {kRest[0], kRest[1], kRest[2], Vec3(0, 0, 0.1f)};            // 10% of V0
  const Vec3 inverted[4] = {kRest[0], kRest[1], kRest[2], Vec3(0.2f, 0.2f, -0.5f)};     // vertex 3 through 0-1-2
  ASSERT_NEAR(tetVolume(squashed[0], squashed[1], squashed[2], squashed[3]), 0.1f * t.restVolume, 1e-6f);
  ASSERT_LT(tetVolume(inverted[0], inverted[1], inverted[2], inverted[3]), 0);
  struct Case {
    Solve solve;
    bool coupled;
    int substeps;
    Real shapeTolerance;  ///< On |FᵀF - I| at the end; < 0: only no NaN and no collapse (too stiff to converge).
  };
  const Case cases[] = {
      {xpbdMaterial(1e6f, t.restVolume), true, 3000, 0.01f},   // α̃_D ≈ 117 Σ w |∇C_D|²
      {xpbdMaterial(1e7f, t.restVolume), true, 300, 0.001f},   // ≈ 12
      {xpbdMaterial(1e9f, t.restVolume), true, 300, -1},       // ≈ 0.12: too stiff for these substeps
      {xpbdMaterial(1e5f, t.restVolume), false, 6000, 0.05f},  // ≈ 1170
      {xpbdMaterial(1e8f, t.restVolume), false, 300, -1},      // ≈ 1.2
      {pbdSetup(1, 1), true, 3000, 0.05f},
      {pbdSetup(0.2f, 0.2f), false, 3000, 0.1f},
  };
  for (const Vec3* start : {squashed, inverted}) {
    for (const Case& c : cases) {
      Vec3 x[4] = {start[0], start[1], start[2], start[3]};
      settleWith(x, t, c.solve, c.coupled, c.substeps);
      const Real V = tetVolume(x[0], x[1], x[2], x[3]) / t.restVolume;
      const Real shape = (deformation(x, t.restInverse).transpose() * deformation(x, t.restInverse) -
                          Mat3::Identity()).norm();
      const std::string what = std::string(start == squashed ? "squashed" : "inverted") +
                               (c.coupled ? " coupled" : " sequential") + (c.solve.xpbd ? " xpbd α̃_D " : " pbd k' ") +
                               std::to_string(c.solve.xpbd ? c.solve.alphaTilde[0] : c.solve.kPrime[0]);
      if (c.shapeTolerance < 0) {
        std::printf("%s: V = %.3f V0, |FᵀF - I| = %.3f\n", what.c_str(), V, shape);
        if (c.coupled) {
          EXPECT_GT(V, 0.1f) << what;  // the step cap keeps it from collapsing to a point
        }
        continue;
      }
      EXPECT_NEAR(V, 1, 0.02f) << what;
      EXPECT_LT(shape, c.shapeTolerance) << what;  // back to a rotation of the rest shape
    }
  }
}

namespace {

using Mat3d = Eigen::Matrix3d;

/// V0 Ψ = ½ C_D²/α_D + ½ C_H²/α_H in double, minus its value at rest, for F = I + ε.
double strainEnergy(const Mat3d& strain, double alphaD, double alphaH, double gamma) {
  auto energy = [&](const Mat3d& F) {
    const double CD = neoHookeanDeviatoricValue(F), CH = neoHookeanHydrostaticValue(F, gamma);
    return 0.5 * CD * CD / alphaD + 0.5 * CH * CH / alphaH;
  };
  return energy(Mat3d::Identity() + strain) - energy(Mat3d::Identity());
}

/// V0 (½ λ (tr ε)² + μ ε:ε).
double linearEnergy(const Mat3d& strain, const LameParameters& lame, double restVolume) {
  const double tr = strain.trace();
  return restVolume * (0.5 * double(lame.lambda) * tr * tr + double(lame.mu) * strain.squaredNorm());
}

}  // namespace

TEST(NeoHookeanMaterial, SmallStrainEnergyMatchesLinearElasticity) {
  const double e = 1e-3, V0 = 1.0 / 6;
  for (Real nu : {0.0f, 0.3f, 0.45f, 0.49f}) {
    const Real E = 1e6f;
    const LameParameters lame = lameFromYoungPoisson(E, nu);
    const NeoHookeanMaterial m = neoHookeanMaterial(lame, Real(V0));
    Mat3d shear = Mat3d::Zero();
    shear(0, 1) = shear(1, 0) = e;
    Mat3d random;
    random << 0.3, -0.7, 0.2, -0.7, 1.0, 0.5, 0.2, 0.5, -0.4;
    const Mat3d uniaxialStress = Eigen::Vector3d(e, -nu * e, -nu * e).asDiagonal();
    const Mat3d strains[] = {Eigen::Vector3d(e, 0, 0).asDiagonal(), uniaxialStress, e * Mat3d::Identity(), shear,
                             e * random};
    for (const Mat3d& strain : strains) {
      const double ratio = strainEnergy(strain, m.deviatoricCompliance, m.hydrostaticCompliance, m.gamma) /
                           linearEnergy(strain, lame, V0);
      EXPECT_NEAR(ratio, 1, 0.02) << "ν " << nu << " strain\n" << strain;
    }
    // Uniaxial stress stores ½ E e² per unit volume: the response is that of Young's modulus E.
    EXPECT_NEAR(linearEnergy(uniaxialStress, lame, V0) / (0.5 * E * e * e * V0), 1, 1e-5);
    if (nu == 0.3f) {
      // Without the λ' = λ + μ shift (γ = 1 + μ/λ, α_H = 1/(λ V0)) the same stretch would store clearly less.
      const double unshifted = strainEnergy(uniaxialStress, m.deviatoricCompliance, 1 / (lame.lambda * V0),
                                            1 + lame.mu / double(lame.lambda));
      EXPECT_LT(unshifted / linearEnergy(uniaxialStress, lame, V0), 0.95) << "ν " << nu;
    }
  }
}

TEST(NeoHookeanMaterial, LameParametersAndDegenerateRestShapes) {
  const LameParameters lame = lameFromYoungPoisson(1e6f, 0.25f);
  EXPECT_NEAR(lame.mu, 4e5f, 1);
  EXPECT_NEAR(lame.lambda, 4e5f, 1);
  const LameParameters incompressible = lameFromYoungPoisson(1e6f, 0.5f);
  EXPECT_TRUE(std::isinf(incompressible.lambda));
  const NeoHookeanMaterial m = neoHookeanMaterial(incompressible, 1);
  EXPECT_EQ(m.gamma, 1);
  EXPECT_EQ(m.hydrostaticCompliance, 0);
  EXPECT_TRUE(std::isinf(neoHookeanMaterial({0, 1e5f}, 1).deviatoricCompliance));
  Mat3 inverse;
  Real volume = -1;
  const Vec3 flat[4] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
  EXPECT_FALSE(neoHookeanRestShape(flat, inverse, volume));
  EXPECT_EQ(volume, -1);
  const Vec3 mirrored[4] = {kRest[0], kRest[2], kRest[1], kRest[3]};  // negative orientation is fine
  ASSERT_TRUE(neoHookeanRestShape(mirrored, inverse, volume));
  EXPECT_NEAR(volume, 1.0f / 6, 1e-7f);
}

TEST(NeoHookeanKernel, CollapsedTetsAndPinnedVerticesGiveNoNaN) {
  const RestTet t;
  const Real pinned[4] = {0, 0, 0, 0};
  const Real* free = kWeights;
  const Vec3 point[4] = {Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)};
  const Vec3 line[4] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0)};
  for (const Vec3* start : {point, line, kRest}) {
    for (const Real* w : {pinned, free}) {
      for (bool coupled : {false, true}) {
        for (const Solve& s : {xpbdMaterial(1e6f, t.restVolume), pbdSetup(1, 1)}) {
          Vec3 x[4] = {start[0], start[1], start[2], start[3]};
          Real lambda[2] = {0, 0};
          projectTet(x, w, t, s, coupled, lambda);
          for (const Vec3& q : x) EXPECT_TRUE(q.allFinite());
          EXPECT_TRUE(std::isfinite(lambda[0]) && std::isfinite(lambda[1]));
          if (w == pinned) {
            EXPECT_EQ(maxMove(x, start), 0);
          }
        }
      }
    }
  }
}

TEST(NeoHookeanKernel, FourWideBatchIsBitIdenticalToOneByOne) {
  // 37 to 39 independent tets (4 particles each): random shapes around the corner tet, squashed, inverted and
  // collapsed ones, pinned vertices, soft, incompressible and shear-free materials (the last two go through the
  // sequential solve), and a stiffness that the coupled solve's cap limits, in both methods; the batch path (batches
  // of 4 lanes, the last short by 3 to 1, on padded positions, lanes the coupled solve declines one at a time) must
  // match projectNeoHookean exactly and keep the inverse masses.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int n : {37, 38, 39}) {
    std::vector<Real> xyz(12 * n), w(4 * n), lambda(2 * n);
    std::vector<NeoHookeanTet> tets(n);
    std::vector<uint32_t> order;
    int collapsed = 0;
    for (int k = 0; k < n; ++k) {
      NeoHookeanTet& t = tets[k];
      Vec3 rest[4];
      for (int v = 0; v < 4; ++v) rest[v] = kRest[v] + 0.2f * Vec3(u(rng), u(rng), u(rng));
      ASSERT_TRUE(neoHookeanRestShape(rest, t.restInverse, t.restVolume));
      const Real E = k % 3 == 0 ? 1e7f : 1e4f, nu = k % 5 == 0 ? 0.5f : 0.3f;
      const NeoHookeanMaterial m = neoHookeanMaterial(lameFromYoungPoisson(E, nu), t.restVolume);
      t.gamma = m.gamma, t.deviatoricCompliance = m.deviatoricCompliance;
      t.hydrostaticCompliance = m.hydrostaticCompliance;
      t.deviatoricStiffness = t.hydrostaticStiffness = 0.8f, t.deviatoricKPrime = 0.6f, t.hydrostaticKPrime = 0.7f;
      if (k % 8 == 6) t.deviatoricCompliance = std::numeric_limits<Real>::infinity();  // no shear: sequential
      for (int v = 0; v < 4; ++v) {
        t.p[v] = uint32_t(4 * k + v);
        Vec3 x = rest[v] + 0.3f * Vec3(u(rng), u(rng), u(rng));
        if (k % 7 == 3) x = rest[v].cwiseProduct(Vec3(1, 1, v == 3 ? -0.5f : 1));  // inverted
        if (k % 11 == 5) x = Vec3(0.5f, 0.5f, 0.5f);  // collapsed to a point: F = 0, no direction
        for (int a = 0; a < 3; ++a) xyz[12 * k + 3 * v + a] = x[a];
        w[4 * k + v] = (k + v) % 6 == 0 ? 0 : 1 + 0.5f * u(rng);
      }
      collapsed += k % 11 == 5;
      lambda[2 * k] = 0.01f * u(rng), lambda[2 * k + 1] = 0.01f * u(rng);
      order.push_back(uint32_t(n - 1 - k));  // any order within a colour
    }
    ASSERT_GT(collapsed, 0);
    for (bool xpbd : {true, false}) {
      test::expectBatchMatchesOneByOne(
          xyz, w, lambda,
          [&](Real* xyzw, Real* batchLambda) {
            projectNeoHookeansBatched(tets.data(), order.data(), 0, n, batchLambda, xyzw, xpbd, 3600, nullptr);
          },
          [&](Vec3* P, Real* serialLambda) {
            for (uint32_t k : order) {
              const NeoHookeanTet& t = tets[k];
              Vec3* ps[4] = {&P[t.p[0]], &P[t.p[1]], &P[t.p[2]], &P[t.p[3]]};
              const Real ws[4] = {w[t.p[0]], w[t.p[1]], w[t.p[2]], w[t.p[3]]};
              const Real kPrime[2] = {t.deviatoricKPrime, t.hydrostaticKPrime};
              const Real alphaTilde[2] = {t.deviatoricCompliance * 3600, t.hydrostaticCompliance * 3600};
              projectNeoHookean(ps, ws, t.restInverse, t.gamma, xpbd, kPrime, alphaTilde, &serialLambda[2 * k]);
            }
          },
          "n " + std::to_string(n) + " xpbd " + std::to_string(xpbd));
    }
  }
}
