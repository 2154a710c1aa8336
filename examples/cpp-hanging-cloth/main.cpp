// A 32 × 32 cloth pinned at two corners, stepped for two seconds on a pool of two threads: the C++ quick start.
// Prints the lowest point of the cloth each half second, and exits non-zero if the cloth did not swing down
// (the package test builds and runs this program against the installed library and through add_subdirectory).
#include <algorithm>
#include <cstdio>
#include <exception>

#include "pbd/world.h"

int main() try {
  pbd::ThreadPool pool(2);  // optional: the library never starts threads of its own
  pbd::World world(&pool);  // nullptr = serial
  pbd::ClothDef cloth;
  cloth.columns = cloth.rows = 32;
  cloth.spacing = 1.0f / 31;
  cloth.origin = pbd::Vec3(-0.5f, 1.5f, 0);
  cloth.axisV = pbd::Vec3(0, 0, 1);  // a horizontal sheet: it swings down about its pinned edge
  cloth.pinned = {0, 31};            // the first row's two corners
  world.addCloth(cloth);

  float deepest = 1.5f;  // the lowest any particle came: the cloth swings down about its pinned edge
  for (int frame = 1; frame <= 120; ++frame) {
    world.step(1.0f / 60);
    const float* xyz = world.positions();  // 3 floats per particle, valid until the world changes shape
    float lowest = xyz[1];
    for (uint32_t i = 0; i < world.particleCount(); ++i) lowest = std::min(lowest, xyz[3 * i + 1]);
    deepest = std::min(deepest, lowest);
    if (frame % 30 == 0) std::printf("t = %.1f s: lowest point at y = %.3f m\n", frame / 60.0, lowest);
  }
  // Pinned at y = 1.5 m, the 1 m cloth swings through the vertical, about y = 0.5 m at its lowest.
  if (!(deepest < 0.6f && deepest > 0.4f)) {
    std::fprintf(stderr, "the cloth should swing down to about y = 0.5 m, its lowest was y = %f\n", deepest);
    return 1;
  }
  return 0;
} catch (const std::exception& e) {  // pbd::InvalidArgument on bad input; the world is left unchanged
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
