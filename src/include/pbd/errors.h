// The one exception type the library throws for bad input.
#pragma once

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

}  // namespace pbd
