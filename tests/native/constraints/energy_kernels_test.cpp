// The VBD energy kernels (energy_neo_hookean.h, energy_stvk.h, energy_dihedral.h, energy_tet_volume.h,
// energy_triangle_strain.h, energy_contact.h): gradients against central differences of the energy and raw Hessian
// blocks against central differences of the gradient, in double on random stretched, compressed and inverted
// configurations; symmetric blocks; projected blocks PSD and equal to the raw block with its negative eigenvalues
// removed; zero energy and gradient at rest; invariance under rigid motions; agreement with the XPBD kernels' own
// definitions (neo_hookean.h, dihedral.h, tet_volume.h, triangle_strain.h); the Jacobi PSD projection against a known
// spectrum; atan2Double against std::atan2; a contact's one-sided energy inside and outside its plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include <Eigen/Eigenvalues>

#include "constraints/dihedral.h"
#include "constraints/energy_contact.h"
#include "constraints/energy_dihedral.h"
#include "constraints/energy_neo_hookean.h"
#include "constraints/energy_stvk.h"
#include "constraints/energy_tet_volume.h"
#include "constraints/energy_triangle_strain.h"
#include "constraints/neo_hookean.h"
#include "constraints/tet_volume.h"
#include "constraints/triangle_strain.h"

using namespace pbd;
using Eigen::Matrix3d;
using Eigen::Vector3d;

namespace {

/// E(x[0..3]).
using EnergyFn = std::function<double(const Vector3d*)>;
/// (x[0..3], v, projectToPsd) -> ∂E/∂x_v, ∂²E/∂x_v².
using DerivativesFn = std::function<void(const Vector3d*, int, bool, Vector3d&, Matrix3d&)>;

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

Vector3d randomVector(std::mt19937& rng, double r) {
  return Vector3d(uniform(rng, -r, r), uniform(rng, -r, r), uniform(rng, -r, r));
}

Matrix3d randomRotation(std::mt19937& rng) {
  Eigen::Quaterniond q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
  q.normalize();
  return q.toRotationMatrix();
}

/// A well-shaped random rest tet, positively oriented (V > 0 in tetVolume's convention): |det Dm| at least a fifth
/// of the product of its edge lengths.
void randomRestTet(std::mt19937& rng, Vector3d X[4]) {
  for (;;) {
    for (int k = 0; k < 4; ++k) X[k] = randomVector(rng, 1);
    Matrix3d Dm;
    for (int k = 0; k < 3; ++k) Dm.col(k) = X[k + 1] - X[0];
    const double det = Dm.determinant();
    if (std::abs(det) < 0.2 * Dm.col(0).norm() * Dm.col(1).norm() * Dm.col(2).norm()) continue;
    if (det < 0) std::swap(X[2], X[3]);
    return;
  }
}

Matrix3d restInverseOf(const Vector3d X[4]) {
  Matrix3d Dm;
  for (int k = 0; k < 3; ++k) Dm.col(k) = X[k + 1] - X[0];
  return Dm.inverse();
}

double restVolumeOf(const Vector3d X[4]) { return std::abs((X[1] - X[0]).dot((X[2] - X[0]).cross(X[3] - X[0]))) / 6; }

/// How a test configuration deforms its rest tet.
enum class Deformation { kStretched, kCompressed, kMixed, kInverted };

/// x = R (A X) + t + noise: A with principal stretches chosen by `kind` along random axes, then a random rigid
/// motion and a small per-vertex noise (so that F is not exactly the chosen A).
void deform(std::mt19937& rng, const Vector3d X[4], Deformation kind, Vector3d x[4]) {
  Vector3d s;
  for (int a = 0; a < 3; ++a) {
    switch (kind) {
      case Deformation::kStretched: s[a] = uniform(rng, 1.2, 1.8); break;
      case Deformation::kCompressed: s[a] = uniform(rng, 0.4, 0.8); break;
      case Deformation::kMixed: s[a] = uniform(rng, 0.6, 1.5); break;
      case Deformation::kInverted: s[a] = a == 0 ? uniform(rng, -0.6, -0.2) : uniform(rng, 0.7, 1.3); break;
    }
  }
  const Matrix3d U = randomRotation(rng), R = randomRotation(rng);
  const Matrix3d A = U * s.asDiagonal() * U.transpose();
  const Vector3d t = randomVector(rng, 2);
  for (int k = 0; k < 4; ++k) x[k] = R * (A * X[k]) + t + randomVector(rng, 0.05);
}

double meanEdge(const Vector3d x[4]) {
  double sum = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) sum += (x[i] - x[j]).norm();
  return sum / 6;
}

double minEigenvalue(const Matrix3d& H) {
  Eigen::SelfAdjointEigenSolver<Matrix3d> eigen(0.5 * (H + H.transpose()));
  return eigen.eigenvalues()[0];
}

/// Central differences of E along the coordinates of x_v.
Vector3d numericalGradient(const EnergyFn& energy, const Vector3d x[4], int v, double h) {
  Vector3d g;
  for (int a = 0; a < 3; ++a) {
    Vector3d xp[4] = {x[0], x[1], x[2], x[3]}, xm[4] = {x[0], x[1], x[2], x[3]};
    xp[v][a] += h, xm[v][a] -= h;
    g[a] = (energy(xp) - energy(xm)) / (2 * h);
  }
  return g;
}

/// Central differences of the analytic ∂E/∂x_v along the coordinates of x_v: column a is ∂(∂E/∂x_v)/∂x_v[a].
Matrix3d numericalHessian(const DerivativesFn& derivatives, const Vector3d x[4], int v, double h) {
  Matrix3d H;
  for (int a = 0; a < 3; ++a) {
    Vector3d xp[4] = {x[0], x[1], x[2], x[3]}, xm[4] = {x[0], x[1], x[2], x[3]};
    xp[v][a] += h, xm[v][a] -= h;
    Vector3d gp, gm;
    Matrix3d unused;
    derivatives(xp, v, false, gp, unused);
    derivatives(xm, v, false, gm, unused);
    H.col(a) = (gp - gm) / (2 * h);
  }
  return H;
}

/// What checkDerivatives saw, for the callers' own expectations.
struct DerivativeStats {
  double minRawEigenvalue = INFINITY;  ///< Over the four raw blocks, relative to the largest block's norm.
  double maxProjectionChange = 0;      ///< max |projected - raw|, relative to the largest block's norm.
};

/// How an energy makes its blocks PSD: by clamping the summed block's negative eigenvalues (projectSymmetricToPsd),
/// or term by term (the strain triangle), which is only checked to be PSD.
enum class Projection { kEigenvalueClamp, kPerTerm, kGaussNewton };

/// Every per-vertex check on one configuration: gradient vs central differences of E, raw block vs central
/// differences of the gradient, symmetry, the projected block PSD and (kEigenvalueClamp) the raw block minus only
/// its negative part. Tolerances: the step h = 1e-5 L (L the mean edge) leaves a difference error near 1e-10 of the
/// scales below, and the bounds are 1e-6 of them, far below the error of a wrong sign, a missing factor or a missing
/// term.
DerivativeStats checkDerivatives(const EnergyFn& energy, const DerivativesFn& derivatives, const Vector3d x[4],
                                 const char* what, Projection projection = Projection::kEigenvalueClamp) {
  SCOPED_TRACE(what);
  const double L = meanEdge(x), h = 1e-5 * L;
  Vector3d g[4];
  Matrix3d H[4], P[4];
  double hessianScale = 0;
  for (int v = 0; v < 4; ++v) {
    derivatives(x, v, false, g[v], H[v]);
    Vector3d gProjected;
    derivatives(x, v, true, gProjected, P[v]);
    EXPECT_EQ(gProjected, g[v]) << "projecting the block must not change the gradient";
    hessianScale = std::max(hessianScale, H[v].norm());
  }
  EXPECT_GT(hessianScale, 0);
  DerivativeStats stats;
  for (int v = 0; v < 4; ++v) {
    SCOPED_TRACE("vertex " + std::to_string(v));
    const Vector3d gNumerical = numericalGradient(energy, x, v, h);
    EXPECT_LE((gNumerical - g[v]).norm(), 1e-6 * gNumerical.norm() + 1e-8 * hessianScale * L)
        << "analytic " << g[v].transpose() << "\nnumerical " << gNumerical.transpose();
    const Matrix3d HNumerical = numericalHessian(derivatives, x, v, h);
    EXPECT_LE((HNumerical - H[v]).norm(), 1e-6 * hessianScale) << "analytic\n" << H[v] << "\nnumerical\n"
                                                               << HNumerical;
    EXPECT_LE((H[v] - H[v].transpose()).norm(), 1e-12 * hessianScale);
    EXPECT_LE((P[v] - P[v].transpose()).norm(), 1e-12 * hessianScale);
    EXPECT_GE(minEigenvalue(P[v]), -1e-9 * hessianScale);
    // Clamping only removes the negative part N of raw = positive - N: projected - raw = N is PSD, and it is
    // orthogonal to the kept part (projected N = 0).
    const Matrix3d removed = P[v] - H[v];
    if (projection == Projection::kEigenvalueClamp) {
      EXPECT_GE(minEigenvalue(removed), -1e-9 * hessianScale);
      EXPECT_LE((P[v] * removed).norm(), 1e-9 * hessianScale * hessianScale);
    }
    if (projection == Projection::kGaussNewton && g[v].norm() > 0) {  // rank one, along the gradient
      const Vector3d u = g[v].normalized();
      EXPECT_LE((P[v] - u.dot(P[v] * u) * u * u.transpose()).norm(), 1e-9 * hessianScale);
    }
    stats.minRawEigenvalue = std::min(stats.minRawEigenvalue, minEigenvalue(H[v]) / hessianScale);
    stats.maxProjectionChange = std::max(stats.maxProjectionChange, removed.norm() / hessianScale);
  }
  // A translation changes nothing, so the gradients sum to zero.
  EXPECT_LE((g[0] + g[1] + g[2] + g[3]).norm(), 1e-9 * (g[0].norm() + g[1].norm() + g[2].norm() + g[3].norm()));
  return stats;
}

/// E, ∂E/∂x_v and ∂²E/∂x_v² are unchanged (E), rotated (R g) and conjugated (R H Rᵀ) by x -> R x + t.
void checkRigidInvariance(const EnergyFn& energy, const DerivativesFn& derivatives, const Vector3d x[4],
                          std::mt19937& rng) {
  const Matrix3d R = randomRotation(rng);
  const Vector3d t = randomVector(rng, 3);
  Vector3d y[4];
  for (int k = 0; k < 4; ++k) y[k] = R * x[k] + t;
  const double e = energy(x);
  EXPECT_NEAR(energy(y), e, 1e-11 * std::max(std::abs(e), 1e-300));
  for (int v = 0; v < 4; ++v) {
    Vector3d gx, gy;
    Matrix3d Hx, Hy;
    derivatives(x, v, false, gx, Hx);
    derivatives(y, v, false, gy, Hy);
    EXPECT_LE((gy - R * gx).norm(), 1e-10 * gx.norm() + 1e-300);
    EXPECT_LE((Hy - R * Hx * R.transpose()).norm(), 1e-10 * Hx.norm());
  }
}

constexpr Deformation kDeformations[] = {Deformation::kStretched, Deformation::kCompressed, Deformation::kMixed,
                                         Deformation::kInverted};
const char* const kDeformationNames[] = {"stretched", "compressed", "mixed", "inverted"};

/// checkRigidInvariance on one configuration of each Deformation, each from a new case: makeCase(X) fills the rest
/// shape X and returns the case (its energy() and derivatives()).
template <class MakeCase>
void checkRigidInvarianceOfEachDeformation(std::mt19937& rng, MakeCase makeCase) {
  for (int trial = 0; trial < 4; ++trial) {
    Vector3d X[4], x[4];
    const auto c = makeCase(X);
    deform(rng, X, kDeformations[trial], x);
    SCOPED_TRACE(kDeformationNames[trial]);
    checkRigidInvariance(c.energy(), c.derivatives(), x, rng);
  }
}

// Young's modulus 1e5 Pa, ν = 0.3 and 0.45 (stiffer in volume).
const LameParameters kSoft = lameFromYoungPoisson(1e5f, 0.3f);
const LameParameters kNearlyIncompressible = lameFromYoungPoisson(1e5f, 0.45f);

// ---------------------------------------------------------------------------------------------------------------------
// Stable Neo-Hookean

struct NeoHookeanCase {
  Matrix3d restInverse;
  double restVolume, mu, lambdaShifted;
  EnergyFn energy() const {
    return [this](const Vector3d* x) { return neoHookeanEnergy(x, restInverse, restVolume, mu, lambdaShifted); };
  }
  DerivativesFn derivatives() const {
    return [this](const Vector3d* x, int v, bool project, Vector3d& g, Matrix3d& H) {
      neoHookeanVertexDerivatives(x, restInverse, restVolume, mu, lambdaShifted, v, project, g, H);
    };
  }
};

NeoHookeanCase neoHookeanCase(const Vector3d X[4], LameParameters lame) {
  return {restInverseOf(X), restVolumeOf(X), lame.mu, double(lame.lambda) + lame.mu};
}

TEST(NeoHookeanEnergy, DerivativesMatchCentralDifferencesStretchedCompressedAndInverted) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 6; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    for (int d = 0; d < 4; ++d) {
      const NeoHookeanCase c = neoHookeanCase(X, trial % 2 ? kNearlyIncompressible : kSoft);
      deform(rng, X, kDeformations[d], x);
      const DerivativeStats stats = checkDerivatives(c.energy(), c.derivatives(), x, kDeformationNames[d]);
      // The block μ|a|² I + λ' g gᵀ is PSD everywhere, inverted tets included: projecting changes nothing.
      EXPECT_GT(stats.minRawEigenvalue, 0);
      EXPECT_LE(stats.maxProjectionChange, 1e-12);
    }
  }
}

TEST(NeoHookeanEnergy, ZeroEnergyAndGradientAtRestAndAfterARigidMotion) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 5; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    const NeoHookeanCase c = neoHookeanCase(X, kNearlyIncompressible);
    const Matrix3d R = randomRotation(rng);
    const Vector3d t = randomVector(rng, 2);
    for (int k = 0; k < 4; ++k) x[k] = trial == 0 ? X[k] : Vector3d(R * X[k] + t);
    Vector3d g;
    Matrix3d H;
    double hessianScale = 0;
    for (int v = 0; v < 4; ++v) {
      c.derivatives()(x, v, false, g, H);
      hessianScale = std::max(hessianScale, H.norm());
    }
    const double L = meanEdge(X);
    // Relative to the energy and force a strain of 1 would give.
    EXPECT_LE(std::abs(c.energy()(x)), 1e-12 * hessianScale * L * L);
    for (int v = 0; v < 4; ++v) {
      c.derivatives()(x, v, false, g, H);
      EXPECT_LE(g.norm(), 1e-12 * hessianScale * L) << "vertex " << v;
    }
    // ∂Ψ/∂F = μ I + λ'(1 - γ) I = 0 at F = I.
    EXPECT_LE(neoHookeanEnergyStress(X, c.restInverse, c.restVolume, c.mu, c.lambdaShifted).norm(),
              1e-12 * c.restVolume * c.lambdaShifted);
  }
}

TEST(NeoHookeanEnergy, RigidMotionChangesNeitherEnergyNorBlocks) {
  std::mt19937 rng(13);
  checkRigidInvarianceOfEachDeformation(rng, [&](Vector3d* X) {
    randomRestTet(rng, X);
    return neoHookeanCase(X, kSoft);
  });
}

// The gradient is the force of neo_hookean.h's XPBD pair: ∂Ψ/∂x = C_D ∇C_D / α_D + C_H ∇C_H / α_H, with the tet as
// the repo stores it (float positions, neoHookeanRestShape's Dm⁻¹, neoHookeanMaterial's γ and compliances).
TEST(NeoHookeanEnergy, GradientIsTheForceOfTheXpbdConstraintPair) {
  std::mt19937 rng(14);
  for (int trial = 0; trial < 8; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    deform(rng, X, kDeformations[trial % 4], x);
    Vec3 Xf[4], xf[4];
    for (int k = 0; k < 4; ++k) Xf[k] = X[k].cast<Real>(), xf[k] = x[k].cast<Real>();
    Mat3 restInverse;
    Real restVolume;
    ASSERT_TRUE(neoHookeanRestShape(Xf, restInverse, restVolume));
    const NeoHookeanMaterial m = neoHookeanMaterial(trial % 2 ? kNearlyIncompressible : kSoft, restVolume);
    const double mu = 1 / (double(m.deviatoricCompliance) * restVolume);
    const double lambdaShifted = 1 / (double(m.hydrostaticCompliance) * restVolume);
    EXPECT_NEAR(neoHookeanEnergyGamma(mu, lambdaShifted), m.gamma, 1e-6);

    const Vec3* q[4] = {&xf[0], &xf[1], &xf[2], &xf[3]};
    const Mat3 F = deformationGradient<3>(q, restInverse);
    Real CD, CH;
    Vec3 gD[4], gH[4];
    ASSERT_TRUE(neoHookeanDeviatoric(F, restInverse, 0, CD, gD));
    neoHookeanHydrostatic(F, restInverse, m.gamma, CH, gH);
    double scale = 0;
    Vector3d g[4], expected[4];
    for (int v = 0; v < 4; ++v) {
      Matrix3d H;
      neoHookeanVertexDerivatives(xf, restInverse, restVolume, mu, lambdaShifted, v, true, g[v], H);
      expected[v] = (CD / m.deviatoricCompliance * gD[v] + CH / m.hydrostaticCompliance * gH[v]).cast<double>();
      scale = std::max(scale, expected[v].norm());
    }
    for (int v = 0; v < 4; ++v) EXPECT_LE((g[v] - expected[v]).norm(), 2e-4 * scale) << "trial " << trial;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// St. Venant-Kirchhoff

struct StvkCase {
  Matrix3d restInverse;
  double restVolume, mu, lambda;
  EnergyFn energy() const {
    return [this](const Vector3d* x) { return stvkEnergy(x, restInverse, restVolume, mu, lambda); };
  }
  DerivativesFn derivatives() const {
    return [this](const Vector3d* x, int v, bool project, Vector3d& g, Matrix3d& H) {
      stvkVertexDerivatives(x, restInverse, restVolume, mu, lambda, v, project, g, H);
    };
  }
};

StvkCase stvkCase(const Vector3d X[4], LameParameters lame) {
  return {restInverseOf(X), restVolumeOf(X), lame.mu, lame.lambda};
}

TEST(StvkEnergy, DerivativesMatchCentralDifferencesStretchedCompressedAndInverted) {
  std::mt19937 rng(21);
  bool sawIndefinite = false;
  for (int trial = 0; trial < 6; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    for (int d = 0; d < 4; ++d) {
      const StvkCase c = stvkCase(X, trial % 2 ? kNearlyIncompressible : kSoft);
      deform(rng, X, kDeformations[d], x);
      const DerivativeStats stats = checkDerivatives(c.energy(), c.derivatives(), x, kDeformationNames[d]);
      if (stats.minRawEigenvalue < -1e-3) {
        sawIndefinite = true;
        EXPECT_GT(stats.maxProjectionChange, 1e-3);
      }
      // Stretched, the stress stiffness aᵀSa is positive and the block positive definite.
      if (kDeformations[d] == Deformation::kStretched) {
        EXPECT_GT(stats.minRawEigenvalue, 0);
      }
    }
  }
  // Compression makes the raw block indefinite somewhere, so the projection was exercised.
  EXPECT_TRUE(sawIndefinite);
}

TEST(StvkEnergy, ZeroEnergyAndGradientAtRestAndAfterARigidMotion) {
  std::mt19937 rng(22);
  for (int trial = 0; trial < 5; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    const StvkCase c = stvkCase(X, kSoft);
    const Matrix3d R = randomRotation(rng);
    const Vector3d t = randomVector(rng, 2);
    for (int k = 0; k < 4; ++k) x[k] = trial == 0 ? X[k] : Vector3d(R * X[k] + t);
    double hessianScale = 0;
    for (int v = 0; v < 4; ++v) {
      Vector3d g;
      Matrix3d H;
      c.derivatives()(x, v, false, g, H);
      hessianScale = std::max(hessianScale, H.norm());
    }
    const double L = meanEdge(X);
    EXPECT_LE(std::abs(c.energy()(x)), 1e-12 * hessianScale * L * L);
    for (int v = 0; v < 4; ++v) {
      Vector3d g;
      Matrix3d H;
      c.derivatives()(x, v, false, g, H);
      EXPECT_LE(g.norm(), 1e-12 * hessianScale * L) << "vertex " << v;
      // At rest S = 0: the block is linear elasticity's V0 (μ|a|² I + (μ + λ) R a aᵀ Rᵀ), positive definite.
      EXPECT_GT(minEigenvalue(H), 0);
    }
  }
}

TEST(StvkEnergy, RigidMotionChangesNeitherEnergyNorBlocks) {
  std::mt19937 rng(23);
  checkRigidInvarianceOfEachDeformation(rng, [&](Vector3d* X) {
    randomRestTet(rng, X);
    return stvkCase(X, kNearlyIncompressible);
  });
}

// At small strain StVK and the shifted Neo-Hookean are the same linear elasticity: equal blocks at rest.
TEST(StvkEnergy, RestBlocksEqualNeoHookeanWithTheShiftedLambda) {
  std::mt19937 rng(24);
  Vector3d X[4];
  randomRestTet(rng, X);
  const StvkCase s = stvkCase(X, kSoft);
  const NeoHookeanCase n = neoHookeanCase(X, kSoft);
  for (int v = 0; v < 4; ++v) {
    Vector3d gs, gn;
    Matrix3d Hs, Hn;
    s.derivatives()(X, v, false, gs, Hs);
    n.derivatives()(X, v, false, gn, Hn);
    EXPECT_LE((Hs - Hn).norm(), 1e-6 * Hs.norm()) << "vertex " << v;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Tet volume

struct TetVolumeCase {
  double restVolume, stiffness;
  bool unilateral;
  EnergyFn energy() const {
    return [this](const Vector3d* x) { return tetVolumeEnergy(x, restVolume, stiffness, unilateral); };
  }
  DerivativesFn derivatives() const {
    return [this](const Vector3d* x, int v, bool project, Vector3d& g, Matrix3d& H) {
      tetVolumeVertexDerivatives(x, restVolume, stiffness, unilateral, v, project, g, H);
    };
  }
};

TEST(TetVolumeEnergy, DerivativesMatchCentralDifferences) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 6; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    const TetVolumeCase c{restVolumeOf(X), 1e7, false};
    for (int d = 0; d < 4; ++d) {
      deform(rng, X, kDeformations[d], x);
      const DerivativeStats stats = checkDerivatives(c.energy(), c.derivatives(), x, kDeformationNames[d]);
      EXPECT_EQ(stats.maxProjectionChange, 0);
    }
  }
}

TEST(TetVolumeEnergy, UnilateralResistsOnlyCompression) {
  std::mt19937 rng(32);
  Vector3d X[4], x[4];
  randomRestTet(rng, X);
  const TetVolumeCase c{restVolumeOf(X), 1e7, true};
  deform(rng, X, Deformation::kCompressed, x);
  checkDerivatives(c.energy(), c.derivatives(), x, "compressed");
  EXPECT_GT(c.energy()(x), 0);
  deform(rng, X, Deformation::kStretched, x);
  EXPECT_EQ(c.energy()(x), 0);
  for (int v = 0; v < 4; ++v) {
    Vector3d g;
    Matrix3d H;
    c.derivatives()(x, v, false, g, H);
    EXPECT_EQ(g, Vector3d::Zero());
    EXPECT_EQ(H, Matrix3d::Zero());
  }
}

TEST(TetVolumeEnergy, RigidMotionChangesNeitherEnergyNorBlocksAndRestIsZero) {
  std::mt19937 rng(33);
  Vector3d X[4], x[4];
  randomRestTet(rng, X);
  const TetVolumeCase c{restVolumeOf(X), 1e7, false};
  deform(rng, X, Deformation::kMixed, x);
  checkRigidInvariance(c.energy(), c.derivatives(), x, rng);
  EXPECT_LE(c.energy()(X), 1e-20);
  for (int v = 0; v < 4; ++v) {
    Vector3d g;
    Matrix3d H;
    c.derivatives()(X, v, false, g, H);
    EXPECT_LE(g.norm(), 1e-12 * H.norm());
  }
}

// tetVolume's sign and gradients: a positively oriented tet has V > 0, and ∇V is tetVolumeGradients' (float).
TEST(TetVolumeEnergy, GradientIsTheXpbdConstraintGradientTimesKC) {
  std::mt19937 rng(34);
  for (int trial = 0; trial < 4; ++trial) {
    Vector3d X[4], x[4];
    randomRestTet(rng, X);
    deform(rng, X, kDeformations[trial], x);
    Vec3 xf[4];
    for (int k = 0; k < 4; ++k) xf[k] = x[k].cast<Real>();
    Vec3 grad[4];
    tetVolumeGradients(xf[0], xf[1], xf[2], xf[3], grad);
    const double V0 = restVolumeOf(X), k = 1e6;
    const double C = double(tetVolume(xf[0], xf[1], xf[2], xf[3])) - V0;
    for (int v = 0; v < 4; ++v) {
      Vector3d g;
      Matrix3d H;
      tetVolumeVertexDerivatives(xf, V0, k, false, v, false, g, H);
      const Vector3d expected = k * C * grad[v].cast<double>();
      EXPECT_LE((g - expected).norm(), 1e-4 * expected.norm()) << "trial " << trial << " vertex " << v;
    }
  }
  Vector3d X[4];
  randomRestTet(rng, X);
  Vector3d g;
  EXPECT_GT(tetVolumeAndGradientDouble(X, 0, g), 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Dihedral bending

struct DihedralCase {
  double restAngle, stiffness;
  EnergyFn energy() const {
    return [this](const Vector3d* p) { return dihedralEnergy(p, restAngle, stiffness); };
  }
  DerivativesFn derivatives() const {
    return [this](const Vector3d* p, int v, bool project, Vector3d& g, Matrix3d& H) {
      EXPECT_TRUE(dihedralVertexDerivatives(p, restAngle, stiffness, v, project, g, H));
    };
  }
};

/// A hinge on a random edge p2-p3 with the wings p0, p1 at angles θ0, θ1 about it (so φ = ±(θ1 - θ0) up to the
/// wrap), random distances from the edge and random positions along it, then a random rigid motion.
void randomHinge(std::mt19937& rng, double theta0, double theta1, Vector3d p[4]) {
  const Matrix3d R = randomRotation(rng);
  const Vector3d t = randomVector(rng, 2);
  const double len = uniform(rng, 0.5, 2);
  const Vector3d a(0, 0, 0), b(0, 0, len);
  auto wing = [&](double theta) {
    const double r = uniform(rng, 0.3, 1.5), z = uniform(rng, -0.3, 1.3) * len;
    return Vector3d(r * std::cos(theta), r * std::sin(theta), z);
  };
  p[0] = R * wing(theta0) + t;
  p[1] = R * wing(theta1) + t;
  p[2] = R * a + t;
  p[3] = R * b + t;
}

double dihedralAngleOf(const Vector3d p[4]) {
  double phi;
  Vector3d g;
  EXPECT_TRUE(dihedralAngleDerivatives(p, 0, phi, g, nullptr));
  return phi;
}

TEST(DihedralEnergy, DerivativesMatchCentralDifferencesIncludingTheCurvatureTerm) {
  std::mt19937 rng(41);
  bool sawIndefinite = false;
  for (int trial = 0; trial < 24; ++trial) {
    Vector3d p[4];
    randomHinge(rng, uniform(rng, -M_PI, M_PI), uniform(rng, -M_PI, M_PI), p);
    // A rest angle within 2.5 rad of φ, so that E does not jump at the wrap within the differences' reach.
    const double phi = dihedralAngleOf(p);
    const DihedralCase c{wrapAngleDouble(phi + uniform(rng, -2.5, 2.5)), 0.7};
    const DerivativeStats stats =
        checkDerivatives(c.energy(), c.derivatives(), p, "random hinge", Projection::kGaussNewton);
    sawIndefinite |= stats.minRawEigenvalue < -1e-3;
  }
  EXPECT_TRUE(sawIndefinite);
}

// Flat (φ = 0), nearly folded shut (φ near ±π, where atan2 jumps from π to -π and the wrap must hide it), and
// a right angle; each with a rest angle near its current one and far from it.
TEST(DihedralEnergy, DerivativesMatchCentralDifferencesFlatAndFolded) {
  std::mt19937 rng(42);
  const double cases[][2] = {{0, M_PI}, {0, M_PI - 1e-3}, {0, 0}, {0, 1e-3}, {0, 0.02}, {0, M_PI / 2}, {0, -M_PI / 2}};
  for (const auto& wings : cases) {
    Vector3d p[4];
    randomHinge(rng, wings[0], wings[1], p);
    const double phi = dihedralAngleOf(p);
    for (double offset : {0.0, 0.3, -1.2, 2.0}) {
      const DihedralCase c{wrapAngleDouble(phi + offset), 2.0};
      checkDerivatives(c.energy(), c.derivatives(), p,
                       ("phi " + std::to_string(phi) + " offset " + std::to_string(offset)).c_str(),
                       Projection::kGaussNewton);
    }
  }
}

// At φ = φ0 the exact block is the Gauss-Newton one, k ∇φ ∇φᵀ, and its gradient is zero.
TEST(DihedralEnergy, AtTheRestAngleTheBlockIsGaussNewton) {
  std::mt19937 rng(43);
  for (int trial = 0; trial < 6; ++trial) {
    Vector3d p[4];
    randomHinge(rng, uniform(rng, -M_PI, M_PI), uniform(rng, -M_PI, M_PI), p);
    const double k = 1.5;
    const DihedralCase c{dihedralAngleOf(p), k};
    EXPECT_EQ(c.energy()(p), 0);
    for (int v = 0; v < 4; ++v) {
      double phi;
      Vector3d gradPhi, g;
      Matrix3d H;
      ASSERT_TRUE(dihedralAngleDerivatives(p, v, phi, gradPhi, nullptr));
      c.derivatives()(p, v, false, g, H);
      EXPECT_EQ(g, Vector3d::Zero());
      EXPECT_LE((H - k * gradPhi * gradPhi.transpose()).norm(), 1e-12 * H.norm());
    }
  }
}

// The vertex steps' block (projectToPsd) is the Gauss-Newton one, k ∇φ ∇φᵀ, at any angle: PSD where the exact
// block is indefinite, with the exact gradient.
TEST(DihedralEnergy, TheProjectedBlockIsGaussNewtonAtAnyAngle) {
  std::mt19937 rng(47);
  for (int trial = 0; trial < 12; ++trial) {
    Vector3d p[4];
    randomHinge(rng, uniform(rng, -M_PI, M_PI), uniform(rng, -M_PI, M_PI), p);
    const double k = 0.9, restAngle = wrapAngleDouble(dihedralAngleOf(p) + uniform(rng, -2.5, 2.5));
    for (int v = 0; v < 4; ++v) {
      double phi;
      Vector3d gradPhi, g, gExact;
      Matrix3d P, H;
      ASSERT_TRUE(dihedralAngleDerivatives(p, v, phi, gradPhi, nullptr));
      ASSERT_TRUE(dihedralVertexDerivatives(p, restAngle, k, v, true, g, P));
      ASSERT_TRUE(dihedralVertexDerivatives(p, restAngle, k, v, false, gExact, H));
      EXPECT_EQ(g, gExact);
      EXPECT_LE((P - k * gradPhi * gradPhi.transpose()).norm(), 1e-12 * P.norm()) << trial << " vertex " << v;
    }
  }
}

TEST(DihedralEnergy, RigidMotionChangesNeitherEnergyNorBlocks) {
  std::mt19937 rng(44);
  for (int trial = 0; trial < 4; ++trial) {
    Vector3d p[4];
    randomHinge(rng, uniform(rng, -M_PI, M_PI), uniform(rng, -M_PI, M_PI), p);
    const DihedralCase c{wrapAngleDouble(dihedralAngleOf(p) + 0.8), 1.0};
    checkRigidInvariance(c.energy(), c.derivatives(), p, rng);
  }
}

// φ and ∇φ are evalDihedral's (float, the library's atan2): same sign, same angle.
TEST(DihedralEnergy, AngleAndGradientsAreEvalDihedrals) {
  std::mt19937 rng(45);
  for (int trial = 0; trial < 20; ++trial) {
    Vector3d p[4];
    randomHinge(rng, uniform(rng, -M_PI, M_PI), uniform(rng, -M_PI, M_PI), p);
    Vec3 pf[4];
    for (int k = 0; k < 4; ++k) pf[k] = p[k].cast<Real>();
    Real phiF;
    Vec3 gradF[4];
    ASSERT_TRUE(evalDihedral(pf[0], pf[1], pf[2], pf[3], phiF, gradF));
    for (int v = 0; v < 4; ++v) {
      double phi;
      Vector3d g;
      ASSERT_TRUE(dihedralAngleDerivatives(pf, v, phi, g, nullptr));
      // Away from ±π, where float rounding may pick the other side of the cut.
      if (std::abs(phi) < M_PI - 1e-3) {
        EXPECT_NEAR(phi, phiF, 2e-6);
      }
      EXPECT_LE((g - gradF[v].cast<double>()).norm(), 1e-4 * g.norm() + 1e-6) << "trial " << trial << " vertex " << v;
    }
  }
}

// atan2Double is std::atan2 to the last bit or so, over every octant, the axes and the signed zeros.
TEST(DihedralEnergy, Atan2DoubleMatchesStdAtan2) {
  std::mt19937 rng(46);
  for (int trial = 0; trial < 100000; ++trial) {
    const double y = std::ldexp(uniform(rng, -1, 1), int(uniform(rng, -30, 30)));
    const double x = std::ldexp(uniform(rng, -1, 1), int(uniform(rng, -30, 30)));
    const double expected = std::atan2(y, x);
    // 4 ulps: the reference is the C library's atan2, which differs between builds (glibc natively is within 1 ulp
    // of ours; Emscripten's musl in wasm was 2 ulps away on -3411.85, -1692.85).
    ASSERT_NEAR(atan2Double(y, x), expected, 9e-16 * std::max(std::abs(expected), 1e-300)) << y << ", " << x;
  }
  for (double y : {0.0, -0.0, 1.0, -1.0}) {
    for (double x : {0.0, -0.0, 1.0, -1.0}) EXPECT_EQ(atan2Double(y, x), std::atan2(y, x)) << y << ", " << x;
  }
}

TEST(DihedralEnergy, DegenerateHingeGivesZeros) {
  const Vector3d p[4] = {Vector3d(0, 0, 0), Vector3d(1, 1, 0), Vector3d(0, 0, 0), Vector3d(0, 0, 1)};  // p0 on edge
  Vector3d g;
  Matrix3d H;
  EXPECT_FALSE(dihedralVertexDerivatives(p, 0.0, 1.0, 1, true, g, H));
  EXPECT_EQ(g, Vector3d::Zero());
  EXPECT_EQ(H, Matrix3d::Zero());
  EXPECT_EQ(dihedralEnergy(p, 0.5, 1.0), 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Strain-triangle membrane (the fourth vertex of the helpers' arrays is unused: its derivatives are zero)

struct TriangleStrainCase {
  Mat2 restInverse;
  double stretch, shear;
  EnergyFn energy() const {
    return [this](const Vector3d* x) { return triangleStrainEnergy(x, restInverse, stretch, shear); };
  }
  DerivativesFn derivatives() const {
    return [this](const Vector3d* x, int v, bool project, Vector3d& g, Matrix3d& H) {
      if (v == 3) return g.setZero(), H.setZero(), void();
      triangleStrainVertexDerivatives(x, restInverse, stretch, shear, v, project, g, H);
    };
  }
};

/// A random rest triangle X[0..2] with its frame (triangle_strain.h restTriangleFrame, in float as the world builds
/// it; X is rounded to float first so that both see the same triangle); X[3] is a fourth point for the helpers.
TriangleStrainCase triangleCase(std::mt19937& rng, Vector3d X[4], double stretch, double shear) {
  for (;;) {
    Vector3d Y[4];
    randomRestTet(rng, Y);
    Vec3 Xf[3];
    for (int k = 0; k < 3; ++k) Xf[k] = Y[k].cast<Real>(), X[k] = Xf[k].cast<double>();
    X[3] = Y[3];
    TriangleStrainCase c{Mat2::Zero(), stretch, shear};
    Real area;
    if (restTriangleFrame(Xf, c.restInverse, area) && area > 0.05) return c;
  }
}

TEST(TriangleStrainEnergy, DerivativesMatchCentralDifferencesStretchedCompressedAndInverted) {
  std::mt19937 rng(41);
  bool sawIndefinite = false;
  for (int trial = 0; trial < 6; ++trial) {
    Vector3d X[4], x[4];
    // Stretch and shear of the same order and 100x apart either way.
    const double shear = trial % 3 == 0 ? 1e3 : trial % 3 == 1 ? 1e5 : 1e1;
    const TriangleStrainCase c = triangleCase(rng, X, 1e3, shear);
    for (int d = 0; d < 4; ++d) {
      deform(rng, X, kDeformations[d], x);
      const DerivativeStats stats =
          checkDerivatives(c.energy(), c.derivatives(), x, kDeformationNames[d], Projection::kPerTerm);
      if (stats.minRawEigenvalue < -1e-3) {
        sawIndefinite = true;
        EXPECT_GT(stats.maxProjectionChange, 1e-3);
      }
    }
  }
  // Compression (C_xx P0/l0 < 0) and shear curvature make the raw block indefinite: the projection was exercised.
  EXPECT_TRUE(sawIndefinite);
}

TEST(TriangleStrainEnergy, ZeroEnergyAndGradientAtRestAndAfterARigidMotion) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 5; ++trial) {
    Vector3d X[4], x[4];
    const TriangleStrainCase c = triangleCase(rng, X, 1e3, 1e2);
    const Matrix3d R = randomRotation(rng);
    const Vector3d t = randomVector(rng, 2);
    for (int k = 0; k < 4; ++k) x[k] = trial == 0 ? X[k] : Vector3d(R * X[k] + t);
    const double L = meanEdge(X);
    EXPECT_LE(std::abs(c.energy()(x)), 1e-9 * c.stretch) << "trial " << trial;
    for (int v = 0; v < 3; ++v) {
      Vector3d g;
      Matrix3d H;
      c.derivatives()(x, v, false, g, H);
      EXPECT_LE(g.norm(), 1e-5 * c.stretch / L) << "vertex " << v;  // F = R to float's rounding of Dm⁻¹
      // At rest the block is Gauss-Newton's k_s Σ a_b² n_b n_bᵀ + k_sh (Σ a_b q_b)(...)ᵀ: PSD, flat across the plane.
      Eigen::SelfAdjointEigenSolver<Matrix3d> eigen(H);
      EXPECT_GE(eigen.eigenvalues()[0], -1e-6 * H.norm());
      const Vector3d normal = (x[1] - x[0]).cross(x[2] - x[0]).normalized();
      EXPECT_LE((H * normal).norm(), 1e-5 * H.norm()) << "a membrane at rest has no stiffness across its plane";
      EXPECT_GT(eigen.eigenvalues()[1], 1e-3 * H.norm()) << "but resists both in-plane directions";
    }
  }
}

TEST(TriangleStrainEnergy, RigidMotionChangesNeitherEnergyNorBlocks) {
  std::mt19937 rng(43);
  checkRigidInvarianceOfEachDeformation(rng, [&](Vector3d* X) { return triangleCase(rng, X, 1e3, 3e2); });
}

// E = Σ ½ k C² over the XPBD kernel's three constraints, so ∂E/∂x_v = Σ k C ∇_v C with its C and gradients.
TEST(TriangleStrainEnergy, GradientIsTheXpbdConstraintsGradientsTimesKC) {
  std::mt19937 rng(44);
  for (int trial = 0; trial < 4; ++trial) {
    Vector3d X[4], x[4];
    const TriangleStrainCase c = triangleCase(rng, X, 2e3, 7e2);
    deform(rng, X, kDeformations[trial], x);
    Vec3 xf[3];
    Vec3* ps[3];
    for (int k = 0; k < 3; ++k) xf[k] = x[k].cast<Real>(), ps[k] = &xf[k];
    Vector3d expected[3] = {Vector3d::Zero(), Vector3d::Zero(), Vector3d::Zero()};
    double energy = 0;
    for (int which = 0; which < 3; ++which) {
      Real C;
      Vec3 grad[3];
      ASSERT_TRUE(triangleStrain(ps, c.restInverse, TriangleStrain(which), C, grad));
      const double k = which == int(TriangleStrain::Shear) ? c.shear : c.stretch;
      energy += 0.5 * k * double(C) * double(C);
      for (int v = 0; v < 3; ++v) expected[v] += k * double(C) * grad[v].cast<double>();
    }
    EXPECT_NEAR(triangleStrainEnergy(xf, c.restInverse, c.stretch, c.shear), energy, 1e-4 * energy);
    for (int v = 0; v < 3; ++v) {
      Vector3d g;
      Matrix3d H;
      triangleStrainVertexDerivatives(xf, c.restInverse, c.stretch, c.shear, v, false, g, H);
      EXPECT_LE((g - expected[v]).norm(), 1e-4 * expected[v].norm()) << "trial " << trial << " vertex " << v;
    }
  }
}

// Stretched along its rest axes (C_xx, C_yy >= 0, C_xy = 0) the per-term block drops nothing: it is the exact one.
// Under compression it drops the negative curvature C P/l and keeps the Gauss-Newton k a² n nᵀ.
TEST(TriangleStrainEnergy, PerTermBlockIsExactInTensionWithoutShear) {
  std::mt19937 rng(46);
  Vector3d X[4];
  const TriangleStrainCase c = triangleCase(rng, X, 1e3, 2e2);
  // The rest frame's axes in space: F = [f0, f1] = [e1 e2] Dm⁻¹ at rest gives ex, ey.
  const Vector3d e1 = X[1] - X[0], e2 = X[2] - X[0];
  const Vector3d ex = e1 * double(c.restInverse(0, 0)) + e2 * double(c.restInverse(1, 0));
  const Vector3d ey = e1 * double(c.restInverse(0, 1)) + e2 * double(c.restInverse(1, 1));
  for (const auto& [sx, sy] : {std::pair{1.3, 1.1}, std::pair{1.0, 1.5}, std::pair{0.7, 1.2}}) {
    Vector3d x[3];  // x = X0 + (sx ex exᵀ + sy ey eyᵀ)(X - X0): F = [sx ex, sy ey]
    for (int k = 0; k < 3; ++k) {
      const Vector3d d = X[k] - X[0];
      x[k] = X[0] + sx * ex * ex.dot(d) + sy * ey * ey.dot(d);
    }
    for (int v = 0; v < 3; ++v) {
      Vector3d g, gp;
      Matrix3d H, P;
      triangleStrainVertexDerivatives(x, c.restInverse, c.stretch, c.shear, v, false, g, H);
      triangleStrainVertexDerivatives(x, c.restInverse, c.stretch, c.shear, v, true, gp, P);
      // a_v[0] = ∂f0/∂x_v: rows of Dm⁻¹ for x1, x2, minus their sum for x0.
      const double rows[2] = {double(c.restInverse(0, 0)), double(c.restInverse(1, 0))};
      const double a = v == 0 ? -(rows[0] + rows[1]) : rows[v - 1];
      if (sx >= 1 || std::abs(a) < 1e-6) {
        EXPECT_LE((P - H).norm(), 1e-5 * H.norm()) << "stretch " << sx << " x " << sy << ", vertex " << v;
      } else {  // compressed along ex: P - H = k_s a_v[0]² (1 - sx)/sx (I - ex exᵀ) >= 0, the dropped curvature
        EXPECT_GT((P - H).norm(), 1e-3 * H.norm()) << "vertex " << v;
        EXPECT_GE(minEigenvalue(P - H), -1e-6 * H.norm());
      }
    }
  }
}

TEST(TriangleStrainEnergy, CollapsedAxisGivesZeros) {
  std::mt19937 rng(45);
  Vector3d X[4];
  const TriangleStrainCase c = triangleCase(rng, X, 1e3, 1e3);
  const Vector3d x[3] = {X[0], X[0], X[0]};  // every vertex on one point: F = 0
  Vector3d g;
  Matrix3d H;
  triangleStrainVertexDerivatives(x, c.restInverse, c.stretch, c.shear, 1, true, g, H);
  EXPECT_EQ(g, Vector3d::Zero());
  EXPECT_EQ(H, Matrix3d::Zero());
  EXPECT_EQ(triangleStrainEnergy(x, c.restInverse, c.stretch, c.shear), 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// The projection itself

TEST(ProjectSymmetricToPsd, ClampsOnlyTheNegativeEigenvalues) {
  std::mt19937 rng(51);
  for (int trial = 0; trial < 10; ++trial) {
    const Matrix3d Q = randomRotation(rng);
    Vector3d lambda(uniform(rng, -3, -0.1), uniform(rng, 0.1, 3), trial % 2 ? uniform(rng, -3, -0.1) : 2.0);
    if (trial >= 6) lambda[2] = lambda[trial % 2] * (1 + 1e-7);  // a nearly double eigenvalue, negative or positive
    Matrix3d H = Q * lambda.asDiagonal() * Q.transpose();
    H = 0.5 * (H + H.transpose());
    projectSymmetricToPsd(H);
    const Matrix3d expected = Q * lambda.cwiseMax(0.0).asDiagonal() * Q.transpose();
    EXPECT_LE((H - expected).norm(), 1e-13 * expected.norm()) << "trial " << trial;
  }
  // Positive definite: untouched, bit for bit.
  const Matrix3d Q = randomRotation(rng);
  Matrix3d H = Q * Vector3d(1, 2, 3).asDiagonal() * Q.transpose();
  H = 0.5 * (H + H.transpose());
  const Matrix3d before = H;
  projectSymmetricToPsd(H);
  EXPECT_EQ(H, before);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------------
// A contact's normal energy (energy_contact.h)

TEST(ContactEnergy, DerivativesMatchCentralDifferencesInsideAndVanishOutside) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 40; ++trial) {
    const Vector3d n = randomVector(rng, 1).normalized(), q = randomVector(rng, 1);
    const double k = uniform(rng, 1, 1e4), depth = uniform(rng, -0.3, 0.3);  // depth > 0: inside
    if (std::abs(depth) < 1e-3) continue;  // central differences across the kink at s = 0
    const Vector3d along = randomVector(rng, 1);  // its tangential part moves x0 along the plane
    const Vector3d x0 = q - depth * n + (along - along.dot(n) * n);
    const EnergyFn energy = [&](const Vector3d* x) {
      const double d = std::max(0.0, -contactSeparation(x[0], q, n));
      return 0.5 * k * d * d;
    };
    const DerivativesFn derivatives = [&](const Vector3d* x, int v, bool, Vector3d& g, Matrix3d& H) {
      g.setZero(), H.setZero();
      if (v == 0) addContactDerivatives(x[0], q, n, k, false, g, H);
    };
    const Vector3d x[4] = {x0, x0, x0, x0};
    Vector3d g;
    Matrix3d H;
    derivatives(x, 0, false, g, H);
    const double h = 1e-6;
    EXPECT_LE((numericalGradient(energy, x, 0, h) - g).norm(), 1e-6 * k * std::abs(depth)) << "trial " << trial;
    EXPECT_LE((numericalHessian(derivatives, x, 0, h) - H).norm(), 1e-6 * k) << "trial " << trial;
    Vector3d ga = Vector3d::Zero();
    Matrix3d Ha = Matrix3d::Zero();
    const double lambda = addContactDerivatives(x0, q, n, k, false, ga, Ha);
    if (depth > 0) {  // the normal force k d along n, pushing out; the block k n nᵀ
      EXPECT_NEAR(lambda, k * depth, 1e-9 * k);
      EXPECT_LE((-g - lambda * n).norm(), 1e-9 * k);
      EXPECT_LE((H - k * n * n.transpose()).norm(), 1e-9 * k);
    } else {  // outside: nothing, unless the step is to hold it (active): then the quadratic's pull back to the plane
      EXPECT_EQ(lambda, 0);
      EXPECT_EQ(g, Vector3d::Zero());
      EXPECT_EQ(H, Matrix3d::Zero());
      Vector3d gActive = Vector3d::Zero();
      Matrix3d HActive = Matrix3d::Zero();
      EXPECT_EQ(addContactDerivatives(x0, q, n, k, true, gActive, HActive), 0);
      EXPECT_LE((gActive - k * (-depth) * n).norm(), 1e-9 * k);
      EXPECT_LE((HActive - k * n * n.transpose()).norm(), 1e-9 * k);
    }
  }
}
