// Embind layer for particle reordering (pbd/particle_order.h): a soft body or triangle mesh option object in, the
// same object reordered out, with the vertex map. Only the arrays the reorder touches are read and replaced; every
// other field is copied through untouched (addSoftBody / addTriangleMesh check them).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "pbd/particle_order.h"
#include "wasm_values.h"

using emscripten::val;
using namespace pbd;
using namespace pbd::js;

namespace {

/// {def: a shallow copy of `o` with positions (Float32Array), `elementsKey` (Uint32Array) and pinned (an array, if
/// `o` had one) reordered, particleOfVertex: Uint32Array}.
val reorderedToJs(const val& o, const std::vector<Real>& positions, const char* elementsKey,
                  const std::vector<uint32_t>& elements, const std::vector<uint32_t>& pinned,
                  const std::vector<uint32_t>& particleOfVertex) {
  val def = val::global("Object").call<val>("assign", val::object(), o);
  def.set("positions", copyToFloat32Array(positions));
  def.set(elementsKey, copyToUint32Array(elements));
  if (has(o, "pinned")) def.set("pinned", val::global("Array").call<val>("from", copyToUint32Array(pinned)));
  val out = val::object();
  out.set("def", def);
  out.set("particleOfVertex", copyToUint32Array(particleOfVertex));
  return out;
}

val reorderSoftBodyJs(val o) {
  const char* fn = "reorderSoftBody";
  SoftBodyDef d;
  const std::vector<uint32_t> map = guarded(fn, [&] {
    requireObject(fn, "options", o);
    d.positions = floatArray(fn, "positions", o["positions"]);
    d.tets = indexArrayField(fn, o, "tets");
    d.pinned = indexArrayField(fn, o, "pinned");
    return reorderSoftBody(d);
  });
  return reorderedToJs(o, d.positions, "tets", d.tets, d.pinned, map);
}

val reorderTriangleMeshJs(val o) {
  const char* fn = "reorderTriangleMesh";
  TriangleMeshDef d;
  const std::vector<uint32_t> map = guarded(fn, [&] {
    requireObject(fn, "options", o);
    d.positions = floatArray(fn, "positions", o["positions"]);
    d.triangles = indexArrayField(fn, o, "triangles");
    d.pinned = indexArrayField(fn, o, "pinned");
    return reorderTriangleMesh(d);
  });
  return reorderedToJs(o, d.positions, "triangles", d.triangles, d.pinned, map);
}

}  // namespace

EMSCRIPTEN_BINDINGS(pbd_order) {
  emscripten::function("reorderSoftBody", &reorderSoftBodyJs);
  emscripten::function("reorderTriangleMesh", &reorderTriangleMeshJs);
}
