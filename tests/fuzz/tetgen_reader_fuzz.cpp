// readTetGen on arbitrary bytes, split at the first 0 byte into the .node and the .ele text (no 0 byte: all .node,
// empty .ele). Either a consistent tet mesh or pbd::MeshParseError; anything else aborts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_input.h"
#include "pbd/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const size_t zero = all.find('\0');
  const std::string_view node = all.substr(0, zero);
  const std::string_view ele = zero == std::string_view::npos ? std::string_view() : all.substr(zero + 1);
  pbd::TetMeshData mesh;
  try {
    mesh = pbd::readTetGen(node, ele);
  } catch (const pbd::MeshParseError& e) {
    const std::string_view what(e.what());
    PBD_FUZZ_CHECK(what.starts_with("readTetGen: .node") || what.starts_with("readTetGen: .ele"));
    PBD_FUZZ_CHECK(e.line() <= size + 1);
    return 0;
  }
  PBD_FUZZ_CHECK(!mesh.positions.empty() && mesh.positions.size() % 3 == 0);
  PBD_FUZZ_CHECK(!mesh.tets.empty() && mesh.tets.size() % 4 == 0);
  PBD_FUZZ_CHECK(pbd::fuzz::allFinite(mesh.positions.data(), mesh.positions.size()));
  const size_t nodes = mesh.positions.size() / 3;
  for (uint32_t i : mesh.tets) PBD_FUZZ_CHECK(i < nodes);
  // Each point line holds at least "i x y z" and each tet line "i a b c d" (7 and 9 bytes with separators).
  PBD_FUZZ_CHECK(nodes * 7 <= node.size() + 1);
  PBD_FUZZ_CHECK(mesh.tets.size() / 4 * 9 <= ele.size() + 1);
  return 0;
}
