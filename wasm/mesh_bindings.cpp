// Embind layer for the mesh tools: the tetrahedralizer (with progress and cancellation), the OBJ and TetGen readers,
// and embedded render meshes. Results are copied out into new typed arrays: they are built once, not per frame.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "pbd/embedding.h"
#include "pbd/errors.h"
#include "pbd/mesh_io.h"
#include "pbd/mesh_weld.h"
#include "pbd/tetrahedralize.h"
#include "js_world.h"
#include "wasm_values.h"

using emscripten::val;
using namespace pbd;
using namespace pbd::js;

namespace {

/// Options: {resolution, minQuality, surfaceMargin, extraPoints, onProgress(fraction) -> false to cancel}.
/// Cancelling throws an Error whose name is 'AbortError'.
val tetrahedralizeJs(val positions, val triangles, val options) {
  const char* fn = "tetrahedralize";
  TetrahedralizeResult r;
  guarded(fn, [&] {
    TetrahedralizeOptions o;
    const bool hasOptions = !options.isUndefined() && !options.isNull();
    if (hasOptions) requireObject(fn, "options", options);
    const std::vector<Real> xyz = floatArray(fn, "positions", positions);
    val holder = val::object();
    holder.set("triangles", triangles);
    const std::vector<uint32_t> tris = indexArrayField(fn, holder, "triangles");
    if (triangles.isUndefined()) throw InvalidArgument("tetrahedralize: triangles must be an array of indices");
    if (hasOptions) {
      o.resolution = toInt(fn, "options.resolution", numberField(fn, options, "resolution", o.resolution));
      o.minQuality = numberField(fn, options, "minQuality", o.minQuality);
      o.surfaceMargin = numberField(fn, options, "surfaceMargin", o.surfaceMargin);
      if (has(options, "extraPoints")) o.extraPoints = floatArray(fn, "options.extraPoints", options["extraPoints"]);
      if (has(options, "onProgress")) {
        val callback = options["onProgress"];
        if (callback.typeOf().as<std::string>() != "function") {
          throw InvalidArgument("tetrahedralize: options.onProgress must be a function");
        }
        o.progress = [callback](double fraction) { return !callback(fraction).strictlyEquals(val(false)); };
      }
    }
    try {
      r = tetrahedralize(xyz, tris, o);
    } catch (const Cancelled&) {
      val error = val::global("Error").new_(std::string("tetrahedralize: cancelled"));
      error.set("name", std::string("AbortError"));
      error.throw_();
    }
  });
  val out = val::object();
  out.set("positions", copyToFloat32Array(r.positions));
  out.set("tets", copyToUint32Array(r.tets));
  out.set("surfaceTriangles", copyToUint32Array(r.surfaceTriangles));
  out.set("surfaceVertexCount", r.surfaceVertexCount);
  out.set("gridPointCount", r.gridPointCount);
  out.set("delaunayTetCount", r.delaunayTetCount);
  out.set("outsideTetCount", r.outsideTetCount);
  out.set("droppedLowQuality", r.droppedLowQuality);
  out.set("droppedFlat", r.droppedFlat);
  out.set("unusedSurfaceVertices", r.unusedSurfaceVertices);
  return out;
}

/// Merges vertices closer than `tolerance`: {positions, triangles, renderToParticle, removedTriangles}.
val weldVerticesJs(val positions, val triangles, double tolerance) {
  const char* fn = "weldVertices";
  const WeldResult r = guarded(fn, [&] {
    val holder = val::object();
    holder.set("triangles", triangles);
    return weldVertices(floatArray(fn, "positions", positions), indexArrayField(fn, holder, "triangles"),
                        float(tolerance));
  });
  val out = val::object();
  out.set("positions", copyToFloat32Array(r.positions));
  out.set("triangles", copyToUint32Array(r.triangles));
  out.set("renderToParticle", copyToUint32Array(r.renderToParticle));
  out.set("removedTriangles", double(r.removedTriangles));
  return out;
}

std::string textArgument(const char* fn, const char* arg, const val& v) {
  if (!v.isString()) throw InvalidArgument(std::string(fn) + ": " + arg + " must be a string (the file's text)");
  return v.as<std::string>();
}

val readObjJs(val text) {
  const SurfaceMesh mesh = guarded("readObj", [&] { return readObj(textArgument("readObj", "text", text)); });
  val out = val::object();
  out.set("positions", copyToFloat32Array(mesh.positions));
  out.set("triangles", copyToUint32Array(mesh.triangles));
  return out;
}

val readTetGenJs(val nodeText, val eleText) {
  const TetMeshData mesh = guarded("readTetGen", [&] {
    return readTetGen(textArgument("readTetGen", "nodeText", nodeText), textArgument("readTetGen", "eleText", eleText));
  });
  val out = val::object();
  out.set("positions", copyToFloat32Array(mesh.positions));
  out.set("tets", copyToUint32Array(mesh.tets));
  return out;
}

/// A render mesh bound to a tet mesh. update() writes the render positions into the embedding's own buffer from the
/// tet nodes' current positions in a world; positions() is a zero-copy view of that buffer.
class JsEmbedding {
 public:
  JsEmbedding(val tetPositions, val tets, val renderPositions) {
    const char* fn = "Embedding";
    guarded(fn, [&] {
      val holder = val::object();
      holder.set("tets", tets);
      tets_ = indexArrayField(fn, holder, "tets");
      const std::vector<Real> nodes = floatArray(fn, "tetPositions", tetPositions);
      embedding_ = bindToTets(nodes, tets_, floatArray(fn, "renderPositions", renderPositions));
      nodeCount_ = uint32_t(nodes.size() / 3);
      render_.assign(3 * embedding_.tet.size(), 0.f);
    });
  }
  /// Recomputes the render positions from the world's particles; the tet mesh's node 0 is particle firstParticle.
  void update(const JsWorld& world, double firstParticle) {
    guarded("Embedding.update", [&] {
      const uint32_t first = toIndex("Embedding.update", "firstParticle", firstParticle);
      if (uint64_t(first) + nodeCount_ > world.core().particleCount()) {
        throw InvalidArgument("Embedding.update: firstParticle + the tet mesh's node count exceeds the world's "
                              "particle count (got " + std::to_string(first) + ")");
      }
      applyEmbedding(embedding_, tets_, world.core().positions() + 3 * size_t(first), render_.data());
    });
  }
  val positions() const { return val(emscripten::typed_memory_view(render_.size(), render_.data())); }
  uint32_t vertexCount() const { return uint32_t(embedding_.tet.size()); }

 private:
  std::vector<uint32_t> tets_;
  TetEmbedding embedding_;
  uint32_t nodeCount_ = 0;
  std::vector<float> render_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(pbd_mesh) {
  emscripten::function("tetrahedralize", &tetrahedralizeJs);
  emscripten::function("readObj", &readObjJs);
  emscripten::function("weldVertices", &weldVerticesJs);
  emscripten::function("readTetGen", &readTetGenJs);
  emscripten::class_<JsEmbedding>("Embedding")
      .constructor<val, val, val>()
      .function("update", &JsEmbedding::update)
      .function("positions", &JsEmbedding::positions)
      .function("vertexCount", &JsEmbedding::vertexCount);
}
