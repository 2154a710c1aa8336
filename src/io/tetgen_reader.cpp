// TetGen .node/.ele (https://wias-berlin.de/software/tetgen/fformats.html). Header counts are checked against
// limits and against the lines actually present; memory is reserved from the text size, never from a header.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "io/line_scanner.h"
#include "pbd/mesh_io.h"

namespace pbd {
namespace {

// Refused before reading further: no world holds more (pbd::kMaxParticles, and tets as volume constraints).
constexpr int64_t kMaxPoints = int64_t{1} << 24;
constexpr int64_t kMaxTets = int64_t{1} << 26;
constexpr int64_t kMaxAttributes = 1 << 20;  // only to keep the expected-values arithmetic far from overflow

// Reads the header value after the counts, or `fallback` when the line ends (TetGen's own defaults).
int64_t optional(io::LineScanner& in, const char* what, int64_t fallback) {
  return in.remainingTokens() > 0 ? in.integer(what) : fallback;
}

void expectRange(const io::LineScanner& in, const char* what, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    in.fail(std::string(what) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
            std::to_string(value) + ")");
  }
}

// The two kinds of numbered lines.
struct Record {
  const char* name;   // "point", for messages
  const char* index;  // "point index"
  const char* count;  // "point count"
  int64_t maxCount;   // larger header counts are refused
  // The shortest possible line, "0 0 0 0\n" or "0 0 0 0 0\n": a text of n bytes cannot hold more than n / this
  // many records, so reserving min(header count, n / this) is safe whatever the header claims.
  size_t minLineBytes;
};
constexpr Record kPoint{"point", "point index", "point count", kMaxPoints, 8};
constexpr Record kTet{"tet", "tet index", "tet count", kMaxTets, 10};

// Reads the header line up to its first value, the record count, and returns that count checked against the limit.
int64_t readCount(io::LineScanner& in, const Record& record) {
  if (!in.nextLine()) in.failFile("file is empty (no header)");
  const int64_t count = in.integer(record.count);
  expectRange(in, record.count, count, 1, record.maxCount);
  return count;
}

size_t reservation(int64_t count, std::string_view text, const Record& record) {
  return std::min(static_cast<size_t>(count), text.size() / record.minLineBytes);
}

// Moves to record `i` of `count` and reads its index; the first fixes the numbering base (0 or 1), after which
// the indices must be consecutive.
void nextRecord(io::LineScanner& in, const Record& record, int64_t i, int64_t count, int64_t& base) {
  if (!in.nextLine()) {
    in.fail("expected " + std::to_string(count) + ' ' + record.name + "s as the header says, but the file ends after " +
            std::to_string(i));
  }
  const int64_t index = in.integer(record.index);
  if (i == 0) {
    if (index != 0 && index != 1) in.fail("first " + std::string(record.index) + " must be 0 or 1 (got " +
                                          std::to_string(index) + ")");
    base = index;
  } else if (index != base + i) {
    in.fail(std::string(record.index) + ' ' + std::to_string(index) + " is out of sequence (expected " +
            std::to_string(base + i) + ")");
  }
}

void expectAtMost(const io::LineScanner& in, size_t maxRemaining, const std::string& layout) {
  if (in.remainingTokens() > maxRemaining) in.fail("too many values (expected " + layout + ")");
}

void expectEnd(io::LineScanner& in, int64_t count, const Record& record) {
  if (in.nextLine()) {
    in.fail("unexpected data after the " + std::to_string(count) + ' ' + record.name + "s the header declares");
  }
}

// Returns the numbering base of the points.
int64_t readNodes(std::string_view text, std::vector<float>& positions) {
  io::LineScanner in(text, "readTetGen", ".node");
  const int64_t count = readCount(in, kPoint);
  const int64_t dim = optional(in, "dimension", 3);
  const int64_t attributes = optional(in, "attribute count", 0);
  const int64_t markers = optional(in, "boundary marker flag", 0);
  expectAtMost(in, 0, "<points> <dimension> <attributes> <boundary markers>");
  expectRange(in, "dimension", dim, 3, 3);
  expectRange(in, "attribute count", attributes, 0, kMaxAttributes);
  expectRange(in, "boundary marker flag", markers, 0, 1);

  positions.reserve(3 * reservation(count, text, kPoint));
  const std::string layout = "index x y z, " + std::to_string(attributes) + " attributes" +
                             (markers ? ", a boundary marker" : "");
  int64_t base = 0;
  for (int64_t i = 0; i < count; ++i) {
    nextRecord(in, kPoint, i, count, base);
    for (int a = 0; a < 3; ++a) positions.push_back(in.real("coordinate"));
    expectAtMost(in, static_cast<size_t>(attributes + markers), layout);
    // Attributes and markers may be missing (TetGen writes them, hand-made files often do not); present ones
    // must be numbers.
    for (int64_t k = 0; k < attributes && in.remainingTokens() > 0; ++k) in.real("attribute");
    if (markers && in.remainingTokens() > 0) in.integer("boundary marker");
  }
  expectEnd(in, count, kPoint);
  return base;
}

void readElements(std::string_view text, int64_t nodeBase, size_t nodeCount, std::vector<uint32_t>& tets) {
  io::LineScanner in(text, "readTetGen", ".ele");
  const int64_t count = readCount(in, kTet);
  const int64_t nodesPerTet = optional(in, "nodes per tet", 4);
  const int64_t region = optional(in, "region attribute flag", 0);
  expectAtMost(in, 0, "<tets> <nodes per tet> <region attribute>");
  if (nodesPerTet != 4 && nodesPerTet != 10) in.fail("nodes per tet must be 4 or 10 (got " +
                                                     std::to_string(nodesPerTet) + ")");
  expectRange(in, "region attribute flag", region, 0, 1);

  tets.reserve(4 * reservation(count, text, kTet));
  const std::string last = std::to_string(nodeBase + static_cast<int64_t>(nodeCount) - 1);
  const std::string layout = "index, " + std::to_string(nodesPerTet) + " nodes" + (region ? ", a region" : "");
  int64_t base = 0;
  for (int64_t i = 0; i < count; ++i) {
    nextRecord(in, kTet, i, count, base);
    for (int64_t k = 0; k < nodesPerTet; ++k) {
      const int64_t node = in.integer("node index");
      if (node < nodeBase || node - nodeBase >= static_cast<int64_t>(nodeCount)) {
        in.fail("node index " + std::to_string(node) + " is out of range [" + std::to_string(nodeBase) + ", " +
                last + "]");
      }
      // The mid-edge nodes of quadratic tets are checked, then dropped: the solver uses linear tets.
      if (k < 4) tets.push_back(static_cast<uint32_t>(node - nodeBase));
    }
    expectAtMost(in, static_cast<size_t>(region), layout);
    if (region && in.remainingTokens() > 0) in.real("region attribute");
  }
  expectEnd(in, count, kTet);
}

}  // namespace

TetMeshData readTetGen(std::string_view nodeText, std::string_view eleText) {
  TetMeshData mesh;
  const int64_t base = readNodes(nodeText, mesh.positions);
  readElements(eleText, base, mesh.positions.size() / 3, mesh.tets);
  return mesh;
}

}  // namespace pbd
