// Vertex welding: render meshes duplicate vertices along UV seams and at poles (one copy per texture coordinate),
// which would simulate as separate pieces of cloth. Welding merges the copies into one particle per point and
// keeps a map from each render vertex to its particle, so the simulated positions can be copied back for drawing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pbd {

struct WeldResult {
  std::vector<float> positions;             ///< xyz per welded particle; each is its group's lowest-index input.
  std::vector<uint32_t> triangles;          ///< 3 particle indices per kept triangle, input order and winding.
  std::vector<uint32_t> renderToParticle;   ///< Per input vertex, the index of its welded particle.
  size_t removedTriangles = 0;              ///< Input triangles dropped because two of their corners merged.
};

/// Merges vertices at distance <= `tolerance` (same units as the positions; 0 = exact duplicates only).
/// Input vertices are visited in index order; each joins the lowest-index earlier particle within `tolerance` of
/// it, or starts a new particle at its own position. Particles therefore keep input order, no vertex moves by
/// more than `tolerance`, and the result is deterministic (it does not chain: a row of points spaced just under
/// the tolerance is not collapsed into one). Cost: O(n) expected with a hash grid of cell size `tolerance`.
/// Throws InvalidArgument "weldVertices: <argument> <reason> (got <value>)" for positions not a multiple of 3 or
/// not finite, triangles not a multiple of 3 or with an index out of range (named "triangles[k]"), and a
/// tolerance that is negative, NaN or infinite.
WeldResult weldVertices(std::span<const float> positions, std::span<const uint32_t> triangles, float tolerance);

}  // namespace pbd
