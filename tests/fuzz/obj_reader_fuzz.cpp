// readObj on arbitrary bytes: either a consistent mesh or pbd::MeshParseError. Anything else aborts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_input.h"
#include "pbd/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pbd::SurfaceMesh mesh;
  try {
    mesh = pbd::readObj(text);
  } catch (const pbd::MeshParseError& e) {
    PBD_FUZZ_CHECK(std::string_view(e.what()).starts_with("readObj: "));
    PBD_FUZZ_CHECK(e.line() <= size + 1);
    return 0;
  }
  PBD_FUZZ_CHECK(!mesh.positions.empty() && mesh.positions.size() % 3 == 0);
  PBD_FUZZ_CHECK(!mesh.triangles.empty() && mesh.triangles.size() % 3 == 0);
  PBD_FUZZ_CHECK(pbd::fuzz::allFinite(mesh.positions.data(), mesh.positions.size()));
  const size_t vertices = mesh.positions.size() / 3;
  for (uint32_t i : mesh.triangles) PBD_FUZZ_CHECK(i < vertices);
  // "the readers never allocate more than a small multiple of the text size": every vertex and every face corner
  // needs at least two bytes of text ("1 " or "1\n"), and a polygon of k corners makes k - 2 triangles.
  PBD_FUZZ_CHECK(vertices * 3 * 2 <= size + 2);
  PBD_FUZZ_CHECK(mesh.triangles.size() <= 3 * size);
  return 0;
}
