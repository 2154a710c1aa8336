#include "collision/mesh_collider.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/surface_topology.h"

namespace pbd {

namespace {

std::vector<Point3d> toPoints(std::span<const Real> xyz) {
  std::vector<Point3d> v(xyz.size() / 3);
  for (size_t i = 0; i < v.size(); ++i) v[i] = Point3d(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  return v;
}

/// Below this fraction of the mesh's size a length counts as zero (a particle exactly on the surface).
constexpr double kTiny = 1e-9;

}  // namespace

MeshShape::MeshShape(std::span<const Real> positions, std::span<const uint32_t> triangles)
    : surface(toPoints(positions), std::vector<uint32_t>(triangles.begin(), triangles.end())),
      closed(!mesh::firstEdgeDefect(triangles)),
      outward(closed && mesh::closedSurfaceVolume(positions, triangles) < 0 ? -1 : 1) {}

bool MeshShape::contains(const Point3d& q) const { return closed && outward * surface.windingNumber(q) >= 0.5; }

Point3d MeshShape::normalTowards(uint32_t t, const Point3d& from, const Point3d& to, const Point3d& onSurface) const {
  const Point3d n = surface.bvh().areaNormal(t).normalized();
  const auto& root = surface.bvh().nodes()[0];
  const double tiny = kTiny * (root.hi - root.lo).norm();
  const double side = n.dot(from - onSurface);
  if (side > tiny) return n;
  if (side < -tiny) return -n;
  // `from` lies on the triangle's plane: the side it moves away from is where it belongs.
  const double motion = n.dot(to - from);
  if (motion != 0) return motion < 0 ? n : Point3d(-n);
  return outward * n;
}

std::optional<MeshContactPlane> MeshShape::crossingPlane(const Point3d& a, const Point3d& b) const {
  const TriangleBvh::Hit hit = surface.bvh().firstHit(a, b);
  if (hit.triangle == TriangleBvh::kNone) return std::nullopt;
  return MeshContactPlane{hit.point, normalTowards(hit.triangle, a, b, hit.point)};
}

std::optional<MeshContactPlane> MeshShape::contactPlane(const Point3d& a, const Point3d& b, bool startsInside,
                                                        double thickness, double& clearance) const {
  const TriangleBvh& bvh = surface.bvh();
  const auto& root = bvh.nodes()[0];
  const double tiny = kTiny * (root.hi - root.lo).norm();
  clearance = 0;
  if (startsInside) {  // case 1: out by the shortest way
    const TriangleBvh::Closest c = bvh.closestPoint(b, std::numeric_limits<double>::infinity());
    const Point3d away = b - c.point;
    if (c.distance > tiny) return MeshContactPlane{c.point, contains(b) ? Point3d(-away / c.distance) : Point3d(away / c.distance)};
    return MeshContactPlane{c.point, outward * bvh.areaNormal(c.triangle).normalized()};
  }
  // The distance is 1-Lipschitz: if b is farther from the surface than from a, the path a→b crosses nothing and
  // the segment test (case 2) can be skipped. That is the common case (a particle resting or moving slowly), and
  // one nearest-point query then answers case 3 too.
  // The wider cap finds the same nearest point whenever the needed one would (ties to the lowest index), and a
  // farther one changes no test below: both are >= thickness and > travel + tiny.
  const double travel = (b - a).norm();
  const double cap = kClearanceReach * std::max(thickness, travel + tiny);
  const TriangleBvh::Closest c = bvh.closestPoint(b, cap);
  clearance = c.triangle == TriangleBvh::kNone ? cap : c.distance;
  if (!(c.distance > travel + tiny)) {
    if (std::optional<MeshContactPlane> entry = crossingPlane(a, b)) return entry;  // case 2: the first entry point
  }
  if (c.triangle == TriangleBvh::kNone || !(c.distance < thickness)) return std::nullopt;  // case 3: within it
  if (c.distance > tiny) return MeshContactPlane{c.point, (b - c.point) / c.distance};
  return MeshContactPlane{c.point, normalTowards(c.triangle, a, b, c.point)};
}

std::optional<MeshContactPlane> MeshShape::particleContactPlane(uint32_t i, const Point3d& a, const Point3d& b,
                                                                bool startsInside, double thickness) {
  if (!startsInside && clearance[i] > 0) {
    const auto& root = surface.bvh().nodes()[0];
    const double tiny = kTiny * (root.hi - root.lo).norm();
    // contactPlane finds a plane only if b is within max(thickness, travel + tiny) of the surface; `tiny` more
    // covers the rounding of the cached distance.
    const double needed = std::max(thickness, (b - a).norm() + tiny) + tiny;
    if (clearance[i] - (b - clearanceFrom[i]).norm() > needed) return std::nullopt;
  }
  double learned;
  std::optional<MeshContactPlane> plane = contactPlane(a, b, startsInside, thickness, learned);
  clearance[i] = learned;
  clearanceFrom[i] = b;
  return plane;
}

void MeshShape::resizeParticles(size_t particles) {
  inside.resize(particles, 0);
  clearance.resize(particles, 0);
  clearanceFrom.resize(particles, Point3d::Zero());
  firstPlane.resize(particles);
}

void MeshShape::forgetClearances() { std::fill(clearance.begin(), clearance.end(), 0.0); }

}  // namespace pbd
