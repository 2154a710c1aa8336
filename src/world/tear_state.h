// World::Impl's tearable bodies (pbd/bodies.h Tearing): each one's triangles as torn so far, on its local particles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mesh/tear_topology.h"
#include "pbd/bodies.h"

namespace pbd {

/// An edge the step's scan watches: its two body-local particles and the squared length past which it tears.
struct WatchedEdge {
  uint32_t a, b;
  Real tearLength2;  // m², ((1 + strain) x rest length)²
};

struct TearableSurface {
  uint32_t body = 0;
  Real strain = 0;        // an edge tears past (1 + strain) x its rest length; infinity: only tearEdges tears
  mesh::TornMesh mesh;    // body-local particle indices; origin: the particle of the untorn body each was split from
  std::vector<WatchedEdge> watched;  // derived (watchEdges): each untorn edge once; none when strain is infinite
};

/// Fills s.watched from its triangles and the body's rest positions (xyz per local particle): each edge with no torn
/// side, once. tearing.cpp.
void watchEdges(TearableSurface& s, std::span<const Real> restXyz);

struct TearState {
  std::vector<TearableSurface> surfaces;  // in increasing body order
  std::vector<TearReport> lastTears;      // what the last step tore
  std::vector<uint32_t> overstretched;    // scratch of the step's scan: one body's edges past their strain (pairs)

  TearableSurface* find(uint32_t body) {
    for (TearableSurface& s : surfaces) if (s.body == body) return &s;
    return nullptr;
  }
};

}  // namespace pbd
