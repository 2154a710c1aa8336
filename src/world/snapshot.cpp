// World snapshots: World::saveSnapshot and World::loadSnapshot.
//
// Format, little-endian throughout:
//   header   "PBDW" | u32 format version (kFormatVersion) | u32 flags (none defined: must be 0) | u64 payload length
//   payload  sections, each u32 tag | u64 length | body; every section of kSections exactly once, in any order
//            (those marked mayBeAbsent at most once)
//   trailer  u64 FNV-1a 64 of header and payload
// A tag is four ASCII characters ('P','A','R','T' = first byte 'P'). Tags with bit 31 set are optional: a reader that
// does not know one skips it. An unknown tag without that bit is data this library cannot honour, and is refused.
// Bodies are field lists (snapshot_codec.h): u32 for indices, ints and enums, u8 for flags, IEEE-754 bits for Real;
// a vector is a u64 count and its elements.
//
// What is saved is everything that influences future steps. Derived data is rebuilt on load, the way the add*
// functions build it: the graph colouring by replaying colouring.add over the distance constraints in their order
// (which reproduces the greedy colours and the particles' colour masks exactly), the colour schedule and the
// hierarchy (marked dirty, rebuilt by the next step), and the scratch buffers and their capacities (which bound the
// contacts and self-collision pairs a step keeps, so they must match too). The cached k' values are saved as they
// are, with the iteration count they were computed for, so the next step refreshes them exactly when the original
// world would have. Lagrange multipliers are skipped: step.cpp zeroes every one of them at the start of each substep
// before reading it. Contacts, self-collision pairs, residuals and the step report are outputs of the last step.
//
// Sections added after format version 1 without changing how older sections read are marked optional in
// kSections: a blob without one (written before it existed) loads with that state's defaults, and their tags are
// required ones, so an older library refuses a blob that has them rather than silently dropping the state.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "constraints/multiplier.h"
#include "world/body_removal.h"
#include "world/body_tearing.h"
#include "world/snapshot_checks.h"
#include "world/body_materials.h"
#include "world/snapshot_codec.h"
#include "base/checks.h"

namespace pbd {
namespace {

using snapshot::Reader;
using snapshot::Writer;

constexpr uint32_t kFormatVersion = 1;
constexpr uint8_t kMagic[4] = {'P', 'B', 'D', 'W'};
constexpr size_t kHeaderBytes = 4 + 4 + 4 + 8;
constexpr uint32_t kOptionalSection = 1u << 31;
constexpr const char* kFn = "loadSnapshot";

constexpr uint32_t tag(const char (&name)[5]) {
  return uint32_t(uint8_t(name[0])) | uint32_t(uint8_t(name[1])) << 8 | uint32_t(uint8_t(name[2])) << 16 |
         uint32_t(uint8_t(name[3])) << 24;
}

/// What loadSnapshot reads besides the staged world's own state: values that build() merges in once every section
/// is read (a blob's sections may come in any order). The loader's alone: no World holds it.
struct LoaderScratch {
  /// A TriangleMesh collider's mesh (one per such collider, in collider order).
  struct SavedMesh {
    std::vector<Real> positions;      // xyz per vertex, m, the collider's local frame, as deformed last
    std::vector<uint32_t> triangles;  // 3 vertex indices per triangle
    std::vector<uint32_t> inside;     // per particle: 1 = it ended the last substep inside the (closed) mesh
    bool insideUnknown = true;        // the flags must be recomputed at the next substep
  };
  std::vector<SavedMesh> meshes;                                      // section MESH
  std::vector<Real> colliderStaticFriction, bodyStaticFriction;       // section SFRC; empty when the blob predates it
  std::vector<Real> bodyThickness;                                    // section CTHK; empty when the blob predates it
  std::vector<Real> vbdPenalties;  // section VBDP; empty when the blob predates it or VBD had not run on its elements
  std::vector<AttachmentLink> attachmentLinks;  // section ATCC; empty when the blob predates it
};

/// The Reader of loadSnapshot's sections, with the scratch they fill.
class LoadReader : public Reader {
 public:
  LoadReader(io::ByteReader& in, LoaderScratch& scratch) : Reader(in), scratch(scratch) {}
  LoaderScratch& scratch;
};

// --- Sections: one function per section serves save (S = Writer) and load (S = LoadReader). M is World::Impl (a
// template parameter, since the nested type is private to World). Adding state = a line here, or a new section. ---
template <class S, class M>
void settingsSection(S& s, M& m) {
  s.all(m.settings, m.diagnostics.recordResiduals, m.constraints.kPrimeIterations);
}
template <class S, class M> void particlesSection(S& s, M& m) {
  s.vec(m.particles.x), s.vec(m.particles.v), s.vec(m.particles.w), s.vec(m.particles.force), s.vec(m.particles.restX);
}
template <class S, class M>
void historySection(S& s, M& m) {
  s.all(m.particles.historyValid), s.vec(m.particles.xPrev), s.vec(m.particles.vPrev);
}
template <class S, class M>
void bodiesSection(S& s, M& m) {
  s.vec(m.particles.bodies);
}
template <class S, class M>
void distancesSection(S& s, M& m) {
  s.vec(m.constraints.distances);
}
/// The colour of each distance constraint, newer than format version 1: once constraints were removed
/// (removeDistanceConstraint frees colours without recolouring), replaying the greedy colouring no longer gives the
/// live colours, and the colours fix the coloured solvers' order. A blob without it replays the greedy colouring.
template <class S, class M>
void distanceColoursSection(S& s, M& m) {
  s.vec(m.constraints.distanceColour);
}
template <class S, class M>
void dihedralsSection(S& s, M& m) {
  s.vec(m.constraints.dihedrals);
}
template <class S, class M>
void volumesSection(S& s, M& m) {
  s.vec(m.constraints.volumes);
}
template <class S, class M>
void tethersSection(S& s, M& m) {
  s.vec(m.constraints.tethers);
}
template <class S, class M>
void neoHookeansSection(S& s, M& m) {
  s.vec(m.constraints.neoHookeans);
}
template <class S, class M> void surfacesSection(S& s, M& m) {
  s.vec(m.constraints.surfaceVolumes), s.vec(m.constraints.surfaceVertices), s.vec(m.constraints.surfaceTriangles);
}
template <class S, class M>
void strainsSection(S& s, M& m) {
  s.vec(m.constraints.triangleStrains);
}
template <class S, class M> void shapeMatchingSection(S& s, M& m) {
  s.vec(m.constraints.shapeMatchings), s.vec(m.constraints.shapeMatchingMembers),
      s.vec(m.constraints.shapeMatchingRestOffsets), s.vec(m.constraints.shapeMatchingMasses);
}
template <class S, class M>
void attachmentsSection(S& s, M& m) {
  s.vec(m.constraints.attachments), s.vec(m.constraints.freeAttachments);
}
/// Which attachments follow a collider, and at which of its points (newer than SKIN; saved only when one does). A blob
/// without it has every attachment on a world point.
template <class S, class M> void attachmentLinksSection(S& s, M& m) {
  if constexpr (std::is_same_v<S, Writer>) {
    std::vector<AttachmentLink> links;
    for (const Attachment& a : m.constraints.attachments) links.push_back({a.collider, a.anchor});
    const bool any = std::any_of(links.begin(), links.end(), [](const AttachmentLink& l) { return l.collider != kNoCollider; });
    if (!any) links.clear();
    s.vec(links);
  } else {
    s.vec(s.scratch.attachmentLinks);
  }
}

/// Skinned constraints with their skinned positions and normals, newer than VBDP. A blob without them has none.
template <class S, class M> void skinnedSection(S& s, M& m) { s.vec(m.constraints.skinned); }
/// Cosserat rods: segments, joints and the frames' state with BDF2's history, newer than ATCC. A blob without it has
/// none.
template <class S, class M> void rodsSection(S& s, M& m) {
  s.vec(m.rods.segments), s.vec(m.rods.joints), s.vec(m.rods.orientation), s.vec(m.rods.angularVelocity),
      s.vec(m.rods.torque), s.vec(m.rods.prevOrientation), s.vec(m.rods.prevAngularVelocity);
}
/// Tearable bodies (Tearing), newer than RODS: per body its strain and its triangles as torn (body-local particles),
/// the torn sides and each particle's origin. A blob without it has none.
template <class S, class M> void tearingSection(S& s, M& m) {
  uint32_t count = uint32_t(m.tearing.surfaces.size());
  s.all(count);
  if constexpr (!std::is_same_v<S, Writer>) m.tearing.surfaces.clear();
  for (uint32_t k = 0; k < count; ++k) {
    // Each record reads at least 32 bytes or throws, so an absurd count ends at the end of the section.
    TearableSurface& t = std::is_same_v<S, Writer> ? m.tearing.surfaces[k] : m.tearing.surfaces.emplace_back();
    std::vector<uint32_t> sides(t.mesh.tornSides.begin(), t.mesh.tornSides.end());  // one u32 each
    s.all(t.body, t.strain), s.vec(t.mesh.triangles), s.vec(sides), s.vec(t.mesh.origin);
    if constexpr (!std::is_same_v<S, Writer>) {
      for (size_t i = 0; i < sides.size(); ++i) {
        if (sides[i] > 7) snapshot::ElementCheck("tearing", k).fail("tornSides", "must each be below 8", sides[i]);
      }
      t.mesh.tornSides.assign(sides.begin(), sides.end());
    }
  }
}
template <class S, class M>
void collidersSection(S& s, M& m) {
  s.vec(m.collision.colliders);
}
/// Per-body contact materials (parallel to the bodies) and the velocity clamp: both newer than format version 1.
template <class S, class M> void contactMaterialsSection(S& s, M& m) {
  s.vec(m.particles.bodyMaterials), s.all(m.settings.maxSpeed);
}
/// The triangle meshes of TriangleMesh colliders, in collider order: the current local-frame vertices (floats: they
/// came in as floats, so this is exact), the triangles, and who is inside each. Loaded into LoaderScratch; build()
/// recreates each mesh through addCollider, so the BVH and its checks are the ones the API builds.
template <class S, class M> void meshesSection(S& s, M& m) {
  if constexpr (std::is_same_v<S, Writer>) {
    uint32_t count = uint32_t(m.collision.meshShapes.size());
    s.all(count);
    for (MeshShape& shape : m.collision.meshShapes) {
      std::vector<Real> positions;
      for (const Point3d& v : shape.surface.bvh().vertices()) positions.insert(positions.end(), {Real(v.x()), Real(v.y()), Real(v.z())});
      std::vector<uint32_t> triangles = shape.surface.bvh().triangles();
      std::vector<uint32_t> inside(shape.inside.begin(), shape.inside.end());
      s.vec(positions), s.vec(triangles), s.vec(inside), s.all(shape.insideUnknown);
    }
  } else {
    uint32_t count = 0;
    s.all(count);
    // Each record reads at least 25 bytes or throws, so an absurd count ends at the end of the section.
    for (uint32_t k = 0; k < count; ++k) {
      LoaderScratch::SavedMesh& saved = s.scratch.meshes.emplace_back();
      s.vec(saved.positions), s.vec(saved.triangles), s.vec(saved.inside), s.all(saved.insideUnknown);
    }
  }
}

/// Continuous cloth self-collision, newer than format version 1: per cloth or mesh body its settings and triangles
/// (local indices). build() recreates each surface the way addCloth does, so its BVH (on restX) and capacities match.
/// A blob without it loads with no self-colliding surfaces (their triangles were not saved).
template <class S, class M> void selfCollisionSection(S& s, M& m) {
  uint32_t count = uint32_t(m.selfCollision.selfSurfaces.size());
  s.all(count);
  if constexpr (!std::is_same_v<S, Writer>) m.selfCollision.selfSurfaces.clear();
  for (uint32_t k = 0; k < count; ++k) {
    // Each record reads at least 17 bytes or throws, so an absurd count ends at the end of the section.
    SelfCollidingSurface& surface =
        std::is_same_v<S, Writer> ? m.selfCollision.selfSurfaces[k] : m.selfCollision.selfSurfaces.emplace_back();
    s.all(surface.body, surface.settings.enabled, surface.settings.thickness), s.vec(surface.triangles);
  }
}

/// Static friction coefficients, newer than format version 1 (CMAT, COLL and SETT keep their layouts): the ground's
/// (straight into the settings: SETT does not touch it), then per collider and per body material. A blob without it
/// loads with every staticFriction at kSameAsFriction, which is how it stepped.
template <class S, class M> void staticFrictionSection(S& s, M& m) {
  s.all(m.settings.ground.staticFriction);
  if constexpr (std::is_same_v<S, Writer>) {
    std::vector<Real> colliders, bodies;
    for (const Collider& c : m.collision.colliders) colliders.push_back(c.def.staticFriction);
    for (const ContactMaterial& b : m.particles.bodyMaterials) bodies.push_back(b.staticFriction);
    s.vec(colliders), s.vec(bodies);
  } else {
    s.vec(s.scratch.colliderStaticFriction), s.vec(s.scratch.bodyStaticFriction);
  }
}

/// Whether the world has stepped and with which settings, so that the next step settles exactly when the original's
/// would (step.cpp, settle); newer than CTHK. A blob without it loads as never stepped: no settling. Only compared,
/// never used to step: not validated.
template <class S, class M> void settleSection(S& s, M& m) { s.all(m.hasStepped, m.steppedSettings); }

/// Per-body contact thickness (ContactMaterial::thickness), newer than SFRC (CMAT keeps its layout). A blob without
/// it loads with every body's thickness 0, which is how it stepped.
template <class S, class M> void contactThicknessSection(S& s, M& m) {
  if constexpr (std::is_same_v<S, Writer>) {
    std::vector<Real> bodies;
    for (const ContactMaterial& b : m.particles.bodyMaterials) bodies.push_back(b.thickness);
    s.vec(bodies);
  } else {
    s.vec(s.scratch.bodyThickness);
  }
}

/// Vertex Block Descent's penalties of the rigid elements (solvers/vertex_block_descent.h), newer than STLE: they
/// carry over from step to step, so a world that continues from a blob needs them. Saved only when they are sized
/// for the current elements (VBD has stepped since the last element was added); a blob without them starts them over.
template <class S, class M> void vbdPenaltiesSection(S& s, M& m) {
  if constexpr (std::is_same_v<S, Writer>) {
    std::vector<Real> penalties = m.solverData.vbd.penalties();
    if (penalties.size() != m.vertexBlockDescentElementCount()) penalties.clear();
    s.vec(penalties);
  } else {
    s.vec(s.scratch.vbdPenalties);
  }
}

/// Vertex Block Descent's Chebyshev ρ (SolverSettings::chebyshevRho), newer than TEAR (SETT and STLE keep their
/// layouts): straight into the settings (checked with them) and into the last step's, which decide whether the next
/// step settles. A blob without it loads with ρ = 0, as it stepped.
template <class S, class M> void chebyshevSection(S& s, M& m) {
  s.all(m.settings.chebyshevRho, m.steppedSettings.chebyshevRho);
}

/// Gauss-Seidel's order over the distances (SolverSettings::distanceSweep), newer than CHEB, kept as CHEB keeps ρ. A
/// blob without it loads with the forward sweep, as it stepped.
template <class S, class M> void distanceSweepSection(S& s, M& m) {
  s.all(m.settings.distanceSweep, m.steppedSettings.distanceSweep);
}

template <class M> struct Section {
  uint32_t tag;
  const char* name;
  void (*save)(Writer&, M&);
  void (*load)(LoadReader&, M&);
  bool mayBeAbsent = false;  ///< Newer than format version 1: a blob without it loads with the defaults.
};

template <class M> constexpr std::array<Section<M>, 28> kSections = {{
    {tag("SETT"), "settings", settingsSection<Writer, M>, settingsSection<LoadReader, M>},
    {tag("PART"), "particles", particlesSection<Writer, M>, particlesSection<LoadReader, M>},
    {tag("HIST"), "history", historySection<Writer, M>, historySection<LoadReader, M>},
    {tag("BODY"), "bodies", bodiesSection<Writer, M>, bodiesSection<LoadReader, M>},
    {tag("DIST"), "distances", distancesSection<Writer, M>, distancesSection<LoadReader, M>},
    {tag("DIHE"), "dihedrals", dihedralsSection<Writer, M>, dihedralsSection<LoadReader, M>},
    {tag("TVOL"), "volumes", volumesSection<Writer, M>, volumesSection<LoadReader, M>},
    {tag("TETH"), "tethers", tethersSection<Writer, M>, tethersSection<LoadReader, M>},
    {tag("NEOH"), "neoHookeans", neoHookeansSection<Writer, M>, neoHookeansSection<LoadReader, M>},
    {tag("GVOL"), "surfaceVolumes", surfacesSection<Writer, M>, surfacesSection<LoadReader, M>},
    {tag("STRN"), "triangleStrains", strainsSection<Writer, M>, strainsSection<LoadReader, M>},
    {tag("SHPM"), "shapeMatchings", shapeMatchingSection<Writer, M>, shapeMatchingSection<LoadReader, M>},
    {tag("ATCH"), "attachments", attachmentsSection<Writer, M>, attachmentsSection<LoadReader, M>},
    {tag("COLL"), "colliders", collidersSection<Writer, M>, collidersSection<LoadReader, M>},
    {tag("MESH"), "meshes", meshesSection<Writer, M>, meshesSection<LoadReader, M>},
    {tag("CMAT"), "contactMaterials", contactMaterialsSection<Writer, M>, contactMaterialsSection<LoadReader, M>, true},
    {tag("DCOL"), "distanceColours", distanceColoursSection<Writer, M>, distanceColoursSection<LoadReader, M>, true},
    {tag("CSCD"), "continuousSelfCollision", selfCollisionSection<Writer, M>, selfCollisionSection<LoadReader, M>, true},
    {tag("SFRC"), "staticFriction", staticFrictionSection<Writer, M>, staticFrictionSection<LoadReader, M>, true},
    {tag("CTHK"), "contactThickness", contactThicknessSection<Writer, M>, contactThicknessSection<LoadReader, M>, true},
    {tag("STLE"), "settle", settleSection<Writer, M>, settleSection<LoadReader, M>, true},
    {tag("VBDP"), "vbdPenalties", vbdPenaltiesSection<Writer, M>, vbdPenaltiesSection<LoadReader, M>, true},
    {tag("SKIN"), "skinned", skinnedSection<Writer, M>, skinnedSection<LoadReader, M>, true},
    {tag("ATCC"), "attachmentLinks", attachmentLinksSection<Writer, M>, attachmentLinksSection<LoadReader, M>, true},
    {tag("RODS"), "rods", rodsSection<Writer, M>, rodsSection<LoadReader, M>, true},
    {tag("TEAR"), "tearing", tearingSection<Writer, M>, tearingSection<LoadReader, M>, true},
    {tag("CHEB"), "chebyshevRho", chebyshevSection<Writer, M>, chebyshevSection<LoadReader, M>, true},
    {tag("DSWP"), "distanceSweep", distanceSweepSection<Writer, M>, distanceSweepSection<LoadReader, M>, true},
}};

std::string tagName(uint32_t t) {
  std::string s;
  for (int k = 0; k < 4; ++k) {
    const char c = char((t >> (8 * k)) & 0x7f);
    s += c >= 32 && c < 127 ? c : '?';
  }
  return s;
}

/// Parses the header, checks the checksum and reads every section into `staged` (no validation of values yet).
void checkLength(const char* what, size_t n, size_t expected);

template <class M> void parse(const uint8_t* data, size_t size, M& staged, LoaderScratch& scratch) {
  io::ByteReader header(data, size, kFn, "header");
  const uint8_t* magic = header.take(4);
  if (!std::equal(magic, magic + 4, kMagic)) header.fail("bad magic (not a pbd-wasm world snapshot)");
  const uint32_t version = header.u32();
  if (version > kFormatVersion) {
    header.fail("format version " + std::to_string(version) + " is newer than this library's " +
                std::to_string(kFormatVersion));
  }
  if (version == 0) header.fail("format version 0 is invalid");
  const uint32_t flags = header.u32();
  if (flags != 0) header.fail("unknown flags 0x" + [&] { char b[16]; std::snprintf(b, 16, "%x", flags); return std::string(b); }());
  const uint64_t payloadBytes = header.u64();
  io::ByteReader body(data + kHeaderBytes, header.left(), kFn, "payload and checksum");
  body.need(payloadBytes > ~uint64_t(0) - 8 ? ~uint64_t(0) : payloadBytes + 8);
  if (body.left() != payloadBytes + 8) {
    body.fail(std::to_string(body.left() - payloadBytes - 8) + " trailing bytes after the checksum");
  }
  io::ByteReader payload = body.sub(payloadBytes, "payload");
  const uint64_t stored = body.u64();
  if (stored != io::fnv1a64(data, kHeaderBytes + size_t(payloadBytes))) body.fail("checksum mismatch (the blob is corrupted)");

  std::array<bool, kSections<M>.size()> seen{};
  while (payload.left() > 0) {
    io::ByteReader sectionHeader = payload.sub(12, "section header");
    const uint32_t t = sectionHeader.u32();
    const uint64_t length = sectionHeader.u64();
    const auto* def = std::find_if(kSections<M>.begin(), kSections<M>.end(), [&](const Section<M>& d) { return d.tag == t; });
    const std::string name = def == kSections<M>.end() ? tagName(t) : def->name;
    io::ByteReader section = payload.sub(length, "section '" + name + "'");
    if (def == kSections<M>.end()) {
      if (t & kOptionalSection) continue;
      section.fail("unknown required section '" + name + "' (written by a newer library?)");
    }
    const size_t k = size_t(def - kSections<M>.begin());
    if (seen[k]) section.fail("section '" + name + "' appears twice");
    seen[k] = true;
    LoadReader reader(section, scratch);
    def->load(reader, staged);
    if (section.left() != 0) section.fail("section '" + name + "' has " + std::to_string(section.left()) + " unread bytes");
  }
  for (size_t k = 0; k < seen.size(); ++k) {
    if (!seen[k] && !kSections<M>[k].mayBeAbsent) payload.fail(std::string("missing section '") + kSections<M>[k].name + "'");
  }
  // Section ATCC onto the attachments it describes, before anything (removeBody) renumbers them.
  if (!scratch.attachmentLinks.empty()) {
    checkLength("attachmentLinks", scratch.attachmentLinks.size(), staged.constraints.attachments.size());
    for (size_t k = 0; k < scratch.attachmentLinks.size(); ++k) {
      staged.constraints.attachments[k].collider = scratch.attachmentLinks[k].collider;
      staged.constraints.attachments[k].anchor = scratch.attachmentLinks[k].anchor;
    }
  }
}

/// "loadSnapshot: <what> has <n> values, expected <m>" unless equal.
void checkLength(const char* what, size_t n, size_t expected) {
  if (n != expected) {
    throw SnapshotError(std::string(kFn) + ": " + what + " has " + std::to_string(n) + " values, expected " +
                        std::to_string(expected));
  }
}

/// The first non-finite entry of an xyz array, named "<what>[k]".
void checkFinite(const char* what, const std::vector<Real>& a) {
  const auto bad = std::find_if(a.begin(), a.end(), [](Real r) { return !std::isfinite(r); });
  if (bad != a.end()) check::finite(kFn, std::string(what) + "[" + std::to_string(bad - a.begin()) + "]", *bad);
}

/// Bodies and their contact materials. Bodies must tile the particles in order, as appendParticles makes them (the
/// velocity pass maps each particle to exactly one body).
template <class M> void buildBodies(M& m, M& s, const LoaderScratch& scratch) {
  const uint32_t n = uint32_t(s.particles.w.size());
  snapshot::checkAll("bodies", s.particles.bodies, n);
  for (size_t b = 0; b < s.particles.bodies.size(); ++b) {
    const uint32_t expected = b == 0 ? 0 : s.particles.bodies[b - 1].end;
    if (s.particles.bodies[b].begin != expected) {
      snapshot::ElementCheck("bodies", b).fail("begin", "must be the previous body's end", s.particles.bodies[b].begin);
    }
  }
  checkLength("bodies: particles covered", s.particles.bodies.empty() ? 0 : s.particles.bodies.back().end, n);
  if (s.particles.bodyMaterials.empty())
    s.particles.bodyMaterials.resize(s.particles.bodies.size());  // a blob from before per-body materials
  checkLength("contactMaterials", s.particles.bodyMaterials.size(), s.particles.bodies.size());
  if (!scratch.bodyStaticFriction.empty() || !scratch.colliderStaticFriction.empty()) {  // section SFRC
    checkLength("staticFriction: bodies", scratch.bodyStaticFriction.size(), s.particles.bodies.size());
    for (size_t b = 0; b < s.particles.bodies.size(); ++b)
      s.particles.bodyMaterials[b].staticFriction = scratch.bodyStaticFriction[b];
  }
  if (!scratch.bodyThickness.empty()) {  // section CTHK
    checkLength("contactThickness: bodies", scratch.bodyThickness.size(), s.particles.bodies.size());
    for (size_t b = 0; b < s.particles.bodies.size(); ++b)
      s.particles.bodyMaterials[b].thickness = scratch.bodyThickness[b];
  }
  for (size_t b = 0; b < s.particles.bodyMaterials.size(); ++b) {
    check::contactMaterial(kFn, "contactMaterials[" + std::to_string(b) + "]", s.particles.bodyMaterials[b]);
  }
  m.particles.bodies = s.particles.bodies;
  m.particles.bodyMaterials = s.particles.bodyMaterials;
}

/// Particles, their history and bodies into the fresh world `m`, through appendParticles (which checks positions
/// and inverse masses and reserves every per-particle buffer as the add functions do).
template <class M> void buildParticles(M& m, M& s, const LoaderScratch& scratch) {
  const size_t n = s.particles.w.size();
  for (auto [name, a] : {std::pair{"particles: x", &s.particles.x},
                         {"particles: v", &s.particles.v},
                         {"particles: force", &s.particles.force},
                         {"particles: restX", &s.particles.restX},
                         {"history: xPrev", &s.particles.xPrev},
                         {"history: vPrev", &s.particles.vPrev}}) {
    checkLength(name, a->size(), 3 * n);
  }
  if (n > 0) m.appendParticles(kFn, s.particles.x.data(), s.particles.w.data(), n);
  checkFinite("velocities", s.particles.v);
  checkFinite("forces", s.particles.force);
  checkFinite("restX", s.particles.restX);
  checkFinite("xPrev", s.particles.xPrev);
  checkFinite("vPrev", s.particles.vPrev);
  // Same sizes as appendParticles made them: copy-assignment keeps the reserved capacity.
  m.particles.v = s.particles.v, m.particles.force = s.particles.force, m.particles.restX = s.particles.restX,
  m.particles.xPrev = s.particles.xPrev, m.particles.vPrev = s.particles.vPrev;
  m.particles.historyValid = s.particles.historyValid;
  buildBodies(m, s, scratch);
}

/// Distance constraints through appendDistance, in their order: that replays the greedy colouring exactly. Saved
/// colours (section DCOL) then replace the replayed ones, checked: each a colour or the overflow group, and no two
/// constraints of one colour on a particle.
template <class M> void buildDistances(M& m, const M& s) {
  snapshot::checkAll("distances", s.constraints.distances, m.count());
  m.reserveDistances(s.constraints.distances.size());
  for (const DistanceConstraint& c : s.constraints.distances) {
    m.appendDistance({c.i, c.j, c.minLength, c.maxLength, Strength{c.compliance, c.stiffness}});
    m.constraints.distances.back() = c;  // the saved k' (appendDistance computed it for the current iteration count)
  }
  if (s.constraints.distanceColour.empty()) return;  // a blob from before DCOL: the replay is the colouring
  checkLength("distanceColours", s.constraints.distanceColour.size(), s.constraints.distances.size());
  m.solverData.colouring.clear();
  for (size_t k = 0; k < s.constraints.distances.size(); ++k) {
    const DistanceConstraint& c = s.constraints.distances[k];
    if (!m.solverData.colouring.assign(c.i, c.j, s.constraints.distanceColour[k])) {
      snapshot::ElementCheck("distanceColours", k)
          .fail("colour", "is not a free colour of both particles (or > 32)", s.constraints.distanceColour[k]);
    }
    m.constraints.distanceColour[k] = s.constraints.distanceColour[k];
  }
}

/// Continuous self-collision surfaces, through the builder addCloth uses: bodies in increasing order, triangles in
/// range of their body, thickness > 0.
template <class M> void buildSelfSurfaces(M& m, M& s) {
  for (size_t k = 0; k < s.selfCollision.selfSurfaces.size(); ++k) {
    SelfCollidingSurface& saved = s.selfCollision.selfSurfaces[k];
    const std::string name = "continuousSelfCollision[" + std::to_string(k) + "]";
    const snapshot::ElementCheck c("continuousSelfCollision", k);
    c.index("body", saved.body, m.particles.bodies.size());
    if (k > 0 && saved.body <= s.selfCollision.selfSurfaces[k - 1].body)
      c.fail("body", "must be above the previous one's", saved.body);
    check::continuousSelfCollision(kFn, name, saved.settings);
    if (saved.triangles.empty() || saved.triangles.size() % 3 != 0) {
      c.fail("triangles", "length must be a positive multiple of 3", saved.triangles.size());
    }
    const ParticleRange r = m.particles.bodies[saved.body];
    const std::span<const Real> rest(m.particles.restX.data() + 3 * size_t(r.begin), 3 * size_t(r.end - r.begin));
    SelfCollidingSurface surface = makeSelfCollidingSurface(kFn, saved.body, rest, std::move(saved.triangles), saved.settings);
    checkSelfCollisionThickness(kFn, name, surface.settings, surface.triangles, rest);
    m.reserveSelfSurface(surface);
    m.appendSelfSurface(std::move(surface));
  }
}

/// Closed surfaces: each constraint's slices within the shared vertex and triangle arrays.
template <class M> void checkSurfaces(const M& s) {
  const uint32_t n = uint32_t(s.particles.w.size());
  checkLength("surfaceVolumes: surfaceTriangles (a multiple of 3)", s.constraints.surfaceTriangles.size() % 3, 0);
  for (size_t k = 0; k < s.constraints.surfaceVolumes.size(); ++k) {
    const SurfaceVolumeConstraint& g = s.constraints.surfaceVolumes[k];
    const snapshot::ElementCheck c("surfaceVolumes", k);
    if (g.vertexCount == 0 || g.triangleCount == 0) c.fail("vertexCount", "and triangleCount must be > 0", g.vertexCount);
    c.index("firstVertex+vertexCount-1", uint64_t(g.firstVertex) + g.vertexCount - 1,
            s.constraints.surfaceVertices.size());
    c.index("firstTriangle+triangleCount-1", uint64_t(g.firstTriangle) + g.triangleCount - 1,
            s.constraints.surfaceTriangles.size() / 3);
    for (uint32_t v = 0; v < g.vertexCount; ++v)
      c.index("surface vertex", s.constraints.surfaceVertices[g.firstVertex + v], n);
    for (uint32_t t = 0; t < 3 * g.triangleCount; ++t) {
      c.index("surface triangle corner", s.constraints.surfaceTriangles[3 * size_t(g.firstTriangle) + t],
              g.vertexCount);
    }
    c.positive("restVolume", g.restVolume);
    c.atLeast("pressure", g.pressure, 0);
    c.strength(g.compliance, g.stiffness, g.kPrime);
  }
}

/// Shape matching clusters: slices of the three parallel member arrays.
template <class M> void checkShapeMatchings(const M& s) {
  const size_t members = s.constraints.shapeMatchingMembers.size();
  checkLength("shapeMatchings: restOffsets", s.constraints.shapeMatchingRestOffsets.size(), members);
  checkLength("shapeMatchings: masses", s.constraints.shapeMatchingMasses.size(), members);
  for (size_t k = 0; k < s.constraints.shapeMatchings.size(); ++k) {
    const ShapeMatchingCluster& cl = s.constraints.shapeMatchings[k];
    const snapshot::ElementCheck c("shapeMatchings", k);
    if (cl.memberCount < 2) c.fail("memberCount", "must be >= 2", cl.memberCount);
    c.index("firstMember+memberCount-1", uint64_t(cl.firstMember) + cl.memberCount - 1, members);
    c.strength(cl.compliance, cl.stiffness, cl.kPrime);
  }
  for (size_t k = 0; k < members; ++k) {
    const snapshot::ElementCheck c("shapeMatchingMembers", k);
    c.index("particle", s.constraints.shapeMatchingMembers[k], s.particles.w.size());
    c.finiteAll("restOffset", s.constraints.shapeMatchingRestOffsets[k]);
    c.positive("mass", s.constraints.shapeMatchingMasses[k]);
  }
}

/// Attachments, removed slots included, and the free list that hands their handles out again.
template <class M> void checkAttachments(const M& s) {
  snapshot::checkAll("attachments", s.constraints.attachments, uint32_t(s.particles.w.size()));
  for (size_t k = 0; k < s.constraints.attachments.size(); ++k) {  // section ATCC: the collider each one follows
    const Attachment& a = s.constraints.attachments[k];
    if (a.collider == kNoCollider) continue;
    const snapshot::ElementCheck c("attachments", k);
    if (!a.active) c.fail("collider", "must be none on a removed attachment", a.collider);
    c.index("collider", a.collider, s.collision.colliders.size());
    c.finiteAll("anchor", a.anchor);
  }
  std::vector<char> listed(s.constraints.attachments.size(), 0);
  for (size_t k = 0; k < s.constraints.freeAttachments.size(); ++k) {
    const snapshot::ElementCheck c("freeAttachments", k);
    const uint32_t h = s.constraints.freeAttachments[k];
    c.index("", h, s.constraints.attachments.size());
    if (s.constraints.attachments[h].active || listed[h]) c.fail("", "must name a removed attachment once", h);
    listed[h] = 1;
  }
  const size_t removed = size_t(std::count_if(s.constraints.attachments.begin(), s.constraints.attachments.end(),
                                              [](const Attachment& a) { return !a.active; }));
  checkLength("attachments: freeAttachments", s.constraints.freeAttachments.size(), removed);
}

/// The rods: every segment on two neighbouring particles of one body, joints between neighbouring segments of one rod,
/// unit frames, finite spins and torques (and their history); the derived arrays sized.
template <class M> void buildRods(M& m, M& s) {
  RodState& r = s.rods;
  const uint32_t n = uint32_t(s.particles.w.size());
  snapshot::checkAll("rods", r.segments, n);
  for (size_t k = 0; k < r.segments.size(); ++k) {
    if (r.segments[k].p1 >= n || m.bodyOf(r.segments[k].p0) != m.bodyOf(r.segments[k].p1))
      snapshot::ElementCheck("rods", k).fail("p1", "must be in p0's body", r.segments[k].p1);
  }
  // One joint between each two neighbouring segments of a rod, in order (projectRods finds the rods by them).
  size_t joint = 0;
  for (size_t k = 0; k + 1 < r.segments.size(); ++k) {
    if (r.segments[k].p1 != r.segments[k + 1].p0) continue;
    snapshot::ElementCheck c("rodJoints", joint);
    if (joint == r.joints.size() || r.joints[joint].segment != k) {
      c.fail("segment", "must join each two neighbouring segments, in order",
             joint < r.joints.size() ? r.joints[joint].segment : uint32_t(k));
    }
    c.finiteAll("restDarboux", r.joints[joint].restDarboux);
    for (int a = 0; a < 3; ++a) c.atLeast("compliance", r.joints[joint].compliance[a], 0);
    c.finiteAll("compliance", r.joints[joint].compliance);
    ++joint;
  }
  checkLength("rodJoints", r.joints.size(), joint);
  checkLength("rods: orientations", r.orientation.size(), r.segments.size());
  checkLength("rods: angular velocities", r.angularVelocity.size(), r.segments.size());
  checkLength("rods: torques", r.torque.size(), r.segments.size());
  checkLength("rods: previous orientations", r.prevOrientation.size(), r.segments.size());
  checkLength("rods: previous angular velocities", r.prevAngularVelocity.size(), r.segments.size());
  for (size_t k = 0; k < r.segments.size(); ++k) {
    snapshot::ElementCheck c("rods", k);
    snapshot::checkRotation(c, "orientation", r.orientation[k]);
    c.finiteAll("angularVelocity", r.angularVelocity[k]);
    c.finiteAll("torque", r.torque[k]);
    snapshot::checkRotation(c, "prevOrientation", r.prevOrientation[k]);
    c.finiteAll("prevAngularVelocity", r.prevAngularVelocity[k]);
  }
  m.rods.segments = std::move(r.segments);
  m.rods.joints = std::move(r.joints);
  m.rods.orientation = std::move(r.orientation);
  m.rods.angularVelocity = std::move(r.angularVelocity);
  m.rods.torque = std::move(r.torque);
  m.rods.prevOrientation = std::move(r.prevOrientation);
  m.rods.prevAngularVelocity = std::move(r.prevAngularVelocity);
  const size_t segments = m.rods.segments.size();
  m.rods.startOrientation = m.rods.orientation;
  m.rods.savedOrientation = m.rods.orientation;
  m.rods.savedAngularVelocity.assign(segments, Vec3::Zero());
  m.rods.stretchLambda.assign(segments, Vec3::Zero());
  m.rods.bendLambda.assign(m.rods.joints.size(), Vec3::Zero());
  m.rods.scratch.reserve(uint32_t(segments));
  m.rods.starts.reserve(segments + 1);
  m.rods.findRods();
}

/// Tearable bodies: in increasing body order, each one's triangles on its own particles, its torn sides and origins.
template <class M> void buildTearing(M& m, M& s) {
  auto& surfaces = s.tearing.surfaces;
  for (size_t k = 0; k < surfaces.size(); ++k) {
    const snapshot::ElementCheck c("tearing", k);
    TearableSurface& t = surfaces[k];
    c.index("body", t.body, m.particles.bodies.size());
    if (k > 0 && t.body <= surfaces[k - 1].body) c.fail("body", "must be above the previous one's", t.body);
    if (!(t.strain > 0)) c.fail("strain", "must be > 0", t.strain);
    const uint32_t n = m.particles.bodies[t.body].end - m.particles.bodies[t.body].begin;
    if (t.mesh.triangles.empty() || t.mesh.triangles.size() % 3 != 0)
      c.fail("triangles", "length must be a positive multiple of 3", t.mesh.triangles.size());
    for (uint32_t v : t.mesh.triangles) c.index("triangle corner", v, n);
    checkLength("tearing: tornSides", t.mesh.tornSides.size(), t.mesh.triangles.size() / 3);
    checkLength("tearing: origin", t.mesh.origin.size(), n);
    for (uint32_t v = 0; v < n; ++v) {
      c.index("origin", t.mesh.origin[v], n);
      if (t.mesh.origin[t.mesh.origin[v]] != t.mesh.origin[v]) c.fail("origin", "must name an unsplit particle", t.mesh.origin[v]);
    }
  }
  m.tearing.surfaces = std::move(surfaces);
  for (TearableSurface& t : m.tearing.surfaces) {
    const ParticleRange r = m.particles.bodies[t.body];
    watchEdges(t, {m.particles.restX.data() + 3 * size_t(r.begin), 3 * size_t(r.end - r.begin)});
  }
  for (const TearableSurface& t : m.tearing.surfaces) {  // a torn body's copies are their origins to self-collision
    SelfCollidingSurface* self = m.selfSurfaceOf(t.body);
    const std::vector<uint32_t>& o = t.mesh.origin;
    bool split = false;
    for (uint32_t v = 0; v < o.size() && !split; ++v) split = o[v] != v;
    if (self && split) self->identity = o;
  }
}

/// Builds the fresh world `fresh` (state `m`) from the parsed, unchecked `s`: checks every value, rebuilds the
/// derived data and reserves what step() needs, exactly as the add functions would have.
template <class M> void build(World& fresh, M& m, M& s, const LoaderScratch& scratch) {
  fresh.setSettings(s.settings);
  fresh.setRecordResiduals(s.diagnostics.recordResiduals);
  if (s.constraints.kPrimeIterations != 0)
    check::inRange(kFn, "kPrimeIterations", s.constraints.kPrimeIterations, 1, 1000);
  buildParticles(m, s, scratch);
  const uint32_t n = m.count();
  size_t meshes = 0;
  if (!scratch.colliderStaticFriction.empty() || !scratch.bodyStaticFriction.empty()) {  // section SFRC
    checkLength("staticFriction: colliders", scratch.colliderStaticFriction.size(), s.collision.colliders.size());
  }
  for (size_t k = 0; k < s.collision.colliders.size(); ++k) {
    const snapshot::ElementCheck c("colliders", k);
    // A mesh collider's def held views of its arrays: from a blob they are wild pointers, replaced by the saved mesh.
    ColliderDef def = s.collision.colliders[k].def;
    if (!scratch.colliderStaticFriction.empty()) def.staticFriction = scratch.colliderStaticFriction[k];  // SFRC
    def.meshPositions = {};
    def.meshTriangles = {};
    const bool isMesh = def.shape == ColliderShape::TriangleMesh;
    if (isMesh) {
      if (meshes >= scratch.meshes.size()) c.fail("", "is a triangle mesh, but the snapshot holds no mesh for it", k);
      def.meshPositions = scratch.meshes[meshes].positions;
      def.meshTriangles = scratch.meshes[meshes].triangles;
    }
    try {
      fresh.addCollider(def);  // checks shape, material and mesh as for any collider
    } catch (const InvalidArgument& e) {
      throw SnapshotError(std::string(kFn) + ": colliders[" + std::to_string(k) + "]: " + e.what());
    }
    snapshot::checkPoses(c, s.collision.colliders[k]);
    // The saved poses, bit for bit (addCollider re-normalized the rotation and set every pose to the end pose).
    const Collider& saved = s.collision.colliders[k];
    Collider& col = m.collision.colliders[k];
    col.def.position = saved.def.position, col.def.rotation = saved.def.rotation;
    col.startPosition = saved.startPosition, col.startRotation = saved.startRotation;
    col.subStartPosition = saved.subStartPosition, col.subEndPosition = saved.subEndPosition;
    col.subStartRotation = saved.subStartRotation, col.subEndRotation = saved.subEndRotation;
    if (isMesh) {
      const LoaderScratch::SavedMesh& mesh = scratch.meshes[meshes++];
      checkLength("meshes: inside", mesh.inside.size(), n);
      for (size_t i = 0; i < n; ++i) {
        if (mesh.inside[i] > 1) c.fail(("inside[" + std::to_string(i) + "]").c_str(), "must be 0 or 1", mesh.inside[i]);
      }
      MeshShape& shape = m.collision.meshShapes[col.mesh];
      shape.resizeParticles(n);
      shape.forgetClearances();  // a cache: starting it empty changes no result
      shape.inside.assign(mesh.inside.begin(), mesh.inside.end());
      shape.insideUnknown = mesh.insideUnknown;
    }
  }
  checkLength("meshes", scratch.meshes.size(), meshes);
  buildSelfSurfaces(m, s);
  buildDistances(m, s);
  snapshot::checkAll("dihedrals", s.constraints.dihedrals, n);
  snapshot::checkAll("volumes", s.constraints.volumes, n);
  snapshot::checkAll("tethers", s.constraints.tethers, n);
  snapshot::checkAll("neoHookeans", s.constraints.neoHookeans, n);
  snapshot::checkAll("triangleStrains", s.constraints.triangleStrains, n);
  checkSurfaces(s);
  checkShapeMatchings(s);
  checkAttachments(s);
  snapshot::checkAll("skinned", s.constraints.skinned, n);
  std::vector<char> skinnedParticle(n, 0);  // at most one per particle, as addSkinnedConstraints allows
  for (size_t k = 0; k < s.constraints.skinned.size(); ++k) {
    char& seen = skinnedParticle[s.constraints.skinned[k].particle];
    if (seen) snapshot::ElementCheck("skinned", k).fail("particle", "already has a skinned constraint", s.constraints.skinned[k].particle);
    seen = 1;
  }
  m.constraints.dihedrals = std::move(s.constraints.dihedrals);
  m.constraints.volumes = std::move(s.constraints.volumes);
  m.constraints.tethers = std::move(s.constraints.tethers);
  m.constraints.neoHookeans = std::move(s.constraints.neoHookeans);
  m.constraints.triangleStrains = std::move(s.constraints.triangleStrains);
  m.constraints.surfaceVolumes = std::move(s.constraints.surfaceVolumes);
  m.constraints.surfaceVertices = std::move(s.constraints.surfaceVertices);
  m.constraints.surfaceTriangles = std::move(s.constraints.surfaceTriangles);
  m.constraints.shapeMatchings = std::move(s.constraints.shapeMatchings);
  m.constraints.shapeMatchingMembers = std::move(s.constraints.shapeMatchingMembers);
  m.constraints.shapeMatchingRestOffsets = std::move(s.constraints.shapeMatchingRestOffsets);
  m.constraints.shapeMatchingMasses = std::move(s.constraints.shapeMatchingMasses);
  m.constraints.attachments = std::move(s.constraints.attachments);
  m.constraints.freeAttachments = std::move(s.constraints.freeAttachments);
  m.constraints.freeAttachments.reserve(m.constraints.attachments.size());  // so removeAttachment never allocates
  m.constraints.skinned = std::move(s.constraints.skinned);
  m.constraints.skinnedFrames.resize(m.constraints.skinned.size());
  buildRods(m, s);
  buildTearing(m, s);
  // Multipliers: zeroed at every substep, only their sizes matter.
  m.constraints.dihedralLambda.assign(m.constraints.dihedrals.size(), 0);
  m.constraints.volumeLambda.assign(m.constraints.volumes.size(), 0);
  m.constraints.neoHookeanLambda.assign(2 * m.constraints.neoHookeans.size(), 0);
  m.reserveElementOrders(
      m.particles.w.size());  // sweep orders, rebuilt (as after any added element) before the next step
  m.solverData.elementOrdersDirty = true;
  // k' derived again from the strengths before the next step: the same values for a blob of this version, and the
  // current formula for an older one's (strain triangles' k' used to be for one projection an iteration).
  m.constraints.kPrimeIterations = 0;
  m.solverData.vbd.dirty = true;
  std::vector<Real> penalties = scratch.vbdPenalties;  // section VBDP
  // A blob from before strain triangles were VBD's elements has none for them: the penalties start over.
  const size_t triangles = m.constraints.triangleStrains.size();
  if (triangles > 0 && penalties.size() + triangles == m.vertexBlockDescentElementCount()) penalties.clear();
  if (!penalties.empty()) {
    checkLength("vbdPenalties", penalties.size(), m.vertexBlockDescentElementCount());
    for (size_t k = 0; k < penalties.size(); ++k) {
      if (!(penalties[k] >= 0 && std::isfinite(penalties[k])))
        snapshot::ElementCheck("vbdPenalties", k).fail("penalty", "must be finite and >= 0", penalties[k]);
    }
  }
  m.solverData.vbd.setPenalties(std::move(penalties));
  m.reserveIslands(m.particles.bodies.size(),
                   m.particles.w.size());  // the islands of the angular momentum guard, rebuilt before the next step
  m.islands.islandsDirty = true;
  m.constraints.triangleStrainLambda.assign(3 * m.constraints.triangleStrains.size(), 0);
  m.constraints.surfaceVolumeLambda.assign(m.constraints.surfaceVolumes.size(), 0);
  m.constraints.shapeMatchingLambda.assign(m.constraints.shapeMatchings.size(), 0);
  m.constraints.attachmentLambda.assign(m.constraints.attachments.size(), 0);
  m.constraints.attachmentMomenta.assign(m.constraints.attachments.size(), Eigen::Vector3d::Zero());
  uint32_t largestSurface = 0;
  for (const SurfaceVolumeConstraint& g : m.constraints.surfaceVolumes)
    largestSurface = std::max(largestSurface, g.vertexCount);
  m.constraints.volumeGradient.resize(largestSurface);
  m.constraints.kPrimeIterations = s.constraints.kPrimeIterations;
  m.hasStepped = s.hasStepped;
  m.steppedSettings = s.steppedSettings;
}

}  // namespace

void World::loadSnapshot(const uint8_t* data, size_t size) {
  if (!data && size != 0) throw SnapshotError("loadSnapshot: data is null");
  static const uint8_t kNothing = 0;
  auto staged = std::make_unique<Impl>();  // the parsed blob, unchecked
  LoaderScratch scratch;
  parse(data ? data : &kNothing, size, *staged, scratch);
  World fresh(impl_->pool == &impl_->serial ? nullptr : impl_->pool);
  fresh.setPoolUse(impl_->poolUse);  // how it runs is not in snapshots
  try {
    build(fresh, *fresh.impl_, *staged, scratch);
  } catch (const SnapshotError&) {
    throw;
  } catch (const InvalidArgument& e) {  // a value the add functions refuse: name it as a snapshot problem
    const std::string what = e.what();
    throw SnapshotError(what.rfind(kFn, 0) == 0 ? what : std::string(kFn) + ": " + what);
  }
  impl_.swap(fresh.impl_);  // the old state goes with `fresh`; nothing above touched this world
}

/// The world as loadSnapshot of its own snapshot, edited by edit(staged, scratch), would make it; with what snapshots
/// do not hold carried over: the colliders' motions, how it runs, the last step's report, timings, impulses and
/// tears (its contacts name particles, and go).
template <class Edit>
auto World::rebuildWith(Edit edit) {
  const std::vector<uint8_t> blob = saveSnapshot();
  auto staged = std::make_unique<Impl>();
  LoaderScratch scratch;
  parse(blob.data(), blob.size(), *staged, scratch);
  auto result = edit(*staged, scratch);
  World fresh(impl_->pool == &impl_->serial ? nullptr : impl_->pool);
  fresh.setPoolUse(impl_->poolUse);
  build(fresh, *fresh.impl_, *staged, scratch);  // what is left passed every check when it was added
  Impl& m = *fresh.impl_;
  m.collision.motions = impl_->collision.motions;  // not in snapshots; the colliders are as they were
  // The last step's impulses on the colliders and through the attachments (colliderImpulse, attachmentImpulse): a
  // coupled engine reads them after a step that tore. Neither edit changes the colliders or the attachment slots.
  m.collision.contactMomenta = impl_->collision.contactMomenta;
  if (impl_->constraints.attachmentMomenta.size() == m.constraints.attachments.size()) {  // removeBody may clear them
    m.constraints.attachmentMomenta = impl_->constraints.attachmentMomenta;
    m.constraints.attachmentMomentaMeasured = impl_->constraints.attachmentMomentaMeasured;
  }
  m.fusePasses = impl_->fusePasses;
  m.diagnostics.report = impl_->diagnostics.report;
  m.diagnostics.clock.enabled = impl_->diagnostics.clock.enabled;
  m.diagnostics.timings = impl_->diagnostics.timings;
  m.tearing.lastTears = std::move(impl_->tearing.lastTears);
  impl_.swap(fresh.impl_);
  return result;
}

BodyRemoval World::removeBody(uint32_t body) {
  check::index("removeBody", "body", body, bodyCount());
  return rebuildWith([&](Impl& staged, LoaderScratch& scratch) { return body_removal::removeBody(staged, scratch, body); });
}

TearReport World::tearEdges(uint32_t body, std::span<const uint32_t> edges) {
  impl_->checkTearEdges("tearEdges", body, edges);
  return rebuildWith([&](Impl& staged, LoaderScratch& scratch) {
    return body_tearing::tearBody("tearEdges", staged, scratch, body, edges);
  });
}

void World::tearOverstretchedEdges() {
  for (size_t k = 0; k < impl_->tearing.surfaces.size(); ++k) {
    TearableSurface& surface = impl_->tearing.surfaces[k];
    if (!impl_->findOverstretchedEdges(surface)) continue;
    const std::vector<uint32_t> edges = std::move(impl_->tearing.overstretched);
    TearReport report = tearEdges(surface.body, edges);  // rebuilds the world: `surface` is gone
    impl_->tearing.lastTears.push_back(std::move(report));
  }
}

std::vector<uint8_t> World::saveSnapshot() const {
  io::ByteWriter out;
  out.bytes(kMagic, 4);
  out.u32(kFormatVersion);
  out.u32(0);
  const size_t payload = out.beginBlock();
  Impl& m = *impl_;  // the writer only reads; describe() takes references for both directions
  Writer writer(out);
  for (const Section<Impl>& s : kSections<Impl>) {
    out.u32(s.tag);
    const size_t at = out.beginBlock();
    s.save(writer, m);
    out.endBlock(at);
  }
  out.endBlock(payload);
  out.u64(io::fnv1a64(out.data(), out.size()));
  return std::move(out.buffer());
}

}  // namespace pbd
