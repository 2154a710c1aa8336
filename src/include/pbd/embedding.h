// Embedded render meshes: a detailed surface follows a coarse simulated tet mesh. Each render vertex is bound
// once to one tet by its barycentric coordinates; every frame its position is the same weighted sum of that
// tet's current corners. The map is affine per tet, so vertices outside the tet mesh (bound to the nearest tet
// with extrapolated weights) follow it too.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace pbd {

struct TetEmbedding {
  std::vector<uint32_t> tet;  ///< Per render vertex, the tet it follows: an index into tets / 4.
  /// 4 per render vertex: the weights of the tet's corners (in the order tets lists them), summing to 1.
  /// All in [0, 1] for a vertex inside its tet; some negative for one outside the tet mesh (extrapolation).
  std::vector<float> bary;
};

/// Binds each render vertex (xyz per vertex in `renderPositions`) to the tet of `tets` (4 indices into
/// `tetPositions`, xyz per node) that contains it. When several do (shared faces) the one it is deepest in wins;
/// when none does, the nearest tet (by Euclidean distance from the vertex to the solid tet) does. Ties go to the
/// lower tet index, so the result is deterministic. Cost: O(tets + render vertices) for render vertices in or
/// near the tet mesh, with a uniform grid of about one cell per tet; farther vertices search more cells.
/// Throws InvalidArgument "bindToTets: <argument> <reason> (got <value>)" for sizes not a multiple of 3 or 4,
/// non-finite positions, no tets, an index out of range ("tets[k]"), a tet of (nearly) zero volume
/// ("tets[4t..4t+3]") and a render vertex so far from the tets that its weights overflow float
/// ("renderPositions[3v..3v+2]").
TetEmbedding bindToTets(std::span<const float> tetPositions, std::span<const uint32_t> tets,
                        std::span<const float> renderPositions);

/// Writes the render positions, xyz per render vertex (3 * embedding.tet.size() floats), for the tet node
/// positions `simPositions`: xyz per node, packed, the layout of World::positions(). When the tet mesh's nodes are
/// world particles first..first+n-1, pass world.positions() + 3 * first. `tets` must be the array the embedding was
/// bound with; `simPositions` must hold every node it names, and must not overlap `renderPositionsOut`.
/// No allocation; one branch-free loop of gathers and multiply-adds. Throws InvalidArgument if the embedding's
/// sizes disagree or it names a tet beyond `tets` (checked before anything is written).
void applyEmbedding(const TetEmbedding& embedding, std::span<const uint32_t> tets, const float* simPositions,
                    float* renderPositionsOut);

}  // namespace pbd
