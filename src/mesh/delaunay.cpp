// Bowyer–Watson insertion with ghost tets, exact predicates, BRIO/Hilbert order and a visibility walk.
// Why the cavity is always valid here: in a Delaunay tetrahedralization, the tets whose circumsphere strictly
// contains p form a star-shaped region whose boundary faces are all strictly visible from p (for a boundary face
// shared by conflict tet t and non-conflict tet u, the two spheres meet in the face's circumcircle, and the part of
// sphere(t) on u's side of the face plane lies inside sphere(u); so p is strictly on t's side). With exact
// predicates this holds exactly; the "grow the cavity" step below is a safety net that is counted in the stats.
#include "mesh/delaunay.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "math/hilbert.h"
#include "pbd/errors.h"

namespace pbd::mesh {

Lattice Lattice::fit(std::span<const Real> xyz) {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (size_t i = 0; i + 2 < xyz.size(); i += 3) {
    for (int a = 0; a < 3; ++a) {
      const double v = xyz[i + a];
      if (i == 0 || v < lo[a]) lo[a] = v;
      if (i == 0 || v > hi[a]) hi[a] = v;
    }
  }
  Lattice l;
  double extent = 0;
  for (int a = 0; a < 3; ++a) {
    l.origin[a] = lo[a];
    extent = std::max(extent, hi[a] - lo[a]);
  }
  l.scale = extent > 0 ? double(int64_t(1) << kBits) / extent : 1.0;
  return l;
}

LatticePoint Lattice::operator()(double x, double y, double z) const {
  // The product stays within [0, 2^20] up to rounding; clamp so the predicate bounds always hold.
  auto q = [&](double v, int a) {
    const double s = std::round((v - origin[a]) * scale);
    return int64_t(std::clamp(s, 0.0, double(int64_t(1) << kBits)));
  };
  return {q(x, 0), q(y, 1), q(z, 2)};
}

namespace {

// Vertex slots of the face opposite slot i, ordered so that its right-hand normal points out of a positive tet.
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

struct Tet {
  int32_t v[4];  ///< Vertices; `inf` (= point count) is the vertex at infinity of a ghost tet. v[0] < 0: free slot.
  int32_t n[4];  ///< n[i]: the tet across the face opposite v[i].
};

/// BRIO (biased randomized insertion order): shuffle, then split into rounds of doubling size (the last round holds
/// about half the points), each round sorted along a Hilbert curve. Deterministic (fixed seed, raw mt19937 bits).
std::vector<uint32_t> brioOrder(std::span<const LatticePoint> pts) {
  const size_t n = pts.size();
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = uint32_t(i);
  std::mt19937 rng(20240601u);
  for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  int64_t lo[3] = {pts[0].x, pts[0].y, pts[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
  for (const LatticePoint& p : pts) {
    const int64_t c[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], c[a]), hi[a] = std::max(hi[a], c[a]);
  }
  int64_t extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], int64_t(1)});
  int shift = 0;
  while ((extent >> shift) >= (int64_t(1) << 21)) ++shift;  // 21 bits per axis: a 63-bit key
  std::vector<uint64_t> key(n);
  for (size_t i = 0; i < n; ++i) {
    const LatticePoint& p = pts[i];
    key[i] = hilbertIndex3(uint32_t((p.x - lo[0]) >> shift), uint32_t((p.y - lo[1]) >> shift),
                        uint32_t((p.z - lo[2]) >> shift), 21);
  }
  // Round boundaries from the end: [n/2, n), [n/4, n/2), ... down to a first round of at most 64 points.
  std::vector<size_t> cuts{n};
  for (size_t c = n / 2; c > 64; c /= 2) cuts.push_back(c);
  cuts.push_back(0);
  for (size_t r = 0; r + 1 < cuts.size(); ++r) {
    std::sort(order.begin() + long(cuts[r + 1]), order.begin() + long(cuts[r]),
              [&](uint32_t a, uint32_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  }
  return order;
}

class Builder {
 public:
  Builder(std::span<const LatticePoint> points, DelaunayStats& stats)
      : P_(points), inf_(int32_t(points.size())), stats_(stats) {}

  TetMesh run(const std::function<void(double)>& onProgress) {
    const std::vector<uint32_t> order = brioOrder(P_);
    const size_t n = order.size();
    // The first tet: the first point, then the next points that are not collinear / not coplanar with it.
    size_t i1 = 1, i2 = 0, i3 = 0;
    const LatticePoint& a = P_[order[0]];
    const LatticePoint& b = P_[order[i1]];
    for (size_t k = 2; k < n && !i2; ++k) {
      const LatticePoint& c = P_[order[k]];
      const int64_t ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z, vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
      if (uy * vz - uz * vy != 0 || uz * vx - ux * vz != 0 || ux * vy - uy * vx != 0) i2 = k;
    }
    for (size_t k = i2 + 1; i2 && k < n && !i3; ++k)
      if (orient3d(a, b, P_[order[i2]], P_[order[k]]) != 0) i3 = k;
    if (!i3) {
      std::ostringstream s;
      s << "delaunay: points are all coplanar, no tetrahedron exists (got " << n << " points)";
      throw InvalidArgument(s.str());
    }
    start(order[0], order[i1], order[i2], order[i3]);
    size_t done = 4;
    for (size_t k = 1; k < n; ++k) {
      if (k == i1 || k == i2 || k == i3) continue;
      insert(int32_t(order[k]));
      if (onProgress && (++done & 255) == 0) onProgress(double(done) / double(n));
    }
    if (onProgress) onProgress(1.0);
    // Number the finite tets in storage order; ghosts become -1 neighbours.
    std::vector<int32_t> id(tets_.size(), -1);
    TetMesh out;
    for (size_t t = 0; t < tets_.size(); ++t) {
      const Tet& T = tets_[t];
      if (T.v[0] < 0 || isGhost(T)) continue;
      id[t] = int32_t(out.tets.size());
      out.tets.push_back({uint32_t(T.v[0]), uint32_t(T.v[1]), uint32_t(T.v[2]), uint32_t(T.v[3])});
    }
    out.neighbors.reserve(out.tets.size());
    for (size_t t = 0; t < tets_.size(); ++t) {
      if (id[t] < 0) continue;
      const Tet& T = tets_[t];
      out.neighbors.push_back({id[T.n[0]], id[T.n[1]], id[T.n[2]], id[T.n[3]]});
    }
    return out;
  }

 private:
  bool isGhost(const Tet& t) const { return t.v[0] == inf_ || t.v[1] == inf_ || t.v[2] == inf_ || t.v[3] == inf_; }
  int infSlot(const Tet& t) const {
    for (int i = 0; i < 4; ++i)
      if (t.v[i] == inf_) return i;
    return -1;
  }

  /// orient3d of t with its vertex in `slot` replaced by point p; every other vertex must be finite.
  int orientReplaced(const Tet& t, int slot, int32_t p) const {
    const LatticePoint* q[4];
    for (int i = 0; i < 4; ++i) q[i] = &P_[i == slot ? p : t.v[i]];
    return orient3d(*q[0], *q[1], *q[2], *q[3]);
  }

  /// Is p strictly inside t's circumsphere (finite t), or strictly beyond / on-plane-inside-the-circumcircle of t's
  /// hull face (ghost t)?
  bool conflict(int32_t ti, int32_t p) const {
    const Tet& t = tets_[ti];
    const int k = infSlot(t);
    if (k < 0) return insphere(P_[t.v[0]], P_[t.v[1]], P_[t.v[2]], P_[t.v[3]], P_[p]) > 0;
    // Replacing the vertex at infinity by p gives a positive tet exactly when p is beyond the hull face.
    const int o = orientReplaced(t, k, p);
    if (o != 0) return o > 0;
    // p on the face plane: the plane cuts the finite neighbour's circumsphere in the face's circumcircle.
    const Tet& u = tets_[t.n[k]];
    return insphere(P_[u.v[0]], P_[u.v[1]], P_[u.v[2]], P_[u.v[3]], P_[p]) > 0;
  }

  int32_t alloc() {
    if (!free_.empty()) {
      const int32_t t = free_.back();
      free_.pop_back();
      return t;
    }
    tets_.push_back({});
    in_.push_back(0);
    out_.push_back(0);
    return int32_t(tets_.size() - 1);
  }

  void start(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    if (orient3d(P_[a], P_[b], P_[c], P_[d]) < 0) std::swap(c, d);
    const int32_t t0 = alloc();
    tets_[t0] = {{int32_t(a), int32_t(b), int32_t(c), int32_t(d)}, {-1, -1, -1, -1}};
    for (int i = 0; i < 4; ++i) {  // a ghost on each face: the face (outward) and the vertex at infinity
      const int32_t g = alloc();
      const Tet& t = tets_[t0];
      tets_[g] = {{t.v[kFace[i][0]], t.v[kFace[i][1]], t.v[kFace[i][2]], inf_}, {-1, -1, -1, t0}};
      tets_[t0].n[i] = g;
    }
    // Ghost–ghost adjacency: the two ghosts sharing a tet edge.
    for (int32_t g = 1; g <= 4; ++g) {
      for (int s = 0; s < 3; ++s) {
        const int32_t e0 = tets_[g].v[(s + 1) % 3], e1 = tets_[g].v[(s + 2) % 3];
        for (int32_t h = 1; h <= 4; ++h) {
          if (h == g) continue;
          int hits = 0;
          for (int r = 0; r < 3; ++r) hits += tets_[h].v[r] == e0 || tets_[h].v[r] == e1;
          if (hits == 2) tets_[g].n[s] = h;
        }
      }
    }
    last_ = t0;
  }

  [[noreturn]] void duplicate(int32_t p, int32_t q) const {
    std::ostringstream s;
    s << "delaunay: points[" << std::min(p, q) << "] and points[" << std::max(p, q) << "] coincide (got ("
      << P_[p].x << ", " << P_[p].y << ", " << P_[p].z << "))";
    throw InvalidArgument(s.str());
  }

  void checkDuplicate(const Tet& t, int32_t p) const {
    for (int i = 0; i < 4; ++i)
      if (t.v[i] != inf_ && P_[t.v[i]] == P_[p]) duplicate(p, t.v[i]);
  }

  /// Any tet in conflict with p, by scanning all of them.
  int32_t scan(int32_t p) const {
    for (const Tet& t : tets_)
      if (t.v[0] >= 0) checkDuplicate(t, p);
    for (int32_t t = 0; t < int32_t(tets_.size()); ++t)
      if (tets_[t].v[0] >= 0 && conflict(t, p)) return t;
    throw std::logic_error("delaunay: no tet in conflict with an inserted point");
  }

  /// Stochastic visibility walk: step through a face that has p strictly on its outer side, starting with a random
  /// face so that the walk cannot cycle. Ends in the (closed) tet containing p, or a ghost whose face p is beyond.
  int32_t locate(int32_t p) {
    int32_t t = last_;
    if (const int k = infSlot(tets_[t]); k >= 0) t = tets_[t].n[k];
    const size_t limit = 64 + tets_.size();
    for (size_t step = 0; step < limit; ++step) {
      ++stats_.walkSteps;
      const Tet& T = tets_[t];
      rng_ ^= rng_ << 13, rng_ ^= rng_ >> 17, rng_ ^= rng_ << 5;  // xorshift32
      const int r = int(rng_ & 3);
      int32_t next = -1;
      for (int j = 0; j < 4 && next < 0; ++j) {
        const int i = (r + j) & 3;
        if (orientReplaced(T, i, p) < 0) next = T.n[i];
      }
      if (next < 0) {
        checkDuplicate(T, p);
        return t;
      }
      t = next;
      if (isGhost(tets_[t])) return t;
    }
    ++stats_.walkFallbacks;
    return scan(p);
  }

  struct BoundaryFace {
    int32_t v[3];  ///< Face of a cavity tet, outward from the cavity.
    int32_t outer;  ///< The tet beyond it (kept).
    int outerSlot;  ///< Slot of `outer` whose neighbour was the cavity tet.
  };

  void insert(int32_t p) {
    int32_t t0 = locate(p);
    if (!conflict(t0, p)) t0 = scan(p);
    if (++epoch_ == 0) {  // stamp wrap-around: clear the marks
      std::fill(in_.begin(), in_.end(), 0);
      std::fill(out_.begin(), out_.end(), 0);
      epoch_ = 1;
    }
    // The cavity: every tet connected to t0 whose circumsphere strictly contains p.
    cavity_.assign(1, t0);
    in_[t0] = epoch_;
    for (size_t k = 0; k < cavity_.size(); ++k) {
      for (int i = 0; i < 4; ++i) {
        const int32_t u = tets_[cavity_[k]].n[i];
        if (in_[u] == epoch_ || out_[u] == epoch_) continue;
        if (conflict(u, p)) {
          in_[u] = epoch_;
          cavity_.push_back(u);
        } else {
          out_[u] = epoch_;
        }
      }
    }
    // Its boundary; a finite face that p does not see strictly (new tet would be flat or inverted) pulls the tet
    // behind it into the cavity.
    for (bool grown = true; grown;) {
      grown = false;
      faces_.clear();
      for (size_t k = 0; k < cavity_.size() && !grown; ++k) {
        const int32_t t = cavity_[k];
        for (int i = 0; i < 4 && !grown; ++i) {
          const int32_t u = tets_[t].n[i];
          if (in_[u] == epoch_) continue;
          BoundaryFace f;
          for (int j = 0; j < 3; ++j) f.v[j] = tets_[t].v[kFace[i][j]];
          if (f.v[0] != inf_ && f.v[1] != inf_ && f.v[2] != inf_ && orient3d(P_[p], P_[f.v[0]], P_[f.v[1]], P_[f.v[2]]) <= 0) {
            in_[u] = epoch_;
            cavity_.push_back(u);
            ++stats_.cavityGrowths;
            grown = true;
            break;
          }
          f.outer = u;
          f.outerSlot = 0;
          while (tets_[u].n[f.outerSlot] != t) ++f.outerSlot;
          faces_.push_back(f);
        }
      }
    }
    for (const int32_t t : cavity_) {
      tets_[t].v[0] = -1;
      free_.push_back(t);
    }
    // One new tet (p, face) per boundary face; then pair the new tets across the faces that contain p, which are
    // keyed by the edge opposite p (each such edge is on exactly two boundary faces: the cavity is a ball).
    links_.clear();
    for (const BoundaryFace& f : faces_) {
      const int32_t nt = alloc();
      tets_[nt] = {{p, f.v[0], f.v[1], f.v[2]}, {f.outer, -1, -1, -1}};
      tets_[f.outer].n[f.outerSlot] = nt;
      for (int s = 1; s < 4; ++s) {
        const int32_t e0 = f.v[s % 3], e1 = f.v[(s + 1) % 3];  // the two face vertices other than slot s
        const uint64_t key = (uint64_t(uint32_t(std::min(e0, e1))) << 32) | uint32_t(std::max(e0, e1));
        links_.push_back({key, nt, s});
      }
      if (f.v[0] != inf_ && f.v[1] != inf_ && f.v[2] != inf_) last_ = nt;
    }
    std::sort(links_.begin(), links_.end(), [](const Link& a, const Link& b) { return a.key < b.key; });
    for (size_t k = 0; k < links_.size(); k += 2) {
      if (k + 1 >= links_.size() || links_[k].key != links_[k + 1].key)
        throw std::logic_error("delaunay: cavity boundary is not a closed surface");
      tets_[links_[k].tet].n[links_[k].slot] = links_[k + 1].tet;
      tets_[links_[k + 1].tet].n[links_[k + 1].slot] = links_[k].tet;
    }
  }

  struct Link {
    uint64_t key;
    int32_t tet;
    int slot;
  };

  std::span<const LatticePoint> P_;
  int32_t inf_;
  DelaunayStats& stats_;
  std::vector<Tet> tets_;
  std::vector<int32_t> free_;
  std::vector<uint32_t> in_, out_;  // cavity membership stamps
  uint32_t epoch_ = 0;
  int32_t last_ = 0;
  uint32_t rng_ = 2463534242u;
  std::vector<int32_t> cavity_;
  std::vector<BoundaryFace> faces_;
  std::vector<Link> links_;
};

}  // namespace

TetMesh delaunay(std::span<const LatticePoint> points, const std::function<void(double)>& onProgress,
                 DelaunayStats* stats) {
  if (points.size() < 4) {
    std::ostringstream s;
    s << "delaunay: points must hold at least 4 points (got " << points.size() << ')';
    throw InvalidArgument(s.str());
  }
  if (points.size() >= size_t(INT32_MAX)) throw InvalidArgument("delaunay: points has too many points");
  for (size_t i = 0; i < points.size(); ++i) {
    const LatticePoint& p = points[i];
    if (std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) > kLatticeLimit) {
      std::ostringstream s;
      s << "delaunay: points[" << i << "] is outside the lattice [-2^20, 2^20]^3 (got (" << p.x << ", " << p.y
        << ", " << p.z << "))";
      throw InvalidArgument(s.str());
    }
  }
  // Duplicates: sort the indices by position and compare neighbours.
  std::vector<uint32_t> byPos(points.size());
  for (size_t i = 0; i < points.size(); ++i) byPos[i] = uint32_t(i);
  auto less = [&](uint32_t a, uint32_t b) {
    const LatticePoint &p = points[a], &q = points[b];
    return std::tie(p.x, p.y, p.z, a) < std::tie(q.x, q.y, q.z, b);
  };
  std::sort(byPos.begin(), byPos.end(), less);
  for (size_t i = 1; i < byPos.size(); ++i) {
    if (points[byPos[i]] == points[byPos[i - 1]]) {
      std::ostringstream s;
      const LatticePoint& p = points[byPos[i]];
      s << "delaunay: points[" << byPos[i - 1] << "] and points[" << byPos[i] << "] coincide (got (" << p.x << ", "
        << p.y << ", " << p.z << "))";
      throw InvalidArgument(s.str());
    }
  }
  DelaunayStats local;
  Builder b(points, stats ? *stats : local);
  return b.run(onProgress);
}

}  // namespace pbd::mesh
