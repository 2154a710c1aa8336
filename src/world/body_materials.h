// Checks of a body's contact material, shared by the body builders' entry points, World::setBodyMaterial and
// loadSnapshot (one rule, one message style).
#pragma once

#include <string>

#include "pbd/contact_material.h"
#include "world/validate.h"

namespace pbd::check {

/// friction: kSurfaceFriction (-1) or finite >= 0; restitution: in [0, 1]. Names "<fn>: <arg>.friction" etc.
inline void contactMaterial(const char* fn, const std::string& arg, const ContactMaterial& m) {
  const std::string prefix = arg.empty() ? "" : arg + '.';
  if (m.friction != kSurfaceFriction) {
    finite(fn, prefix + "friction", m.friction);
    if (m.friction < 0) fail(fn, prefix + "friction", "must be >= 0 (or -1: the surface's)", m.friction);
  }
  inRange(fn, prefix + "restitution", m.restitution, 0, 1);
}

}  // namespace pbd::check
