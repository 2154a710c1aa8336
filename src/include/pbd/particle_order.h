// Cache-friendly vertex orders for body definitions (issue #8). The solvers walk constraints in array order and read
// the particles they touch; a mesh whose neighbouring vertices sit far apart in memory (a shuffled or badly exported
// tet mesh) misses the cache on nearly every read. Reordering the vertices along a Hilbert curve of their positions,
// and the tets / triangles by their first vertex, makes neighbours in space neighbours in memory. Nothing here is
// applied by World on its own: a caller reorders a def before adding it, and keeps the returned map to line up
// render meshes (old vertex v is drawn from particle firstParticle + particleOfVertex[v]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pbd/bodies.h"
#include "pbd/real.h"

namespace pbd {

/// A permutation newIndexOf[old] of `vertexCount` vertices (xyz, 3 Reals each) that visits them along a 3D Hilbert
/// curve of their positions quantized to a 2^16-per-axis grid over their bounding cube. Hilbert rather than Morton:
/// consecutive cells of a Hilbert curve always share a face, so it never jumps across the body the way Z-order does
/// at its power-of-two seams. Deterministic: integer keys, ties (vertices in one cell) broken by the old index, no
/// threads and no floating-point sums, so the same input gives the same map on every platform and thread count.
/// Throws InvalidArgument "localityOrder: xyz[k] must be finite" or for more than 2^32 - 1 vertices; no vertex = {}.
std::vector<uint32_t> localityOrder(const Real* xyz, size_t vertexCount);

/// Reorders a soft body's vertices by localityOrder, in place: positions are permuted, tets and pinned remapped, and
/// the tets sorted by their smallest new vertex index, so that the constraints built from them walk memory forwards;
/// the sorted tets are then dealt round-robin from 8 contiguous chunks (8 forward streams), because the serial
/// Gauss-Seidel sweep over tet volumes stalls when consecutive tets share vertices (particle_order.cpp says more).
/// Each tet keeps its vertex order (and so its orientation); pinRegions are positional and stay as they are.
/// Reordering a reordered def changes nothing. Returns particleOfVertex[oldVertex] = newVertex. Only positions, tets
/// and pinned are checked (the rest is addSoftBody's business): InvalidArgument "reorderSoftBody: <argument>
/// <reason>" for positions empty, not a multiple of 3, not finite or over kMaxParticles vertices, tets empty or not a
/// multiple of 4, and a tet or pinned index out of range. On a throw `def` is unchanged.
std::vector<uint32_t> reorderSoftBody(SoftBodyDef& def);

/// The same for a triangle mesh's render vertices: positions permuted, triangles (winding kept) and pinned remapped,
/// triangles ordered as the tets above. Returns particleOfVertex[oldVertex] = newVertex, a render-vertex
/// map: after addTriangleMesh welds, old vertex v follows particle range.firstParticle +
/// renderToParticle[particleOfVertex[v]]. Errors as reorderSoftBody, named "reorderTriangleMesh".
std::vector<uint32_t> reorderTriangleMesh(TriangleMeshDef& def);

}  // namespace pbd
