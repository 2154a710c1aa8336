// Readers for the mesh files a scene is built from: Wavefront OBJ surfaces (render meshes, cloth) and TetGen
// .node/.ele tetrahedral meshes (soft bodies). They take the file text, not a path: in the browser the bytes come
// from fetch(), natively from whatever the caller reads.
//
// Any input is safe: malformed, truncated or binary text throws pbd::MeshParseError naming the line; the readers
// never crash, hang or allocate more than a small multiple of the text size (header counts are not trusted).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "pbd/errors.h"

namespace pbd {

/// A triangle mesh as read from a file.
struct SurfaceMesh {
  std::vector<float> positions;     ///< xyz per vertex, in the file's units and order.
  std::vector<uint32_t> triangles;  ///< 3 vertex indices per triangle, 0-based, in the file's winding order.
};

/// A tetrahedral mesh as read from a file.
struct TetMeshData {
  std::vector<float> positions;  ///< xyz per node, in the file's units and order (node i of the file = index i-base).
  std::vector<uint32_t> tets;    ///< 4 node indices per tet, 0-based, in the file's order (corner nodes only).
};

/// Parses Wavefront OBJ text. Reads `v x y z [w]` (w and the `v x y z r g b` colour extension are ignored) and
/// `f` with 3 or more vertices (polygons are fan-triangulated from their first vertex), each written `a`, `a/b`,
/// `a//c` or `a/b/c`; only the position index a is used. Indices are 1-based or negative (-1 = the last vertex
/// defined so far) and must refer to vertices defined above the face. Accepts `#` comments, blank lines and
/// \r\n line ends; ignores texture, normal, grouping, material, line, point and free-form statements.
/// Throws MeshParseError "readObj: line <n>: <reason>" for anything else, and when there is no vertex or no face.
SurfaceMesh readObj(std::string_view text);

/// Parses a TetGen mesh: `nodeText` is the .node file (header "<points> <dim=3> <attributes> <markers 0|1>", then
/// "<index> x y z [attributes] [marker]") and `eleText` the .ele file (header "<tets> <nodes per tet 4|10>
/// <region attribute 0|1>", then "<index> n0 n1 n2 n3 ..."); of 10-node (quadratic) tets the 4 corners are kept.
/// Numbering starts at 0 or 1, as the first point says; indices must then be consecutive. `#` starts a comment.
/// Throws MeshParseError "readTetGen: .node line <n>: <reason>" (or ".ele"), also for more than 2^24 points or
/// 2^26 tets and for header counts that do not match the lines present.
TetMeshData readTetGen(std::string_view nodeText, std::string_view eleText);

}  // namespace pbd
