// Building the hierarchy of Müller 2008 (see hierarchy.h for the rules) and its pre-pass.
#include "solvers/hierarchy.h"

#include <algorithm>
#include <cmath>

#include "constraints/multiplier.h"

namespace pbd {
namespace {

/// An undirected edge of one level's graph between local nodes a < b, with the strength it stands for.
struct Edge {
  uint32_t a, b;    ///< Local node indices, a < b.
  Real compliance;  ///< XPBD α, m/N: the smallest of the constraints it summarizes.
  Real stiffness;   ///< PBD k: the largest of them.
};

/// One level's graph: world index per node, deduplicated edges, and CSR adjacency.
struct LevelGraph {
  std::vector<uint32_t> nodes;     ///< World index of each local node, ascending.
  std::vector<Edge> edges;         ///< Sorted by (a, b), unique.
  std::vector<uint32_t> begin;     ///< Node n's neighbours are [begin[n], begin[n+1]) of `neighbour`/`edgeOf`.
  std::vector<uint32_t> neighbour; ///< Local node indices.
  std::vector<uint32_t> edgeOf;    ///< Index into `edges` of the edge to that neighbour.

  uint32_t degree(uint32_t n) const { return begin[n + 1] - begin[n]; }
};

/// Sorts edges by (a, b) and merges duplicates: min compliance, max stiffness (the strongest one wins).
void mergeEdges(std::vector<Edge>& edges) {
  std::sort(edges.begin(), edges.end(), [](const Edge& l, const Edge& r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
  size_t out = 0;
  for (size_t k = 0; k < edges.size(); ++k) {
    if (out > 0 && edges[out - 1].a == edges[k].a && edges[out - 1].b == edges[k].b) {
      edges[out - 1].compliance = std::min(edges[out - 1].compliance, edges[k].compliance);
      edges[out - 1].stiffness = std::max(edges[out - 1].stiffness, edges[k].stiffness);
    } else {
      edges[out++] = edges[k];
    }
  }
  edges.resize(out);
}

/// Fills the CSR adjacency from g.nodes and g.edges (neighbours in edge order, hence deterministic).
void buildAdjacency(LevelGraph& g) {
  const size_t n = g.nodes.size();
  g.begin.assign(n + 1, 0);
  for (const Edge& e : g.edges) ++g.begin[e.a + 1], ++g.begin[e.b + 1];
  for (size_t k = 0; k < n; ++k) g.begin[k + 1] += g.begin[k];
  g.neighbour.resize(2 * g.edges.size());
  g.edgeOf.resize(2 * g.edges.size());
  std::vector<uint32_t> next(g.begin.begin(), g.begin.end() - 1);
  for (uint32_t k = 0; k < g.edges.size(); ++k) {
    const Edge& e = g.edges[k];
    g.neighbour[next[e.a]] = e.b, g.edgeOf[next[e.a]++] = k;
    g.neighbour[next[e.b]] = e.a, g.edgeOf[next[e.b]++] = k;
  }
}

/// Level 0: every particle, and one edge per pair of particles joined by any distance constraint.
LevelGraph finestGraph(const DistanceConstraint* cs, size_t count, uint32_t particleCount) {
  LevelGraph g;
  g.nodes.resize(particleCount);
  for (uint32_t i = 0; i < particleCount; ++i) g.nodes[i] = i;
  g.edges.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const DistanceConstraint& d = cs[k];
    g.edges.push_back({std::min(d.i, d.j), std::max(d.i, d.j), d.compliance, d.stiffness});
  }
  mergeEdges(g.edges);
  buildAdjacency(g);
  return g;
}

/// The greedy choice of hierarchy.h: returns 1 per kept node. Every dropped node with neighbours keeps at least
/// min(k, degree) kept neighbours; pinned nodes with neighbours are kept; isolated nodes are dropped.
std::vector<char> chooseKept(const LevelGraph& g, const Real* w, uint32_t k) {
  const uint32_t n = uint32_t(g.nodes.size());
  std::vector<char> kept(n, 1);
  std::vector<uint32_t> keptNeighbours(n);
  for (uint32_t i = 0; i < n; ++i) keptNeighbours[i] = g.degree(i);
  auto need = [&](uint32_t i) { return std::min(k, g.degree(i)); };
  for (uint32_t i = 0; i < n; ++i) {
    if (g.degree(i) == 0) {
      kept[i] = 0;
      continue;
    }
    if (w[g.nodes[i]] == 0 || keptNeighbours[i] < need(i)) continue;
    bool allStillServed = true;  // dropping i takes one parent from each of its dropped neighbours
    for (uint32_t e = g.begin[i]; e < g.begin[i + 1] && allStillServed; ++e) {
      const uint32_t j = g.neighbour[e];
      allStillServed = kept[j] || keptNeighbours[j] > need(j);
    }
    if (!allStillServed) continue;
    kept[i] = 0;
    for (uint32_t e = g.begin[i]; e < g.begin[i + 1]; ++e) --keptNeighbours[g.neighbour[e]];
  }
  return kept;
}

/// |restX_a - restX_b| with the distance kernel's exact operations, so that a coarse constraint is exactly
/// satisfied (C = 0, no correction) when its particles sit at their rest positions.
Real restDistance(const Real* X, uint32_t a, uint32_t b) {
  const Real dx = X[3 * a] - X[3 * b], dy = X[3 * a + 1] - X[3 * b + 1], dz = X[3 * a + 2] - X[3 * b + 2];
  return std::sqrt((dx * dx + dy * dy) + dz * dz);
}

/// The prolongation of the dropped nodes of `fine` to their kept neighbours (`coarseIndex`: local index on the
/// coarse level, or ~0u if dropped). Weights ∝ 1 / rest distance, normalized to sum 1.
void buildProlongation(const LevelGraph& fine, const std::vector<char>& kept, const std::vector<uint32_t>& coarseIndex,
                       const Real* X, HierarchyLevel& level) {
  level.parentBegin.assign(1, 0);
  for (uint32_t f = 0; f < fine.nodes.size(); ++f) {
    if (kept[f] || fine.degree(f) == 0) continue;
    const size_t first = level.parents.size();
    double sum = 0;
    for (uint32_t e = fine.begin[f]; e < fine.begin[f + 1]; ++e) {
      const uint32_t q = fine.neighbour[e];
      if (!kept[q]) continue;
      // The floor keeps coincident rest positions (welded duplicates) finite; such a parent then dominates.
      const double inverse = 1.0 / std::max(double(restDistance(X, fine.nodes[f], fine.nodes[q])), 1e-9);
      level.parents.push_back(coarseIndex[q]);
      level.weights.push_back(Real(inverse));
      sum += inverse;
    }
    for (size_t k = first; k < level.weights.size(); ++k) level.weights[k] = Real(double(level.weights[k]) / sum);
    level.children.push_back(fine.nodes[f]);
    level.parentBegin.push_back(uint32_t(level.parents.size()));
  }
}

/// The coarse graph's edges: kept neighbours keep their edge; two kept neighbours of a dropped node get one that
/// summarizes both edges to it.
std::vector<Edge> coarseEdges(const LevelGraph& fine, const std::vector<char>& kept,
                              const std::vector<uint32_t>& coarseIndex) {
  std::vector<Edge> edges;
  for (const Edge& e : fine.edges) {
    if (kept[e.a] && kept[e.b]) edges.push_back({coarseIndex[e.a], coarseIndex[e.b], e.compliance, e.stiffness});
  }
  for (uint32_t f = 0; f < fine.nodes.size(); ++f) {
    if (kept[f]) continue;
    for (uint32_t s = fine.begin[f]; s < fine.begin[f + 1]; ++s) {
      if (!kept[fine.neighbour[s]]) continue;
      const Edge& es = fine.edges[fine.edgeOf[s]];
      for (uint32_t t = s + 1; t < fine.begin[f + 1]; ++t) {
        if (!kept[fine.neighbour[t]]) continue;
        const Edge& et = fine.edges[fine.edgeOf[t]];
        const uint32_t a = coarseIndex[fine.neighbour[s]], b = coarseIndex[fine.neighbour[t]];
        edges.push_back({std::min(a, b), std::max(a, b), std::min(es.compliance, et.compliance),
                         std::max(es.stiffness, et.stiffness)});
      }
    }
  }
  mergeEdges(edges);
  return edges;
}

}  // namespace

void Hierarchy::build(const DistanceConstraint* cs, size_t count, const Real* restXyz, const Real* inverseMasses,
                      uint32_t particleCount, const HierarchyParams& params) {
  coarse_.clear();
  params_ = params;
  refusedKept_ = refusedFrom_ = 0;
  lumpedInverse_.assign(particleCount, 0);
  LevelGraph fine = finestGraph(cs, count, particleCount);
  for (int l = 1; l < params.levels; ++l) {
    const std::vector<char> kept = chooseKept(fine, inverseMasses, uint32_t(params.parents));
    LevelGraph coarse;
    std::vector<uint32_t> coarseIndex(fine.nodes.size(), ~0u);
    for (uint32_t n = 0; n < fine.nodes.size(); ++n) {
      if (kept[n]) coarseIndex[n] = uint32_t(coarse.nodes.size()), coarse.nodes.push_back(fine.nodes[n]);
    }
    if (coarse.nodes.size() < kMinCoarseParticles || coarse.nodes.size() == fine.nodes.size()) {
      refusedKept_ = coarse.nodes.size(), refusedFrom_ = fine.nodes.size();
      break;
    }
    HierarchyLevel level;
    buildProlongation(fine, kept, coarseIndex, restXyz, level);
    coarse.edges = coarseEdges(fine, kept, coarseIndex);
    buildAdjacency(coarse);
    level.particles = coarse.nodes;
    level.start.resize(coarse.nodes.size());
    level.lumpedMass.resize(coarse.nodes.size());
    for (const Edge& e : coarse.edges) {
      const uint32_t i = coarse.nodes[e.a], j = coarse.nodes[e.b];
      level.constraints.push_back({i, j, 0, restDistance(restXyz, i, j), e.compliance, e.stiffness,
                                   correctedStiffness(e.stiffness, params.coarseIterations)});
    }
    level.lambda.assign(level.constraints.size(), 0);
    coarse_.push_back(std::move(level));
    fine = std::move(coarse);
  }
  dirty = false;
}

void Hierarchy::solve(Vec3* p, const Real* w, bool xpbd, Real invH2) {
  for (size_t l = coarse_.size(); l >= 1; --l) {
    projectLevel(l, p, w, xpbd, invH2);
    prolongate(l, p, w);
  }
}

void Hierarchy::lumpMasses(size_t l, const Real* w) {
  HierarchyLevel& level = coarse_[l - 1];
  for (size_t k = 0; k < level.particles.size(); ++k) {
    const Real wk = w[level.particles[k]];
    level.lumpedMass[k] = wk == 0 ? Real(0) : 1 / wk;
  }
  for (size_t c = 0; c < level.children.size(); ++c) {
    const Real wc = w[level.children[c]];
    if (wc == 0) continue;  // a pinned child does not follow: it adds no inertia
    for (uint32_t k = level.parentBegin[c]; k < level.parentBegin[c + 1]; ++k) {
      Real& mass = level.lumpedMass[level.parents[k]];
      if (mass != 0) mass += level.weights[k] / wc;  // pinned parents stay pinned
    }
  }
  for (size_t k = 0; k < level.particles.size(); ++k) {
    lumpedInverse_[level.particles[k]] = level.lumpedMass[k] == 0 ? Real(0) : 1 / level.lumpedMass[k];
  }
}

void Hierarchy::projectLevel(size_t l, Vec3* p, const Real* w, bool xpbd, Real invH2) {
  HierarchyLevel& level = coarse_[l - 1];
  for (size_t k = 0; k < level.particles.size(); ++k) level.start[k] = p[level.particles[k]];
  std::fill(level.lambda.begin(), level.lambda.end(), Real(0));
  lumpMasses(l, w);
  const Real* lumped = lumpedInverse_.data();
  for (int it = 0; it < params_.coarseIterations; ++it) {
    for (size_t k = 0; k < level.constraints.size(); ++k) {
      const DistanceConstraint& d = level.constraints[k];
      level.lambda[k] += projectDistance(p[d.i], p[d.j], lumped[d.i], lumped[d.j], d.minLength, d.maxLength, xpbd,
                                         d.kPrime, d.compliance * invH2, level.lambda[k]);
    }
  }
}

void Hierarchy::prolongate(size_t l, Vec3* p, const Real* w) const {
  const HierarchyLevel& level = coarse_[l - 1];
  for (size_t c = 0; c < level.children.size(); ++c) {
    const uint32_t child = level.children[c];
    if (w[child] == 0) continue;  // pinned: never moved
    Vec3 delta = Vec3::Zero();
    for (uint32_t k = level.parentBegin[c]; k < level.parentBegin[c + 1]; ++k) {
      const uint32_t parent = level.parents[k];
      delta += level.weights[k] * (p[level.particles[parent]] - level.start[parent]);
    }
    p[child] += delta;
  }
}

}  // namespace pbd
