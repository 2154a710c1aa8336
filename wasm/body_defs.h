// JS option objects → the core's body definitions. Absent fields keep the core's defaults; a present field of the
// wrong type is an error naming it. Range checks are the core's (one place, one message style).
#pragma once

#include <emscripten/val.h>

#include <string>

#include "pbd/bodies.h"
#include "pbd/errors.h"
#include "wasm_values.h"

namespace pbd::js {

/// obj[key] as one of `names` (mapped to `values` in order), or `fallback` when absent.
template <class E, size_t N>
E enumField(const char* fn, const val& obj, const char* key, const char* const (&names)[N], const E (&values)[N],
            E fallback) {
  return has(obj, key) ? enumValue(fn, key, obj[key], names, values) : fallback;
}

inline bool boolField(const char* fn, const val& obj, const char* key, bool fallback) {
  if (!has(obj, key)) return fallback;
  if (!obj[key].isTrue() && !obj[key].isFalse()) throw InvalidArgument(std::string(fn) + ": " + key + " must be a boolean");
  return obj[key].isTrue();
}

inline TetherMode tetherField(const char* fn, const val& o, TetherMode fallback) {
  static const char* const names[] = {"none", "euclidean", "geodesic"};
  static const TetherMode values[] = {TetherMode::None, TetherMode::Euclidean, TetherMode::Geodesic};
  return enumField(fn, o, "tethers", names, values, fallback);
}

/// o.model: 'edges' | 'strain-triangles' (ClothModel).
inline ClothModel clothModelField(const char* fn, const val& o, ClothModel fallback) {
  static const char* const names[] = {"edges", "strain-triangles"};
  static const ClothModel values[] = {ClothModel::Edges, ClothModel::StrainTriangles};
  return enumField(fn, o, "model", names, values, fallback);
}

/// o.pinRegions: [{shape: 'box', centre, halfExtents} | {shape: 'sphere', centre, radius}, ...].
inline std::vector<PinRegion> pinRegionsField(const char* fn, const val& o) {
  std::vector<PinRegion> out;
  if (!has(o, "pinRegions")) return out;
  const val list = o["pinRegions"];
  if (list.isNull() || !list["length"].isNumber()) throw InvalidArgument(std::string(fn) + ": pinRegions must be an array");
  static const char* const names[] = {"box", "sphere"};
  static const PinRegion::Shape values[] = {PinRegion::Shape::Box, PinRegion::Shape::Sphere};
  for (int k = 0; k < list["length"].as<int>(); ++k) {
    const std::string name = "pinRegions[" + std::to_string(k) + "]";
    const val r = list[k];
    requireObject(fn, name.c_str(), r);
    PinRegion region;
    region.shape = enumField(fn, r, "shape", names, values, PinRegion::Shape::Box);
    region.centre = vec3Field(fn, r, "centre", region.centre);
    region.halfExtents = vec3Field(fn, r, "halfExtents", region.halfExtents);
    region.radius = Real(numberField(fn, r, "radius", region.radius));
    out.push_back(region);
  }
  return out;
}

/// {friction, staticFriction, restitution, thickness} over `m` (ContactMaterial): absent fields keep m's values; the
/// core checks the ranges.
inline ContactMaterial contactMaterialOf(const char* fn, const val& v, ContactMaterial m) {
  m.friction = Real(numberField(fn, v, "friction", m.friction));
  m.staticFriction = Real(numberField(fn, v, "staticFriction", m.staticFriction));
  m.restitution = Real(numberField(fn, v, "restitution", m.restitution));
  m.thickness = Real(numberField(fn, v, "thickness", m.thickness));
  return m;
}

/// o.contact: a body's {friction, restitution} against colliders and the ground, or `fallback` when absent.
inline ContactMaterial contactField(const char* fn, const val& o, const ContactMaterial& fallback) {
  if (!has(o, "contact")) return fallback;
  requireObject(fn, "contact", o["contact"]);
  return contactMaterialOf(fn, o["contact"], fallback);
}

/// {enabled, thickness} over `s` (ContinuousSelfCollision): absent fields keep s's values; the core checks them.
inline ContinuousSelfCollision continuousSelfCollisionOf(const char* fn, const val& v, ContinuousSelfCollision s) {
  s.enabled = boolField(fn, v, "enabled", s.enabled);
  s.thickness = Real(numberField(fn, v, "thickness", s.thickness));
  return s;
}

/// o.continuousSelfCollision of a cloth or triangle mesh, or `fallback` when absent.
inline ContinuousSelfCollision continuousSelfCollisionField(const char* fn, const val& o,
                                                            const ContinuousSelfCollision& fallback) {
  if (!has(o, "continuousSelfCollision")) return fallback;
  requireObject(fn, "continuousSelfCollision", o["continuousSelfCollision"]);
  return continuousSelfCollisionOf(fn, o["continuousSelfCollision"], fallback);
}

/// o.tearing of a cloth or triangle mesh: {enabled, strain} (Tearing); an object turns tearing on unless it says
/// enabled: false, and a strain left out (or null) means only tearEdges tears.
inline Tearing tearingField(const char* fn, const val& o) {
  Tearing t;
  if (!has(o, "tearing")) return t;
  requireObject(fn, "tearing", o["tearing"]);
  const val v = o["tearing"];
  t.enabled = boolField(fn, v, "enabled", true);
  if (has(v, "strain") && !v["strain"].isNull()) t.strain = Real(numberField(fn, v, "strain", t.strain));
  return t;
}

inline ClothDef clothDefFromJs(const char* fn, const val& o) {
  requireObject(fn, "options", o);
  ClothDef c;
  c.columns = toInt(fn, "columns", numberField(fn, o, "columns", NAN));
  c.rows = toInt(fn, "rows", numberField(fn, o, "rows", NAN));
  c.spacing = Real(numberField(fn, o, "spacing", c.spacing));
  c.origin = vec3Field(fn, o, "origin", c.origin);
  c.axisU = vec3Field(fn, o, "axisU", c.axisU);
  c.axisV = vec3Field(fn, o, "axisV", c.axisV);
  c.mass = Real(numberField(fn, o, "mass", c.mass));
  c.pinned = indexArrayField(fn, o, "pinned");
  c.pinRegions = pinRegionsField(fn, o);
  c.model = clothModelField(fn, o, c.model);
  c.stretch = strengthField(fn, o, "stretch", c.stretch);
  c.shear = strengthField(fn, o, "shear", c.shear);
  c.bend = strengthField(fn, o, "bend", c.bend);
  c.tethers = tetherField(fn, o, c.tethers);
  c.tetherSlack = Real(numberField(fn, o, "tetherSlack", c.tetherSlack));
  static const char* const bendNames[] = {"skip-one", "dihedral"};
  static const BendModel bendValues[] = {BendModel::SkipOne, BendModel::Dihedral};
  c.bendModel = enumField(fn, o, "bendModel", bendNames, bendValues, c.bendModel);
  c.contact = contactField(fn, o, c.contact);
  c.continuousSelfCollision = continuousSelfCollisionField(fn, o, c.continuousSelfCollision);
  c.tearing = tearingField(fn, o);
  return c;
}

inline RopeDef ropeDefFromJs(const char* fn, const val& o) {
  requireObject(fn, "options", o);
  RopeDef d;
  d.segments = toInt(fn, "segments", numberField(fn, o, "segments", NAN));
  d.start = vec3Field(fn, o, "start", d.start);
  d.end = vec3Field(fn, o, "end", d.end);
  d.mass = Real(numberField(fn, o, "mass", d.mass));
  d.pinned = indexArrayField(fn, o, "pinned");
  d.pinRegions = pinRegionsField(fn, o);
  d.stretch = strengthField(fn, o, "stretch", d.stretch);
  d.bend = strengthField(fn, o, "bend", d.bend);
  d.contact = contactField(fn, o, d.contact);
  return d;
}

inline RodDef rodDefFromJs(const char* fn, const val& o) {
  requireObject(fn, "options", o);
  RodDef d;
  d.points = floatArray(fn, "points", o["points"]);
  d.radius = Real(numberField(fn, o, "radius", d.radius));
  d.density = Real(numberField(fn, o, "density", d.density));
  d.youngsModulus = Real(numberField(fn, o, "youngsModulus", d.youngsModulus));
  d.shearModulus = Real(numberField(fn, o, "shearModulus", d.shearModulus));
  d.pinned = indexArrayField(fn, o, "pinned");
  d.clampedSegments = indexArrayField(fn, o, "clampedSegments");
  d.contact = contactField(fn, o, d.contact);
  return d;
}

inline SoftBodyDef softBodyDefFromJs(const char* fn, const val& o) {
  requireObject(fn, "options", o);
  SoftBodyDef d;
  d.positions = floatArray(fn, "positions", o["positions"]);
  d.tets = indexArrayField(fn, o, "tets");
  d.density = Real(numberField(fn, o, "density", d.density));
  d.totalMass = Real(numberField(fn, o, "totalMass", d.totalMass));
  d.pinned = indexArrayField(fn, o, "pinned");
  d.pinRegions = pinRegionsField(fn, o);
  d.edgeConstraints = boolField(fn, o, "edgeConstraints", d.edgeConstraints);
  d.edges = strengthField(fn, o, "edges", d.edges);
  static const char* const materialNames[] = {"volume", "neo-hookean"};
  static const SoftMaterial materialValues[] = {SoftMaterial::Volume, SoftMaterial::NeoHookean};
  d.material = enumField(fn, o, "material", materialNames, materialValues, d.material);
  d.volume = strengthField(fn, o, "volume", d.volume);
  d.volumeOnlyResistsCompression = boolField(fn, o, "volumeOnlyResistsCompression", d.volumeOnlyResistsCompression);
  d.youngsModulus = Real(numberField(fn, o, "youngsModulus", d.youngsModulus));
  d.poissonRatio = Real(numberField(fn, o, "poissonRatio", d.poissonRatio));
  d.materialStiffness = Real(numberField(fn, o, "materialStiffness", d.materialStiffness));
  d.shapeMatching = boolField(fn, o, "shapeMatching", d.shapeMatching);
  d.shapeMatchingStrength = strengthField(fn, o, "shapeMatchingStrength", d.shapeMatchingStrength);
  d.contact = contactField(fn, o, d.contact);
  return d;
}

inline TriangleMeshDef triangleMeshDefFromJs(const char* fn, const val& o) {
  requireObject(fn, "options", o);
  TriangleMeshDef d;
  d.positions = floatArray(fn, "positions", o["positions"]);
  d.triangles = indexArrayField(fn, o, "triangles");
  d.weldTolerance = Real(numberField(fn, o, "weldTolerance", d.weldTolerance));
  d.mass = Real(numberField(fn, o, "mass", d.mass));
  d.pinned = indexArrayField(fn, o, "pinned");
  d.pinRegions = pinRegionsField(fn, o);
  d.model = clothModelField(fn, o, d.model);
  d.stretch = strengthField(fn, o, "stretch", d.stretch);
  d.shear = strengthField(fn, o, "shear", d.shear);
  d.bending = boolField(fn, o, "bending", d.bending);
  d.bend = strengthField(fn, o, "bend", d.bend);
  d.tethers = tetherField(fn, o, d.tethers);
  d.tetherSlack = Real(numberField(fn, o, "tetherSlack", d.tetherSlack));
  d.pressure = Real(numberField(fn, o, "pressure", d.pressure));
  d.volume = strengthField(fn, o, "volume", d.volume);
  d.volumeOnlyResistsCompression = boolField(fn, o, "volumeOnlyResistsCompression", d.volumeOnlyResistsCompression);
  d.contact = contactField(fn, o, d.contact);
  d.continuousSelfCollision = continuousSelfCollisionField(fn, o, d.continuousSelfCollision);
  d.tearing = tearingField(fn, o);
  return d;
}

}  // namespace pbd::js
