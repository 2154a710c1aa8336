// The OBJ and TetGen readers: the accepted syntax variants, one MeshParseError naming the right line for each kind
// of malformed input, and a deterministic fuzz loop (mutated valid files must parse or throw MeshParseError).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "native/expect_error.h"
#include "pbd/errors.h"
#include "pbd/mesh_io.h"

using namespace pbd;

namespace {

/// The call must throw MeshParseError at `line` whose message contains every fragment.
template <class F>
void expectParseError(F&& call, size_t line, std::initializer_list<const char*> fragments) {
  const auto e = expectError<MeshParseError>(call, fragments);
  if (e) {
    EXPECT_EQ(e->line(), line) << e->what();
  }
}

void expectObjError(const std::string& text, size_t line, std::initializer_list<const char*> fragments) {
  SCOPED_TRACE(text);
  expectParseError([&] { readObj(text); }, line, fragments);
}

// A unit cube corner set 0-based and 1-based, split into 5 tets; used by the TetGen tests.
const char* kNode =
    "# unit cube\n"
    "8 3 1 1\n"
    "1 0 0 0 0.5 1\n"
    "2 1 0 0 0.5 1\n"
    "3 1 1 0 0.5 1\n"
    "4 0 1 0 0.5 1\n"
    "5 0 0 1 0.5 1\n"
    "6 1 0 1 0.5 1\n"
    "7 1 1 1 0.5 1   # trailing comment\n"
    "8 0 1 1 0.5 1\n";
const char* kEle =
    "5 4 1\n"
    "1 1 2 4 5 7\n"
    "2 2 3 4 7 7\n"
    "\n"
    "3 2 5 6 7 7\n"
    "4 4 5 7 8 7\n"
    "5 2 4 5 7 7\n";

const char* kObj =
    "# a quad and a triangle\r\n"
    "mtllib cube.mtl\r\n"
    "o thing\r\n"
    "v 0 0 0\r\n"
    "v 1 0 0 1.0\r\n"
    "v 1 1 0\r\n"
    "v 0 1 -2.5e-1\r\n"
    "vt 0 0\r\n"
    "vn 0 0 1\r\n"
    "g group\r\n"
    "usemtl red\r\n"
    "s off\r\n"
    "f 1/1/1 2/1/1 3/1/1 4/1/1\r\n"
    "l 1 2\r\n"
    "f -4//1 -2//1 -1//1\r\n"
    "f 1/1 3/1 4/1";  // no newline at the end

}  // namespace

TEST(ObjReader, ReadsVerticesAndFanTriangulatesFaces) {
  const SurfaceMesh m = readObj(kObj);
  EXPECT_EQ(m.positions, (std::vector<float>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, -0.25f}));
  EXPECT_EQ(m.triangles, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 2, 3, 0, 2, 3}));
}

TEST(ObjReader, NegativeIndicesCountBackFromTheLastVertexSoFar) {
  const SurfaceMesh m = readObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf -1 -3 -4\n");
  EXPECT_EQ(m.triangles, (std::vector<uint32_t>{0, 1, 2, 3, 1, 0}));
}

TEST(ObjReader, AcceptsTabsVertexColoursAndPentagons) {
  const SurfaceMesh m = readObj("v\t0 0 0 1 0 0\nv 1 0 0\nv 1 1 0\nv 0.5 2 0\nv 0 1 0\nf 1 2 3 4 5\n");
  EXPECT_EQ(m.positions.size(), 15u);
  EXPECT_EQ(m.triangles, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4}));
}

TEST(ObjReader, MalformedInputNamesTheLine) {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  expectObjError("v 1 2\n", 1, {"readObj: line 1:", "expected 3 coordinates"});
  expectObjError("# c\n\nv 1 2 3 4 5\n", 3, {"line 3", "expected 3 coordinates"});
  expectObjError("v 1 nan 0\n", 1, {"coordinate is not a finite number (got 'nan')"});
  expectObjError("v 1 -inf 0\n", 1, {"not a finite number"});
  expectObjError("v 1 1e39 0\n", 1, {"not a finite number (got '1e39')"});
  expectObjError("v 1 0x10 0\n", 1, {"coordinate is not a number (got '0x10')"});
  expectObjError("v 1 1.2.3 0\n", 1, {"not a number"});
  expectObjError("v 1 2 3\xff\n", 1, {"got '3\\xff'"});
  expectObjError(tri + "f 1 2\n", 4, {"face needs at least 3 vertices (got 2)"});
  expectObjError(tri + "f 1 2 0\n", 4, {"face index 0 is invalid"});
  expectObjError(tri + "\n\nf 1 2 57\n", 6, {"readObj: line 6: face index 57 is out of range [1, 3]"});
  expectObjError(tri + "f -1 -2 -4\n", 4, {"face index -4 is out of range [-3, -1]"});
  expectObjError("f 1 2 3\nv 0 0 0\n", 1, {"none is defined above"});
  expectObjError(tri + "f 1/ 2 3\n", 4, {"face vertex must be a, a/b, a//c or a/b/c (got '1/')"});
  expectObjError(tri + "f 1 2// 3\n", 4, {"got '2//'"});
  expectObjError(tri + "f 1 2/x/1 3\n", 4, {"texture index is not an integer (got 'x')"});
  expectObjError(tri + "f 1 2 3/1/2/3\n", 4, {"normal index is not an integer (got '2/3')"});
  expectObjError(tri + "f 1 2 1.5\n", 4, {"face index is not an integer"});
  expectObjError(tri + "f 1 2 99999999999999999999\n", 4, {"face index is too large"});
  expectObjError(tri + "vx 1 2 3\n", 4, {"unknown statement 'vx'"});
  expectObjError(std::string("v 0 0 0\n\0garbage\n", 17), 2, {"unknown statement '\\x00garbage'"});
  expectObjError("v 0 0 " + std::string(200, '1') + "\n", 1, {"too long to be a number (200 characters)"});
}

TEST(ObjReader, EmptyMeshesAreAboutTheWholeFile) {
  expectObjError("", 0, {"readObj: mesh is empty (no vertices)"});
  expectObjError("# nothing\r\n\r\n   \n", 0, {"no vertices"});
  expectObjError("v 0 0 0\nv 1 0 0\nvn 0 0 1\n", 0, {"readObj: mesh is empty (no faces)"});
}

TEST(ObjReader, ParseErrorIsAnInvalidArgument) {
  EXPECT_THROW(readObj("v 1 2\n"), InvalidArgument);
}

TEST(TetGenReader, ReadsOneBasedNodesWithAttributesAndMarkers) {
  const TetMeshData m = readTetGen(kNode, kEle);
  ASSERT_EQ(m.positions.size(), 24u);
  EXPECT_EQ(std::vector<float>(m.positions.begin() + 18, m.positions.end()), (std::vector<float>{1, 1, 1, 0, 1, 1}));
  EXPECT_EQ(m.tets, (std::vector<uint32_t>{0, 1, 3, 4, 1, 2, 3, 6, 1, 4, 5, 6, 3, 4, 6, 7, 1, 3, 4, 6}));
}

TEST(TetGenReader, ReadsZeroBasedNodesQuadraticTetsAndShortHeaders) {
  const TetMeshData m = readTetGen("4\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1",
                                   "1 10\n0 0 1 2 3 0 1 2 3 0 1\n");
  EXPECT_EQ(m.positions, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(m.tets, (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST(TetGenReader, MalformedInputNamesTheFileAndLine) {
  auto node = [](const std::string& n) { return [n] { readTetGen(n, kEle); }; };
  auto ele = [](const std::string& e) { return [e] { readTetGen(kNode, e); }; };
  const std::string tet = "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
  expectParseError(node(""), 0, {"readTetGen: .node: file is empty"});
  expectParseError(node("4 2 0 0\n"), 1, {"readTetGen: .node line 1: dimension must be in [3, 3] (got 2)"});
  expectParseError(node("33554432 3 0 0\n0 0 0 0\n"), 1, {"point count must be in [1, 16777216]"});
  expectParseError(node("-1 3 0 0\n"), 1, {"point count"});
  expectParseError(node("4 3 0 2\n"), 1, {"boundary marker flag"});
  expectParseError(node("4 3 0 0 7\n"), 1, {"too many values"});
  expectParseError(node("4 3 0 0\n2 0 0 0\n"), 2, {"first point index must be 0 or 1 (got 2)"});
  expectParseError(node("4 3 0 0\n0 0 0 0\n2 0 0 0\n"), 3, {"point index 2 is out of sequence (expected 1)"});
  expectParseError(node("4 3 0 0\n0 0 0 0\n1 0 0\n"), 3, {"expected coordinate"});
  expectParseError(node("4 3 0 0\n0 0 0 0\n1 0 0 0 9\n"), 3, {"too many values"});
  expectParseError(node("4 3 0 0\n0 0 0 0\n1 0 0 0\n"), 3, {"expected 4 points", "file ends after 2"});
  expectParseError(node(tet + "4 1 1 1\n"), 6, {"unexpected data after the 4 points"});
  expectParseError([&] { readTetGen(tet, "1 4 0\n0 0 1 2 99\n"); }, 2,
                   {"readTetGen: .ele line 2: node index 99 is out of range [0, 3]"});
  expectParseError(ele("5 4 1\n1 1 2 4 5 7\n2 2 3 4 7 7\n\n3 2 5 6 7 7\n4 4 5 7 0 7\n"), 6,
                   {".ele line 6: node index 0 is out of range [1, 8]"});
  expectParseError(ele("1 5 0\n1 1 2 3 4\n"), 1, {"nodes per tet must be 4 or 10 (got 5)"});
  expectParseError(ele("1 4 0\n1 1 2 3\n"), 2, {"expected node index"});
  expectParseError(ele("1 4 0\n1 1 2 3 4 5\n"), 2, {"too many values"});
  expectParseError(ele("67108865 4 0\n"), 1, {"tet count must be in [1, 67108864]"});
  expectParseError(ele("999999999999 4 0\n1 1 2 3 4\n"), 1, {"tet count"});
  expectParseError(ele("3 4 0\n1 1 2 3 4\n"), 2, {"expected 3 tets", "ends after 1"});
  expectParseError(ele("  # only a comment\n"), 0, {"readTetGen: .ele: file is empty"});
}

TEST(TetGenReader, HugeHeaderCountWithFewLinesIsRejectedCheaply) {
  // 2^24 points are allowed by the header check; the reservation follows the 30-byte text, not the header.
  expectParseError([] { readTetGen("16777216 3 0 0\n0 0 0 0\n", kEle); }, 2, {"file ends after 1"});
}

// Random byte flips, truncations, inserted digits and deleted bytes of a valid file: every variant must either
// parse to a consistent mesh or throw MeshParseError. Seeded, so a failure reproduces.
namespace {

std::string mutate(const std::string& text, std::mt19937& rng) {
  std::string s = text;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng() % s.size();
    switch (rng() % 5) {
      case 0: s[at] = static_cast<char>(rng() % 256); break;
      case 1: s.resize(at); break;
      case 2: s.insert(at, std::string(1 + rng() % 30, static_cast<char>('0' + rng() % 10))); break;
      case 3: s.erase(at, 1 + rng() % 8); break;
      default: s.insert(at, 1, "-./ \n#e+"[rng() % 8]); break;
    }
  }
  return s;
}

template <class Mesh>
void expectConsistent(const Mesh& m, const std::vector<uint32_t>& indices) {
  ASSERT_EQ(m.positions.size() % 3, 0u);
  for (uint32_t i : indices) ASSERT_LT(i, m.positions.size() / 3);
}

}  // namespace

TEST(ObjReader, FuzzedInputParsesOrThrowsMeshParseError) {
  std::mt19937 rng(12345);
  int parsed = 0;
  for (int k = 0; k < 5000; ++k) {
    const std::string text = mutate(kObj, rng);
    try {
      const SurfaceMesh m = readObj(text);
      expectConsistent(m, m.triangles);
      ASSERT_EQ(m.triangles.size() % 3, 0u);
      ++parsed;
    } catch (const MeshParseError&) {
    }
  }
  EXPECT_GT(parsed, 0);  // the mutations are not all fatal, so the success path is fuzzed too
}

TEST(TetGenReader, FuzzedInputParsesOrThrowsMeshParseError) {
  std::mt19937 rng(678);
  int parsed = 0;
  for (int k = 0; k < 5000; ++k) {
    const bool node = k % 2 == 0;
    const std::string n = node ? mutate(kNode, rng) : kNode, e = node ? kEle : mutate(kEle, rng);
    try {
      const TetMeshData m = readTetGen(n, e);
      expectConsistent(m, m.tets);
      ASSERT_EQ(m.tets.size() % 4, 0u);
      ++parsed;
    } catch (const MeshParseError&) {
    }
  }
  EXPECT_GT(parsed, 0);
}
