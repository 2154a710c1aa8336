// Field lists of the structs a world snapshot stores, and the three visitors that walk them: Writer (encodes),
// Reader (decodes, bounds-checked) and Sizer (counts the encoded bytes of one element, so a reader can check a
// vector's claimed length against the bytes left before allocating). One `describe` per struct serves all three,
// so the saved and loaded layouts cannot drift apart. Only src/world/snapshot.cpp includes this.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "io/byte_stream.h"
#include "world/world_state.h"

namespace pbd::snapshot {

// --- Field lists, in encoding order. A new field goes at the end of its list and needs a new format version. ---
template <class S> void describe(S& s, GroundSettings& g) {
  s.all(g.enabled, g.height, g.thickness, g.friction, g.restitution, g.restitutionThreshold);
}
template <class S> void describe(S& s, SelfCollisionSettings& c) { s.all(c.enabled, c.radius); }
template <class S> void describe(S& s, SolverSettings& t) {
  s.all(t.method, t.solver, t.integrator, t.jacobiRelaxation, t.hierarchyLevels, t.hierarchyParents,
        t.coarseIterations, t.substeps, t.iterations, t.gravity, t.linearDamping, t.rigidDamping, t.ground,
        t.selfCollision);
}
template <class S> void describe(S& s, ParticleRange& r) { s.all(r.begin, r.end); }
template <class S> void describe(S& s, ContactMaterial& m) { s.all(m.friction, m.restitution); }
template <class S> void describe(S& s, DistanceConstraint& c) {
  s.all(c.i, c.j, c.minLength, c.maxLength, c.compliance, c.stiffness, c.kPrime);
}
template <class S> void describe(S& s, DihedralConstraint& c) {
  s.all(c.p0, c.p1, c.p2, c.p3, c.restAngle, c.compliance, c.stiffness, c.kPrime);
}
template <class S> void describe(S& s, TetVolumeConstraint& c) {
  s.all(c.p[0], c.p[1], c.p[2], c.p[3], c.restVolume, c.compliance, c.stiffness, c.kPrime, c.unilateral);
}
template <class S> void describe(S& s, Tether& t) { s.all(t.particle, t.anchor, t.maxLength); }
template <class S> void describe(S& s, NeoHookeanTet& e) {
  s.all(e.p[0], e.p[1], e.p[2], e.p[3], e.restInverse, e.restVolume, e.gamma, e.deviatoricCompliance,
        e.hydrostaticCompliance, e.deviatoricStiffness, e.hydrostaticStiffness, e.deviatoricKPrime, e.hydrostaticKPrime);
}
template <class S> void describe(S& s, SurfaceVolumeConstraint& g) {
  s.all(g.firstVertex, g.vertexCount, g.firstTriangle, g.triangleCount, g.restVolume, g.pressure, g.compliance,
        g.stiffness, g.kPrime, g.unilateral);
}
template <class S> void describe(S& s, TriangleStrainConstraint& c) {
  s.all(c.p[0], c.p[1], c.p[2], c.restInverse, c.restArea, c.stretchCompliance, c.shearCompliance,
        c.stretchStiffness, c.shearStiffness, c.stretchKPrime, c.shearKPrime);
}
template <class S> void describe(S& s, ShapeMatchingCluster& c) {
  s.all(c.firstMember, c.memberCount, c.compliance, c.stiffness, c.kPrime);
}
template <class S> void describe(S& s, Attachment& a) {
  s.all(a.particle, a.target, a.startTarget, a.compliance, a.stiffness, a.kPrime, a.active);
}
template <class S> void describe(S& s, AttachmentLink& l) { s.all(l.collider, l.anchor); }
template <class S> void describe(S& s, SkinnedConstraint& c) {
  s.all(c.particle, c.maxDistance, c.backstopDistance, c.backstopRadius, c.target, c.startTarget, c.normal,
        c.startNormal);
}
template <class S> void describe(S& s, RodSegment& r) { s.all(r.p0, r.p1, r.restLength, r.inverseInertia, r.compliance); }
template <class S> void describe(S& s, RodJoint& j) { s.all(j.segment, j.restDarboux, j.compliance); }
template <class S> void describe(S& s, ColliderDef& d) {
  s.all(d.shape, d.position, d.rotation, d.radius, d.halfHeight, d.halfExtents, d.thickness, d.friction, d.restitution);
}
template <class S> void describe(S& s, Collider& c) {
  s.all(c.def, c.startPosition, c.startRotation, c.subStartPosition, c.subEndPosition, c.subStartRotation,
        c.subEndRotation);
}

/// Fixed-size Eigen matrices of Real (Vec3, Mat3, Mat2), stored column-major as Eigen keeps them.
template <class T> concept RealMatrix = std::is_same_v<typename T::Scalar, Real> && T::SizeAtCompileTime > 0;

/// The scalar encodings shared by the visitors: u32 for uint32_t, int and enums, u8 for bool, f32 bits for Real.
/// `Self` supplies scalar(T&); structs recurse through describe().
template <class Self> class Visitor {
 public:
  template <class... T> void all(T&... v) { (visit(v), ...); }
  template <class T> void visit(T& v) {
    if constexpr (std::is_class_v<T>) {
      if constexpr (std::is_same_v<T, Quat>) {
        for (int k = 0; k < 4; ++k) self().scalar(v.coeffs()[k]);
      } else if constexpr (RealMatrix<T>) {
        for (int k = 0; k < int(T::SizeAtCompileTime); ++k) self().scalar(v.data()[k]);
      } else {
        describe(*this, v);
      }
    } else {
      self().scalar(v);
    }
  }

 private:
  Self& self() { return static_cast<Self&>(*this); }
};

class Writer : public Visitor<Writer> {
 public:
  explicit Writer(io::ByteWriter& out) : out_(out) {}
  void scalar(uint32_t v) { out_.u32(v); }
  void scalar(int v) { out_.u32(uint32_t(v)); }
  void scalar(bool v) { out_.u8(v ? 1 : 0); }
  void scalar(Real v) { out_.f32(v); }
  template <class E> requires std::is_enum_v<E> void scalar(E e) { out_.u32(uint32_t(e)); }
  /// u64 element count, then the elements.
  template <class T> void vec(std::vector<T>& v) {
    out_.u64(v.size());
    for (T& e : v) visit(e);
  }

 private:
  io::ByteWriter& out_;
};

/// Counts the bytes one value encodes to.
class Sizer : public Visitor<Sizer> {
 public:
  template <class T> void scalar(T) { bytes += std::is_same_v<T, bool> ? 1 : 4; }
  uint64_t bytes = 0;
};

template <class T> uint64_t encodedSize() {
  Sizer s;
  T value{};
  s.visit(value);
  return s.bytes;
}

class Reader : public Visitor<Reader> {
 public:
  explicit Reader(io::ByteReader& in) : in_(in) {}
  void scalar(uint32_t& v) { v = in_.u32(); }
  void scalar(int& v) { v = int(in_.u32()); }
  void scalar(bool& v) {
    const uint8_t b = in_.u8();
    if (b > 1) in_.fail(in_.context() + " holds a flag byte " + std::to_string(b) + " (not 0 or 1)");
    v = b == 1;
  }
  void scalar(Real& v) { v = in_.f32(); }
  template <class E> requires std::is_enum_v<E> void scalar(E& e) { e = E(in_.u32()); }  // range: the validators
  /// Checks the claimed count against the bytes left before allocating anything.
  template <class T> void vec(std::vector<T>& v) {
    const uint64_t n = in_.u64();
    const uint64_t each = encodedSize<T>();
    if (n > in_.left() / each) in_.need(n > (uint64_t(1) << 56) / each ? ~uint64_t(0) : n * each);
    v.resize(size_t(n));
    for (T& e : v) visit(e);
  }

 private:
  io::ByteReader& in_;
};

}  // namespace pbd::snapshot
