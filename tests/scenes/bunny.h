// The Stanford bunny (npm `bunny`: 1839 vertices, 3674 triangles, closed), written to PBD_TEST_DATA_DIR/bunny.obj by
// tests/data/write-bunny-obj.mjs at build time and read with the library's own OBJ reader.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "pbd/mesh_io.h"

namespace pbd::scenes {

inline std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " (it is written when the tests are built)");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The bunny, about 10 units tall in the file, scaled by `scale` and lifted so its lowest point is at y = `floor`.
inline SurfaceMesh bunny(float scale = 1, float floor = 0) {
  SurfaceMesh m = readObj(readTextFile(std::string(PBD_TEST_DATA_DIR) + "/bunny.obj"));
  float lowest = 1e30f;
  for (size_t k = 1; k < m.positions.size(); k += 3) lowest = std::min(lowest, m.positions[k] * scale);
  for (size_t k = 0; k < m.positions.size(); ++k) {
    m.positions[k] *= scale;
    if (k % 3 == 1) m.positions[k] += floor - lowest;
  }
  return m;
}

}  // namespace pbd::scenes
