// Wavefront OBJ: only vertex positions and faces; everything that does not make triangles is skipped by keyword.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "io/line_scanner.h"
#include "pbd/mesh_io.h"

namespace pbd {
namespace {

// Statements of the OBJ specification that carry no triangle geometry. Anything else is an error, so that a
// binary or non-OBJ file is reported instead of silently read as an empty mesh.
constexpr std::string_view kIgnored[] = {
    "vt",   "vn",   "vp",    "o",    "g",     "s",        "usemtl",   "mtllib", "l",      "p",      "cstype",
    "deg",  "bmat", "step",  "curv", "curv2", "surf",     "parm",     "trim",   "hole",   "scrv",   "sp",
    "end",  "con",  "mg",    "bevel", "c_interp", "d_interp", "lod", "maplib", "usemap", "shadow_obj",
    "trace_obj", "ctech", "stech"};

bool isIgnored(std::string_view keyword) {
  for (std::string_view k : kIgnored) {
    if (k == keyword) return true;
  }
  return false;
}

void readVertex(io::LineScanner& in, std::vector<float>& positions) {
  const size_t n = in.remainingTokens();
  if (n < 3) in.fail("expected 3 coordinates (got " + std::to_string(n) + ")");
  if (n != 3 && n != 4 && n != 6) {
    in.fail("expected 3 coordinates, optionally followed by w or by r g b (got " + std::to_string(n) + " values)");
  }
  if (positions.size() / 3 >= std::numeric_limits<uint32_t>::max()) in.fail("too many vertices");
  for (int a = 0; a < 3; ++a) positions.push_back(in.real("coordinate"));
  for (size_t i = 3; i < n; ++i) in.real(n == 4 ? "w" : "colour component");  // validated, then dropped
}

// One face vertex "a", "a/b", "a//c" or "a/b/c" -> 0-based position index. `vertexCount` = vertices defined so far.
uint32_t readFaceVertex(const io::LineScanner& in, std::string_view t, size_t vertexCount) {
  const size_t slash = t.find('/');
  const std::string_view a = t.substr(0, slash);
  if (slash != std::string_view::npos) {
    const std::string_view rest = t.substr(slash + 1);
    const size_t slash2 = rest.find('/');
    const std::string_view b = rest.substr(0, slash2);
    if (slash2 == std::string_view::npos ? b.empty() : rest.size() == slash2 + 1) {
      in.fail("face vertex must be a, a/b, a//c or a/b/c (got '" + io::quoted(t) + "')");
    }
    if (!b.empty()) in.integer(b, "texture index");  // syntax only: texture coordinates are not read
    if (slash2 != std::string_view::npos) in.integer(rest.substr(slash2 + 1), "normal index");
  }
  const int64_t i = in.integer(a, "face index");
  if (i == 0) in.fail("face index 0 is invalid (indices start at 1, or at -1 counting back)");
  const auto n = static_cast<int64_t>(vertexCount);
  const int64_t resolved = i > 0 ? i - 1 : n + i;
  if (resolved < 0 || resolved >= n) {
    if (n == 0) in.fail("face index " + std::to_string(i) + " refers to a vertex, but none is defined above");
    const std::string range = i > 0 ? "[1, " + std::to_string(n) + "]" : "[-" + std::to_string(n) + ", -1]";
    in.fail("face index " + std::to_string(i) + " is out of range " + range);
  }
  return static_cast<uint32_t>(resolved);
}

// Fan-triangulates the polygon: (v0, v1, v2), (v0, v2, v3), ... Exact for the convex polygons exporters write.
void readFace(io::LineScanner& in, size_t vertexCount, std::vector<uint32_t>& triangles) {
  const size_t n = in.remainingTokens();
  if (n < 3) in.fail("face needs at least 3 vertices (got " + std::to_string(n) + ")");
  const uint32_t first = readFaceVertex(in, in.token(), vertexCount);
  uint32_t previous = readFaceVertex(in, in.token(), vertexCount);
  for (size_t k = 2; k < n; ++k) {
    const uint32_t current = readFaceVertex(in, in.token(), vertexCount);
    triangles.insert(triangles.end(), {first, previous, current});
    previous = current;
  }
}

}  // namespace

SurfaceMesh readObj(std::string_view text) {
  io::LineScanner in(text, "readObj");
  SurfaceMesh mesh;
  while (in.nextLine()) {
    const std::string_view keyword = in.token();
    if (keyword == "v") {
      readVertex(in, mesh.positions);
    } else if (keyword == "f") {
      readFace(in, mesh.positions.size() / 3, mesh.triangles);
    } else if (!isIgnored(keyword)) {
      in.fail("unknown statement '" + io::quoted(keyword) + "'");
    }
  }
  if (mesh.positions.empty()) in.failFile("mesh is empty (no vertices)");
  if (mesh.triangles.empty()) in.failFile("mesh is empty (no faces)");
  return mesh;
}

}  // namespace pbd
