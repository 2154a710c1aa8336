// Builders of the grid bodies: the rectangular cloth and the rope.
#include <algorithm>

#include "pbd/world.h"
#include "bodies/body_builders.h"
#include "bodies/builder_common.h"
#include "base/checks.h"

namespace pbd {


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
  checkStrength(fn, "stretch", def.stretch);
  checkStrength(fn, "shear", def.shear);
  checkStrength(fn, "bend", def.bend);
  const bool strainTriangles = usesStrainTriangles(fn, def.model);
  if (def.bendModel != BendModel::SkipOne && def.bendModel != BendModel::Dihedral) {
    check::fail(fn, "bendModel", "is unknown", int(def.bendModel));
  }
  checkTethers(fn, def.tethers, def.tetherSlack);
  // The far corner and the inverse masses must fit in a Real, not only the arguments.
  const Real farthest = def.origin.cwiseAbs().maxCoeff();
  check::derivedFinite(fn, "spacing", "puts the far corner of the cloth out of float range",
                       double(farthest) + 2 * double(def.spacing) * double(std::max(def.columns, def.rows)), def.spacing);
  check::derivedInverseMass(fn, "mass", double(count) / double(def.mass), def.mass);

  const uint32_t C = uint32_t(def.columns), R = uint32_t(def.rows);
  BodyBlueprint b;
  b.positions.resize(3 * count);
  for (uint32_t r = 0; r < R; ++r) {
    for (uint32_t c = 0; c < C; ++c) {
      const Vec3 x = def.origin + (Real(c) * def.spacing) * u + (Real(r) * def.spacing) * v;
      for (int a = 0; a < 3; ++a) b.positions[3 * (r * C + c) + a] = x[a];
    }
  }
  const std::vector<uint32_t> pins = resolvePins(fn, def.pinned, def.pinRegions, b.positions);
  if (def.tethers != TetherMode::None && pins.empty()) {
    check::fail(fn, "tethers", "need at least one pinned particle (pinned and pinRegions catch none)", 0);
  }
  spreadMass(b, count, def.mass, pins);
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
          if (((dc ? c : r) / e.span) % 2 == set) addLink(b, id(c + e.c0, r + e.r0), id(c + e.c1, r + e.r1), s);
        }
      }
    }
  };
  family({0, 0, 1, 0, 1}, def.stretch);  // horizontal
  family({0, 0, 0, 1, 1}, def.stretch);  // vertical
  family({0, 0, 1, 1, 1}, def.shear);    // diagonal
  family({1, 0, 0, 1, 1}, def.shear);    // anti-diagonal
  const size_t edgeCount = b.constraints.size();
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
  b.triangles.reserve(6 * size_t(C - 1) * (R - 1));
  for (uint32_t r = 0; r + 1 < R; ++r) {
    for (uint32_t c = 0; c + 1 < C; ++c) {
      b.triangles.insert(b.triangles.end(), {id(c, r), id(c + 1, r), id(c, r + 1)});
      b.triangles.insert(b.triangles.end(), {id(c + 1, r), id(c + 1, r + 1), id(c, r + 1)});
    }
  }
  if (strainTriangles) {
    // The stretch and shear edges were built all the same: geodesic tethers walk them. The strain triangles
    // replace them in the solve.
    b.constraints.erase(b.constraints.begin(), b.constraints.begin() + std::ptrdiff_t(edgeCount));
    addStrainTriangles(fn, b, b.triangles, u, def.stretch, def.shear);  // warp along axisU: C_xx is along the columns
  }
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
  check::derivedFinite(fn, "end", "is too far from start (|end - start| overflows float)",
                       double((def.end - def.start).norm()), (def.end - def.start).norm());
  check::derivedInverseMass(fn, "mass", double(count) / double(def.mass), def.mass);
  checkStrength(fn, "stretch", def.stretch);
  checkStrength(fn, "bend", def.bend);

  BodyBlueprint b;
  b.positions.resize(3 * size_t(count));
  for (uint32_t k = 0; k < count; ++k) {
    const Vec3 x = def.start + (Real(k) / Real(def.segments)) * (def.end - def.start);
    for (int a = 0; a < 3; ++a) b.positions[3 * k + a] = x[a];
  }
  spreadMass(b, count, def.mass, resolvePins(fn, def.pinned, def.pinRegions, b.positions));
  b.constraints.reserve(2 * size_t(count));
  for (uint32_t k = 0; k + 1 < count; ++k) addLink(b, k, k + 1, def.stretch);
  for (uint32_t k = 0; k + 2 < count; ++k) addLink(b, k, k + 2, def.bend);
  return b;
}

}  // namespace pbd
