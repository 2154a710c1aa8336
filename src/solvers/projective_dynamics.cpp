// Projective Dynamics: element builders, local projections, and the prefactored global solve (see the header).
#include "solvers/projective_dynamics.h"
#include "solvers/ldlt_solve.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "pbd/errors.h"
#include "base/checks.h"

namespace pbd {

static_assert(sizeof(PdElement) == 16 + 4 + 8 + 4 + 4 + 4 + 8 + 128, "PdElement must have no padding (memcmp)");

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// A zeroed element of `kind` over particles ids[0..size): every byte defined, so memcmp is meaningful.
PdElement blankElement(PdKind kind, const uint32_t* ids, int size, int rows, uint32_t source) {
  PdElement e;
  std::memset(&e, 0, sizeof e);
  e.kind = kind;
  e.size = uint8_t(size);
  e.rows = uint8_t(rows);
  e.source = source;
  for (int k = 0; k < size; ++k) e.particle[k] = ids[k];
  return e;
}

/// massScale = m̄ / g (see the header): m̄ over the free particles, g the mean squared gain of G per particle.
/// False when every particle is pinned (the element would not act on the system).
bool finishElement(PdElement& e, const Real* inverseMasses) {
  double mass = 0, gain = 0;
  int free = 0;
  for (int k = 0; k < e.size; ++k) {
    const Real w = inverseMasses[e.particle[k]];
    if (w > 0) mass += 1.0 / double(w), ++free;
    for (int j = 0; j < e.rows; ++j) gain += e.G[k][j] * e.G[k][j];
  }
  if (free == 0 || !(gain > 0)) return false;
  e.massScale = (mass / free) / (gain / e.size);
  return true;
}

/// G = [-1ᵀDm⁻¹; Dm⁻¹]: row j of A x is column j of F = Ds Dm⁻¹ = Σ_m (x_{m+1} - x_0) Dm⁻¹[m][j]. Row 0 is summed
/// in double from the float Dm⁻¹, so each column of G sums to zero to double round-off (momentum).
void setTetOperator(PdElement& e, const Eigen::Matrix3d& restInverse) {
  for (int j = 0; j < 3; ++j) {
    double sum = 0;
    for (int m = 0; m < 3; ++m) {
      e.G[m + 1][j] = restInverse(m, j);
      sum += restInverse(m, j);
    }
    e.G[0][j] = -sum;
  }
}

/// F = Σ_k G[k][j] x_k per column j.
Eigen::Matrix3d tetDeformation(const PdElement& e, const Eigen::Vector3d* x) {
  Eigen::Matrix3d F = Eigen::Matrix3d::Zero();
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 4; ++k) F.col(j) += e.G[k][j] * x[k];
  return F;
}

}  // namespace

bool pdEdgeElement(const DistanceConstraint& d, uint32_t source, const Real* inverseMasses, PdElement& out) {
  const uint32_t ids[2] = {d.i, d.j};
  out = blankElement(PdKind::Edge, ids, 2, 1, source);
  out.G[0][0] = 1;
  out.G[1][0] = -1;
  out.param[0] = d.minLength;
  out.param[1] = d.maxLength;
  // ‖A x - p‖ = |d - clamp(d)| = |C|: the XPBD energy ½ C²/α is w/2 ‖A x - p‖² with w = 1/α exactly.
  out.compliance = d.compliance;
  out.stiffness = d.stiffness;
  return finishElement(out, inverseMasses);
}

bool pdBendingElement(const DihedralConstraint& d, uint32_t source, const Real* inverseMasses, const Vec3* rest,
                      PdElement& out) {
  const uint32_t ids[4] = {d.p0, d.p1, d.p2, d.p3};
  out = blankElement(PdKind::Bending, ids, 4, 4, source);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j) out.G[k][j] = (k == j ? 1.0 : 0.0) - 0.25;
  out.param[0] = d.restAngle;
  // One Newton step moves the stencil by |Δx|² = C² / Σ|∇φ|², so w/2 ‖A x - p‖² = w/2 C² / Σ|∇φ|², which is the
  // XPBD energy ½ C²/α for w = Σ|∇φ|²/α: α' = α / Σ|∇φ|², with the gradients of the rest shape.
  Real phi;
  Vec3 grad[4];
  if (!evalDihedral(rest[d.p0], rest[d.p1], rest[d.p2], rest[d.p3], phi, grad)) return false;
  double gradSq = 0;
  for (const Vec3& g : grad) gradSq += double(g.squaredNorm());
  out.compliance = Real(double(d.compliance) / gradSq);
  out.stiffness = d.stiffness;
  return finishElement(out, inverseMasses);
}

bool pdTetVolumeElement(const TetVolumeConstraint& t, uint32_t source, const Real* inverseMasses, const Vec3* rest,
                        PdElement& out) {
  out = blankElement(PdKind::TetVolume, t.p, 4, 3, source);
  Eigen::Matrix3d Dm;
  for (int k = 0; k < 3; ++k) Dm.col(k) = (rest[t.p[k + 1]] - rest[t.p[0]]).cast<double>();
  const double det = Dm.determinant();
  if (!(std::abs(det) > 1e-6 * Dm.col(0).norm() * Dm.col(1).norm() * Dm.col(2).norm())) return false;
  setTetOperator(out, Dm.inverse());
  out.unilateral = t.unilateral ? 1 : 0;
  // Near rest the distance from F to {det = 1} is |det F - 1| / |∇det| = |det F - 1| / √3, and V - V0 = V0 (det F - 1):
  // ½ (V - V0)²/α = w/2 ‖F - T‖² for w = 3 V0²/α, so α' = α / (3 V0²).
  out.compliance = Real(double(t.compliance) / (3.0 * double(t.restVolume) * double(t.restVolume)));
  out.stiffness = t.stiffness;
  return finishElement(out, inverseMasses);
}

int pdNeoHookeanElements(const NeoHookeanTet& t, uint32_t source, const Real* inverseMasses, PdElement out[2]) {
  // The co-rotated energy μ‖F - R‖² V0 + λ/2 (det F - 1)² V0 is linear elasticity with Lamé μ, λ at small strain
  // (‖F - R‖² = ε:ε to second order), so: strain w = 2 μ V0, volume w = 3 λ V0 (the √3 as for the volume tet).
  // The tet stores α_D = 1/(μ V0) and α_H = 1/(λ' V0) with λ' = λ + μ (neo_hookean.h): λ V0 = 1/α_H - 1/α_D.
  const double muV = 1.0 / double(t.deviatoricCompliance);  // 0 when α_D = +∞ (μ = 0)
  const double lambdaV = 1.0 / double(t.hydrostaticCompliance) - muV;  // +∞ when α_H = 0 (ν = 0.5)
  const Eigen::Matrix3d restInverse = t.restInverse.cast<double>();
  int n = 0;
  PdElement& strain = out[n];
  strain = blankElement(PdKind::TetStrain, t.p, 4, 3, source);
  setTetOperator(strain, restInverse);
  strain.compliance = Real(muV > 0 ? 1.0 / (2.0 * muV) : kInfinity);
  strain.stiffness = t.deviatoricStiffness;
  if (!finishElement(strain, inverseMasses)) return 0;
  ++n;
  if (!(lambdaV > 0)) return n;
  PdElement& volume = out[n];
  volume = blankElement(PdKind::TetVolume, t.p, 4, 3, source);
  setTetOperator(volume, restInverse);
  volume.compliance = Real(1.0 / (3.0 * lambdaV));  // 0 (rigid, capped) for ν = 0.5
  volume.stiffness = t.hydrostaticStiffness;
  finishElement(volume, inverseMasses);
  return n + 1;
}

double pdWeight(const PdElement& e, bool xpbd, double invH2) {
  const double inertia = e.massScale * invH2;
  const double cap = kPdMaxStiffnessRatio * inertia;
  if (xpbd) {
    if (!(double(e.compliance) < kInfinity)) return 0;
    return e.compliance > 0 ? std::min(1.0 / double(e.compliance), cap) : cap;
  }
  const double k = e.stiffness;
  if (!(k > 0)) return 0;
  if (k >= 1) return cap;
  return std::min(k / (1 - k), kPdMaxStiffnessRatio) * inertia;
}

Eigen::Vector3d pdProjectEdge(const Eigen::Vector3d& e, double minLength, double maxLength) {
  const double d = e.norm();
  if (!(d > 1e-12)) return e;  // coincident: no direction, no correction (as the PBD kernel)
  return e * (std::clamp(d, minLength, maxLength) / d);
}

Eigen::Matrix3d pdClosestRotation(const Eigen::Matrix3d& F) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU();
  const Eigen::Matrix3d& V = svd.matrixV();
  // The singular values are sorted decreasing: flipping the smallest one's axis is the cheapest way to det = +1.
  if ((U * V.transpose()).determinant() < 0) U.col(2) = -U.col(2);
  return U * V.transpose();
}

Eigen::Matrix3d pdClosestUnitDeterminant(const Eigen::Matrix3d& F, bool unilateral) {
  if (unilateral && F.determinant() >= 1) return F;
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU(), V = svd.matrixV();
  Eigen::Vector3d sigma = svd.singularValues();
  // Rotations U, V; an inversion shows as a negative smallest singular value, clamped to 0 so the target is an
  // upright tet.
  if (U.determinant() < 0) U.col(2) = -U.col(2), sigma[2] = -sigma[2];
  if (V.determinant() < 0) V.col(2) = -V.col(2), sigma[2] = -sigma[2];
  const Eigen::Vector3d start = sigma.cwiseMax(0.0);
  // Closest point of {σ1 σ2 σ3 = 1} to `start`: the step d stays along the gradient g = ∇(σ1σ2σ3) and solves the
  // constraint linearized at start + d:  C + g·(d_new - d) = 0,  d_new = -((C - g·d) / |g|²) g.
  Eigen::Vector3d d = Eigen::Vector3d::Zero(), s = start;
  for (int it = 0; it < kPdVolumeSteps; ++it) {
    const double C = s[0] * s[1] * s[2] - 1;
    if (std::abs(C) < 1e-12) break;
    const Eigen::Vector3d g(s[1] * s[2], s[0] * s[2], s[0] * s[1]);
    const double gg = g.squaredNorm();
    if (!(gg > 1e-20)) {  // two singular values 0 (a tet flattened to a line): the rest shape is the only target
      s = Eigen::Vector3d::Ones();
      break;
    }
    d = -((C - g.dot(d)) / gg) * g;
    s = start + d;
  }
  if (!s.allFinite()) s = Eigen::Vector3d::Ones();
  return U * s.asDiagonal() * V.transpose();
}

void pdProjectBending(const Vec3 x[4], Real restAngle, Eigen::Vector3d out[4]) {
  Vec3 q[4] = {x[0], x[1], x[2], x[3]};
  for (int it = 0; it < kPdBendingSteps; ++it) {
    Real phi;
    Vec3 grad[4];
    if (!evalDihedral(q[0], q[1], q[2], q[3], phi, grad)) break;  // degenerate: no direction, project no further
    const Real C = wrapAngle(phi - restAngle);
    if (std::abs(C) < Real(1e-6)) break;
    Real gradSq = 0;
    for (const Vec3& g : grad) gradSq += g.squaredNorm();
    if (!(gradSq > Real(1e-18))) break;
    for (int k = 0; k < 4; ++k) q[k] -= (C / gradSq) * grad[k];
  }
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const Vec3& qk : q) centroid += qk.cast<double>();
  centroid *= 0.25;
  for (int k = 0; k < 4; ++k) out[k] = q[k].cast<double>() - centroid;
}

// --- The system ---

bool ProjectiveSystem::update(const std::vector<Real>& inverseMasses) {
  const bool sameElements =
      scratch_.size() == elements_.size() &&
      (elements_.empty() || std::memcmp(scratch_.data(), elements_.data(), elements_.size() * sizeof(PdElement)) == 0);
  const bool sameMasses =
      inverseMasses.size() == inverseMasses_.size() &&
      (inverseMasses.empty() ||
       std::memcmp(inverseMasses.data(), inverseMasses_.data(), inverseMasses.size() * sizeof(Real)) == 0);
  if (built_ && sameElements && sameMasses) return false;
  elements_.swap(scratch_);
  scratch_.reserve(elements_.size());  // the next step's candidate is built without allocating
  inverseMasses_ = inverseMasses;
  rebuildLayout();
  return true;
}

/// Rows for the free particles, each row's incidences in element order, and the per-element buffers.
void ProjectiveSystem::rebuildLayout() {
  const size_t n = inverseMasses_.size();
  row_.assign(n, kPdPinned);
  particleOfRow_.clear();
  for (uint32_t i = 0; i < n; ++i) {
    if (inverseMasses_[i] > 0) row_[i] = uint32_t(particleOfRow_.size()), particleOfRow_.push_back(i);
  }
  const size_t rows = particleOfRow_.size();
  incidenceBegin_.assign(rows + 1, 0);
  for (const PdElement& e : elements_)
    for (int k = 0; k < e.size; ++k)
      if (row_[e.particle[k]] != kPdPinned) ++incidenceBegin_[row_[e.particle[k]] + 1];
  for (size_t r = 0; r < rows; ++r) incidenceBegin_[r + 1] += incidenceBegin_[r];
  incidence_.resize(incidenceBegin_[rows]);
  std::vector<uint32_t> next(incidenceBegin_.begin(), incidenceBegin_.end() - 1);
  for (uint32_t el = 0; el < elements_.size(); ++el)
    for (int k = 0; k < elements_[el].size; ++k) {
      const uint32_t r = row_[elements_[el].particle[k]];
      if (r != kPdPinned) incidence_[next[r]++] = 4 * el + uint32_t(k);
    }
  weight_.assign(elements_.size(), 0.0);
  projection_.assign(4 * elements_.size(), Eigen::Vector3d::Zero());
  for (int a = 0; a < 3; ++a) solution_[a].setZero(Eigen::Index(rows));
  permuted_.assign(3 * rows, 0.0);
  analyzed_ = false;
  factored_ = false;
  built_ = true;
}

void ProjectiveSystem::prepare(bool xpbd, double invH2) {
  if (factored_ && xpbd == factoredXpbd_ && invH2 == factoredInvH2_) return;
  invH2_ = invH2;
  factored_ = true;
  factoredXpbd_ = xpbd;
  factoredInvH2_ = invH2;
  const Eigen::Index rows = Eigen::Index(particleOfRow_.size());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(particleOfRow_.size());
  for (Eigen::Index r = 0; r < rows; ++r) entries.emplace_back(r, r, invH2 / double(inverseMasses_[particleOfRow_[r]]));
  for (size_t el = 0; el < elements_.size(); ++el) {
    const PdElement& e = elements_[el];
    weight_[el] = pdWeight(e, xpbd, invH2);
    // w G Gᵀ, the lower triangle (the factor reads only that). Entries with w = 0 too: the sparsity pattern must
    // not depend on the method, it is analyzed once per layout.
    for (int k = 0; k < e.size; ++k) {
      for (int l = 0; l < e.size; ++l) {
        const uint32_t rk = row_[e.particle[k]], rl = row_[e.particle[l]];
        if (rk == kPdPinned || rl == kPdPinned || rk < rl) continue;
        double dot = 0;
        for (int j = 0; j < e.rows; ++j) dot += e.G[k][j] * e.G[l][j];
        entries.emplace_back(rk, rl, weight_[el] * dot);
      }
    }
  }
  if (rows == 0) return;  // every particle pinned: nothing to solve
  Eigen::SparseMatrix<double> matrix(rows, rows);
  matrix.setFromTriplets(entries.begin(), entries.end());  // duplicates are summed
  if (!analyzed_) ldlt_.analyzePattern(matrix), analyzed_ = true;
  ldlt_.factorize(matrix);
  ++factorizations_;
  checkPositiveDefinite();
}

// Why the World never trips this check (issue #4 names "no inertia term and no attachments" as the failure): the
// matrix is D + Σ w G Gᵀ over the FREE particles only, D = diag(m_r/h²). Every row's particle has an inverse mass
// in (0, FLT_MAX] (pinned ones are not rows), so m_r in [1/FLT_MAX, ∞) and D > 0; World::step's dt check keeps
// 1/h² finite; every element adds w G Gᵀ ⪰ 0 with 0 <= w finite. So xᵀ(D + Σ w G Gᵀ)x >= xᵀDx > 0: positive
// definite in exact arithmetic, whatever the constraints, with or without pins and attachments. In floating point
// the cap w <= 1e6 m̄/h² keeps each element within 1e6 of its own particles' inertia, far from where LDLᵀ's round-off
// (1e-16 relative) could zero a pivot. The check stays as a guard: an element built outside the World's builders
// (a weight with no cap) can zero a pivot (tests/native/solvers/solver_bad_input_test.cpp), and then no NaN may leave.
void ProjectiveSystem::checkPositiveDefinite() {
  // Eigen stops at the first zero pivot (info() = NumericalIssue); a negative or non-finite one it lets through.
  const Eigen::VectorXd& d = ldlt_.vectorD();
  Eigen::Index bad = -1;
  for (Eigen::Index i = 0; i < d.size() && bad < 0; ++i)
    if (!(d[i] > 0 && std::isfinite(d[i]))) bad = i;
  if (bad < 0 && ldlt_.info() == Eigen::Success) return;
  factored_ = false;  // the next prepare() tries again (and throws again while nothing changed)
  const std::string where = bad < 0 ? std::string("the factorization failed")
                                    : "pivot " + std::to_string(bad) + " of " + std::to_string(d.size()) + " is " +
                                          check::bound(d[bad]);
  throw InvalidArgument("step: the Projective Dynamics matrix M/h^2 + sum w A^T A is not positive definite (" + where +
                        "): an element's weight swamps the inertia of its particles");
}

/// The local step of element e: p'_j = P(A x)_j minus the pinned particles' share (they are not in the system).
void ProjectiveSystem::project(size_t el, const Vec3* p) {
  const PdElement& e = elements_[el];
  Eigen::Vector3d* out = &projection_[4 * el];
  if (weight_[el] == 0) return;  // switched off: its rows of the right-hand side are multiplied by w = 0
  Eigen::Vector3d x[4];
  for (int k = 0; k < e.size; ++k) x[k] = p[e.particle[k]].cast<double>();
  switch (e.kind) {
    case PdKind::Edge: out[0] = pdProjectEdge(x[0] - x[1], e.param[0], e.param[1]); break;
    case PdKind::Bending: {
      const Vec3 stencil[4] = {p[e.particle[0]], p[e.particle[1]], p[e.particle[2]], p[e.particle[3]]};
      pdProjectBending(stencil, e.param[0], out);
      break;
    }
    case PdKind::TetStrain:
    case PdKind::TetVolume: {
      const Eigen::Matrix3d F = tetDeformation(e, x);
      const Eigen::Matrix3d T = e.kind == PdKind::TetStrain ? pdClosestRotation(F)
                                                            : pdClosestUnitDeterminant(F, e.unilateral != 0);
      for (int j = 0; j < 3; ++j) out[j] = T.col(j);
      break;
    }
  }
  for (int k = 0; k < e.size; ++k) {
    if (row_[e.particle[k]] != kPdPinned) continue;
    for (int j = 0; j < e.rows; ++j) out[j] -= e.G[k][j] * x[k];
  }
}

/// b_r = m/h² s + Σ_(element, slot k) w Σ_j G[k][j] p'_j over the row's incidences, in element order.
void ProjectiveSystem::assembleRow(size_t r, const Vec3* s) {
  const uint32_t i = particleOfRow_[r];
  Eigen::Vector3d b = (invH2_ / double(inverseMasses_[i])) * s[i].cast<double>();
  for (uint32_t c = incidenceBegin_[r]; c < incidenceBegin_[r + 1]; ++c) {
    const uint32_t el = incidence_[c] / 4, k = incidence_[c] % 4;
    const PdElement& e = elements_[el];
    if (weight_[el] == 0) continue;
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
    for (int j = 0; j < e.rows; ++j) force += e.G[k][j] * projection_[4 * el + j];
    b += weight_[el] * force;
  }
  for (int a = 0; a < 3; ++a) solution_[a][Eigen::Index(r)] = b[a];
}

/// x = P⁻¹ L⁻ᵀ D⁻¹ L⁻¹ P b per axis, as SimplicialLDLT::solve, the three axes in one pass over the factor
/// (solvers/ldlt_solve.h) on a preallocated work array: (P b)[perm[i]] = b[i].
void ProjectiveSystem::solveColumns() {
  const auto& perm = ldlt_.permutationP().indices();
  const Eigen::Index n = solution_[0].size();
  double* y = permuted_.data();
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) y[3 * size_t(perm[i]) + a] = solution_[a][i];
  }
  solveLdltThreeColumns(ldlt_.matrixL().nestedExpression(), ldlt_.vectorD(), y);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) solution_[a][i] = y[3 * size_t(perm[i]) + a];
  }
}

void ProjectiveSystem::iterate(Vec3* p, const Vec3* s, TaskSystem& tasks) {
  const size_t rows = particleOfRow_.size();
  if (rows == 0) return;
  auto local = [&](size_t begin, size_t end) {
    for (size_t el = begin; el < end; ++el) project(el, p);
  };
  tasks.parallelFor(elements_.size(), kPdElementsPerTask, local);
  auto rhs = [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) assembleRow(r, s);
  };
  tasks.parallelFor(rows, kPdRowsPerTask, rhs);
  solveColumns();  // serial: one pass over the factor serves x, y and z, cheaper than three passes on three threads
  auto writeBack = [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const Eigen::Index ri = Eigen::Index(r);
      p[particleOfRow_[r]] = Vec3(Real(solution_[0][ri]), Real(solution_[1][ri]), Real(solution_[2][ri]));
    }
  };
  tasks.parallelFor(rows, kPdRowsPerTask, writeBack);
}

}  // namespace pbd
