// The World façade: its settings, the step, and what it reports. Particles, constraints and bodies, and colliders
// are added and changed in world_particles.cpp, world_constraints.cpp and world_colliders.cpp.
#include "pbd/world.h"

#include <vector>

#include "base/checks.h"
#include "world/body_materials.h"
#include "world/world_state.h"

namespace pbd {
namespace {

/// The hierarchical solver's settings; `names` are the arguments as the caller calls them (levels, parents, passes).
void checkHierarchy(const char* fn, int levels, int parents, int coarseIterations, const char* const (&names)[3]) {
  check::inRange(fn, names[0], levels, 1, 16);
  check::inRange(fn, names[1], parents, 1, 16);
  check::inRange(fn, names[2], coarseIterations, 1, 1000);
}

void checkSettings(const char* fn, const SolverSettings& s) {
  check::finite(fn, "gravity", s.gravity);
  check::inRange(fn, "substeps", s.substeps, 1, 1000);
  check::inRange(fn, "iterations", s.iterations, 1, 1000);
  check::atLeast(fn, "linearDamping", s.linearDamping, 0);
  check::inRange(fn, "rigidDamping", s.rigidDamping, 0, 1);
  check::finite(fn, "chebyshevRho", s.chebyshevRho);
  if (!(s.chebyshevRho >= 0 && s.chebyshevRho < 1)) check::fail(fn, "chebyshevRho", "must be in [0, 1)", s.chebyshevRho);
  check::finite(fn, "ground.height", s.ground.height);
  check::atLeast(fn, "ground.thickness", s.ground.thickness, 0);
  check::atLeast(fn, "ground.friction", s.ground.friction, 0);
  check::staticFriction(fn, "ground.staticFriction", s.ground.staticFriction);
  check::inRange(fn, "ground.restitution", s.ground.restitution, 0, 1);
  check::atLeast(fn, "ground.restitutionThreshold", s.ground.restitutionThreshold, 0);
  if (s.method != Method::Pbd && s.method != Method::Xpbd) check::fail(fn, "method", "is unknown", int(s.method));
  if (s.integrator != Integrator::ImplicitEuler && s.integrator != Integrator::Bdf2) {
    check::fail(fn, "integrator", "is unknown", int(s.integrator));
  }
  if (s.distanceSweep != DistanceSweep::Forward && s.distanceSweep != DistanceSweep::Symmetric) {
    check::fail(fn, "distanceSweep", "is unknown", int(s.distanceSweep));
  }
  if (s.solver != Solver::GaussSeidel && s.solver != Solver::Jacobi && s.solver != Solver::ColouredGaussSeidel &&
      s.solver != Solver::Hierarchical && s.solver != Solver::ProjectiveDynamics &&
      s.solver != Solver::VertexBlockDescent) {
    check::fail(fn, "solver", "is unknown", int(s.solver));
  }
  checkHierarchy(fn, s.hierarchyLevels, s.hierarchyParents, s.coarseIterations,
                 {"hierarchyLevels", "hierarchyParents", "coarseIterations"});
  check::positive(fn, "selfCollision.radius", s.selfCollision.radius);
  check::atLeast(fn, "maxSpeed", s.maxSpeed, 0);
  check::finite(fn, "jacobiRelaxation", s.jacobiRelaxation);
  if (!(s.jacobiRelaxation > 0 && s.jacobiRelaxation < 2)) check::fail(fn, "jacobiRelaxation", "must be in (0, 2)", s.jacobiRelaxation);
}

}  // namespace

void World::Impl::reserveResiduals(int substeps, int iterations) {
  if (diagnostics.recordResiduals) diagnostics.residuals.reserve(2 * size_t(substeps) * size_t(iterations));
}

World::World(TaskSystem* tasks) : impl_(std::make_unique<Impl>()) { setTaskSystem(tasks); }
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

const SolverSettings& World::settings() const { return impl_->settings; }

void World::setSettings(const SolverSettings& s) {
  checkSettings("setSettings", s);
  impl_->reserveResiduals(s.substeps, s.iterations);
  if (s.selfCollision.enabled) impl_->reserveSelfCollision(impl_->count());
  impl_->settings = s;
}

void World::setGravity(const Vec3& g) {
  check::finite("setGravity", "gravity", g);
  impl_->settings.gravity = g;
}

void World::setMethod(Method m) {
  if (m != Method::Pbd && m != Method::Xpbd) check::fail("setMethod", "method", "is unknown", int(m));
  impl_->settings.method = m;
}

void World::setSubsteps(int n) {
  check::inRange("setSubsteps", "substeps", n, 1, 1000);
  impl_->reserveResiduals(n, impl_->settings.iterations);
  impl_->settings.substeps = n;
}

void World::setIterations(int n) {
  check::inRange("setIterations", "iterations", n, 1, 1000);
  impl_->reserveResiduals(impl_->settings.substeps, n);
  impl_->settings.iterations = n;
}

void World::setSolver(Solver solver) {
  SolverSettings s = impl_->settings;
  s.solver = solver;
  checkSettings("setSolver", s);
  impl_->settings = s;
}

void World::setHierarchy(int levels, int parents, int coarseIterations) {
  checkHierarchy("setHierarchy", levels, parents, coarseIterations, {"levels", "parents", "coarseIterations"});
  impl_->settings.hierarchyLevels = levels;
  impl_->settings.hierarchyParents = parents;
  impl_->settings.coarseIterations = coarseIterations;
}

void World::setJacobiRelaxation(Real omega) {
  SolverSettings s = impl_->settings;
  s.jacobiRelaxation = omega;
  checkSettings("setJacobiRelaxation", s);
  impl_->settings = s;
}

void World::setRecordResiduals(bool record) {
  Impl& m = *impl_;
  const bool was = m.diagnostics.recordResiduals;
  m.diagnostics.recordResiduals = record;
  try {
    m.reserveResiduals(m.settings.substeps, m.settings.iterations);
  } catch (...) {
    m.diagnostics.recordResiduals = was;
    throw;
  }
  if (!record) m.diagnostics.residuals.clear();
}

const Real* World::residuals() const { return impl_->diagnostics.residuals.data(); }
uint32_t World::residualCount() const { return uint32_t(impl_->diagnostics.residuals.size() / 2); }

void World::setIntegrator(Integrator integrator) {
  SolverSettings s = impl_->settings;
  s.integrator = integrator;
  checkSettings("setIntegrator", s);
  if (s.integrator != impl_->settings.integrator) impl_->particles.historyValid = false;
  impl_->settings = s;
}

void World::setDistanceSweep(DistanceSweep sweep) {
  SolverSettings s = impl_->settings;
  s.distanceSweep = sweep;
  checkSettings("setDistanceSweep", s);
  impl_->settings = s;
}

void World::setSelfCollision(const SelfCollisionSettings& selfCollision) {
  SolverSettings s = impl_->settings;
  s.selfCollision = selfCollision;
  checkSettings("setSelfCollision", s);
  if (s.selfCollision.enabled) impl_->reserveSelfCollision(impl_->count());
  impl_->settings = s;
}

uint32_t World::selfCollisionPairCount() const { return uint32_t(impl_->selfCollision.selfCollisionPairs.size()); }

void World::setLinearDamping(Real perSecond) {
  check::atLeast("setLinearDamping", "linearDamping", perSecond, 0);
  impl_->settings.linearDamping = perSecond;
}

void World::setChebyshevRho(Real rho) {
  SolverSettings s = impl_->settings;
  s.chebyshevRho = rho;
  checkSettings("setChebyshevRho", s);
  impl_->settings = s;
}

void World::setRigidDamping(Real k) {
  check::inRange("setRigidDamping", "rigidDamping", k, 0, 1);
  impl_->settings.rigidDamping = k;
}

void World::setGround(const GroundSettings& ground) {
  SolverSettings s = impl_->settings;
  s.ground = ground;
  checkSettings("setGround", s);
  impl_->settings = s;
}

void World::setTaskSystem(TaskSystem* tasks) {
  impl_->tasks = impl_->pool = tasks ? tasks : &impl_->serial;
  impl_->poolChoice.reset();
}

void World::setPoolUse(PoolUse use) {
  if (use != PoolUse::Always && use != PoolUse::Measured) check::fail("setPoolUse", "use", "is unknown", int(use));
  impl_->poolUse = use;
  impl_->poolChoice.reset();
}

PoolUse World::poolUse() const { return impl_->poolUse; }

bool World::lastStepUsedPool() const { return impl_->lastStepUsedPool; }

void World::step(Real dt) {
  check::finite("step", "dt", dt);
  if (!(dt > 0) || dt > 1) check::fail("step", "dt", "must be in (0, 1] seconds", dt);
  // α̃ = α/h² (BDF2: 9α/(4h²)) must fit in a float: a tiny positive dt (1e-40) would otherwise give Inf or NaN
  // multipliers and roll every step back. Any dt above ~1e-19 s per substep passes.
  const double h = double(dt) / impl_->settings.substeps;
  check::derivedFinite("step", "dt", "is too small for the substep count (9/(4 h^2) overflows float)", 9 / (4 * h * h), dt);
  impl_->step(dt);
  impl_->tearing.lastTears.clear();  // also when the last tearable body is gone: the report is this step's
  if (!impl_->tearing.surfaces.empty()) tearOverstretchedEdges();
}

const StepReport& World::lastStepReport() const { return impl_->diagnostics.report; }
void World::setStepTimings(bool on) {
  impl_->diagnostics.clock.enabled = on;
  impl_->diagnostics.timings = StepTimings{};
}
const StepTimings& World::lastStepTimings() const { return impl_->diagnostics.timings; }
const Real* World::positions() const { return impl_->particles.x.data(); }
const Real* World::velocities() const { return impl_->particles.v.data(); }
const Real* World::inverseMasses() const { return impl_->particles.w.data(); }
uint32_t World::particleCount() const { return impl_->count(); }
uint32_t World::distanceConstraintCount() const { return uint32_t(impl_->constraints.distances.size()); }
uint32_t World::constraintCount() const {
  return uint32_t(impl_->constraints.distances.size() + impl_->constraints.dihedrals.size() +
                  impl_->constraints.volumes.size() + impl_->constraints.tethers.size() +
                  impl_->constraints.neoHookeans.size() + impl_->constraints.surfaceVolumes.size() +
                  impl_->constraints.triangleStrains.size() + impl_->constraints.shapeMatchings.size() +
                  impl_->constraints.attachments.size() - impl_->constraints.freeAttachments.size() +
                  impl_->constraints.skinned.size() + impl_->rods.segments.size() + impl_->rods.joints.size());
}
uint32_t World::neoHookeanCount() const { return uint32_t(impl_->constraints.neoHookeans.size()); }
uint32_t World::surfaceVolumeCount() const { return uint32_t(impl_->constraints.surfaceVolumes.size()); }
Real World::surfaceVolume(uint32_t k) const {
  check::index("surfaceVolume", "k", k, impl_->constraints.surfaceVolumes.size());
  const SurfaceVolumeConstraint& g = impl_->constraints.surfaceVolumes[k];
  return pbd::surfaceVolume(
      {impl_->constraints.surfaceVertices.data() + g.firstVertex, g.vertexCount},
      {impl_->constraints.surfaceTriangles.data() + 3 * size_t(g.firstTriangle), 3 * size_t(g.triangleCount)},
      asVec3(impl_->particles.x));
}
Real World::surfaceRestVolume(uint32_t k) const {
  check::index("surfaceRestVolume", "k", k, impl_->constraints.surfaceVolumes.size());
  return impl_->constraints.surfaceVolumes[k].restVolume;
}
uint32_t World::tetherCount() const { return uint32_t(impl_->constraints.tethers.size()); }
uint32_t World::contactCount() const { return uint32_t(impl_->collision.contacts.size()); }

}  // namespace pbd
