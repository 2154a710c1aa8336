// The one exception type the library throws for bad input.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace pbd {

/// Thrown by every public entry point that rejects its input. The message has the form
/// "<function>: <argument> <reason>", e.g. "addDistanceConstraint: j is out of range (got 7, particle count 4)".
/// When it is thrown the world is unchanged (strong exception guarantee).
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Thrown by long-running entry points that take a progress callback (e.g. pbd::tetrahedralize) when the callback
/// returns false. The operation is abandoned: nothing is returned and no partial result is kept.
class Cancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by the mesh file readers (readObj, readTetGen) for malformed text. The message has the form
/// "<function>: line <n>: <reason>" (readTetGen names the file: "readTetGen: .ele line <n>: <reason>").
/// Derives from InvalidArgument so that callers catching InvalidArgument see it too.
class MeshParseError : public InvalidArgument {
 public:
  MeshParseError(const std::string& message, size_t line) : InvalidArgument(message), line_(line) {}
  /// 1-based line of the offending text; 0 when the error concerns the whole file (e.g. "mesh is empty").
  size_t line() const noexcept { return line_; }

 private:
  size_t line_;
};

/// Thrown by World::loadSnapshot for a blob it cannot load: bad magic, a format version newer than the library's,
/// a checksum mismatch, a truncated or malformed section, an unknown required section, or a value that the add*
/// functions would reject (NaN, index out of range...). The message has the form "loadSnapshot: <reason>". When it
/// is thrown the world is unchanged. Derives from InvalidArgument so that callers catching InvalidArgument see it too.
class SnapshotError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

}  // namespace pbd
