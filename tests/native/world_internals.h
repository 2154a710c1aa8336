// White-box access to a World's internals for tests: World declares `friend struct WorldInternals` (tests only).
#pragma once

#include "pbd/world.h"
#include "world/world_state.h"

namespace pbd {
struct WorldInternals {
  using Impl = World::Impl;
  static const Impl& of(const World& world) { return *world.impl_; }
  static Impl& of(World& world) { return *world.impl_; }
};
using WorldImpl = WorldInternals::Impl;
}  // namespace pbd
