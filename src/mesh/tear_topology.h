// Tearing a triangle mesh along its edges: which vertices split where the surface separates, and where each
// constraint that lived on the mesh goes afterwards. Pure topology on vertex indices (a body's local particles).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace pbd::mesh {

/// A triangle mesh being torn. A side of a triangle is torn when the material across it broke; the triangles on
/// either side then stop being neighbours there, though they may still share the side's two vertices until a vertex
/// splits.
struct TornMesh {
  std::vector<uint32_t> triangles;  ///< 3 vertex indices per triangle, as torn so far.
  std::vector<uint8_t> tornSides;   ///< Per triangle: bit k = its side from corner k to corner (k + 1) % 3 is torn.
  std::vector<uint32_t> origin;     ///< Per vertex: the vertex of the untorn mesh it was split from (itself at first).
};

/// Marks the sides (pairs[2k], pairs[2k+1]) torn on every triangle that has them (in either direction). Returns k of
/// the first pair that is no side of any triangle, with nothing marked; or pairs.size() / 2 when all were marked.
size_t markTorn(TornMesh& mesh, std::span<const uint32_t> pairs);

/// Splits every vertex whose triangles fall into more than one fan, the fans being its triangles joined through
/// untorn sides that touch it. The fan with the lowest triangle keeps the vertex; each other fan gets a new vertex,
/// numbered from origin.size() on in order of (vertex, lowest triangle of the fan). Rewrites the corners and grows
/// `origin`; returns the vertex each new vertex was split from.
std::vector<uint32_t> splitVertices(TornMesh& mesh);

/// Where the constraints of a mesh go after splitVertices. A constraint over vertices p (2 to 4) occupies a patch of
/// the untorn mesh: the triangles within as many neighbour steps of p[0]'s triangles as it takes to reach every
/// other p[m] (a grid cloth's edges take none, its shear diagonals and dihedrals one, its skip-one bend edges two).
/// After the tear, each piece of that patch still joined through untorn sides that holds p[m] or a vertex just split
/// from it, for every m, carries one instance on those vertices; a patch cut apart carries none: the constraint
/// broke. So an edge along a tear that opened lives on once on each side; bending across a torn edge, a shear
/// diagonal across a torn cell, a bend edge across a cut, break.
class TearPatches {
 public:
  /// `mesh` after splitVertices; `sources` what it returned (the vertices from firstNew on were split from them).
  TearPatches(const TornMesh& mesh, std::span<const uint32_t> sources);

  static constexpr uint32_t kMaxSteps = 6;  ///< A constraint that reaches farther is not the mesh's: it stays as it is.

  /// Only the constraints near `changed` (the triangles whose corners or torn sides this tear changed) can change:
  /// instances() then keeps every other one as it is without looking at its patch. A patch reaches at most
  /// kMaxSteps + 2 edges from p[0], so a p[0] farther than that from every changed corner sees no change.
  void limitTo(std::span<const uint32_t> changed);

  /// The instances of a constraint over `p` (its vertices before the split), appended to `out` (p.size() vertices
  /// each, the rest 0). Returns how many: 0 = it broke.
  size_t instances(std::span<const uint32_t> p, std::vector<std::array<uint32_t, 4>>& out);

  /// The triangle whose corners are p's (the vertices before the split, in any order), or ~0u.
  uint32_t triangleOf(std::span<const uint32_t, 3> p) const;

  /// Per vertex, its piece: vertices on one triangle share one (numbered by their lowest vertex); a vertex on no
  /// triangle is a piece of its own.
  std::vector<uint32_t> pieces() const;

  /// The vertex before the split that v is or was split from.
  uint32_t lineage(uint32_t v) const { return v >= firstNew_ ? sources_[v - firstNew_] : v; }

 private:
  const TornMesh& mesh_;
  std::span<const uint32_t> sources_;
  uint32_t firstNew_;
  std::vector<uint32_t> originFirst_, originTriangles_;  // per origin, the triangles with a corner of it (CSR)
  std::vector<uint32_t> untornNeighbour_;  // per triangle side, the untorn mesh's triangle across it (or ~0u)
  std::vector<uint32_t> visitMark_;        // per triangle: == mark_ when in the current patch
  std::vector<uint32_t> root_;             // per triangle: union-find parent within the current patch
  uint32_t mark_ = 0;
  std::vector<uint32_t> patch_, layer_, next_;
  std::vector<uint8_t> near_;              // per vertex: within reach of a change (limitTo); empty = all are
  uint32_t corner(uint32_t t, int k) const { return mesh_.triangles[3 * size_t(t) + k]; }
  uint32_t find(uint32_t t);
};

}  // namespace pbd::mesh
