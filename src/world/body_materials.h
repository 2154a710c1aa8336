// Checks of a body's contact material, shared by the body builders' entry points, World::setBodyMaterial and
// loadSnapshot (one rule, one message style).
#pragma once

#include <string>

#include "pbd/contact_material.h"
#include "base/checks.h"

namespace pbd::check {

/// A surface's or body's staticFriction: kSameAsFriction (-1) or finite >= 0 (μ_s < μ_d allowed: contact_material.h).
inline void staticFriction(const char* fn, const std::string& arg, Real mu) {
  atLeastOrSpecial(fn, arg, mu, 0, kSameAsFriction, "must be >= 0 (or -1: same as friction)");
}

/// friction: kSurfaceFriction (-1) or finite >= 0; staticFriction: as check::staticFriction; restitution: in [0, 1];
/// thickness: finite >= 0.
/// Names "<fn>: <arg>.friction" etc.
inline void contactMaterial(const char* fn, const std::string& arg, const ContactMaterial& m) {
  const std::string prefix = arg.empty() ? "" : arg + '.';
  atLeastOrSpecial(fn, prefix + "friction", m.friction, 0, kSurfaceFriction, "must be >= 0 (or -1: the surface's)");
  staticFriction(fn, prefix + "staticFriction", m.staticFriction);
  inRange(fn, prefix + "restitution", m.restitution, 0, 1);
  atLeast(fn, prefix + "thickness", m.thickness, 0);
}

}  // namespace pbd::check
