#include "io/line_scanner.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "pbd/errors.h"

namespace pbd::io {
namespace {

// Whitespace within a line. Tested per byte: std::string_view::find_first_of would call memchr per byte.
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

size_t skipSpace(std::string_view s, size_t i) {
  while (i < s.size() && isSpace(s[i])) ++i;
  return i;
}

size_t skipToken(std::string_view s, size_t i) {
  while (i < s.size() && !isSpace(s[i])) ++i;
  return i;
}

// Longer numeric tokens are refused rather than copied: no float needs more than ~40 characters, and a bound keeps
// the strtof fallback on a stack buffer.
constexpr size_t kMaxNumberLength = 128;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Skips a run of digits starting at `i`; returns how many there were.
size_t digits(std::string_view s, size_t& i) {
  const size_t start = i;
  while (i < s.size() && isDigit(s[i])) ++i;
  return i - start;
}

// [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)? -- the one syntax both conversions below agree on (from_chars would
// refuse '+', strtof would take hex floats, "infinity" and leading spaces), so results match natively and in wasm.
bool isDecimal(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t mantissa = digits(s, i);
  if (i < s.size() && s[i] == '.') mantissa += digits(s, ++i);
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    if (++i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits(s, i) == 0) return false;
  }
  return i == s.size();
}

bool isNonFiniteWord(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  auto is = [&](std::string_view word) {
    if (s.size() != word.size()) return false;
    for (size_t i = 0; i < s.size(); ++i) {
      if ((s[i] | 0x20) != word[i]) return false;  // ASCII lower-casing; word is lower case
    }
    return true;
  };
  return is("nan") || is("inf") || is("infinity");
}

// Converts a token that passed isDecimal. Out of float range gives ±inf (overflow) or 0/subnormal (underflow).
float toFloat(std::string_view s) {
#if defined(__cpp_lib_to_chars)
  // Locale-independent. Emscripten 3.1.6's libc++ lacks the float overload; it takes the strtof path below.
  const std::string_view unsigned_ = s[0] == '+' ? s.substr(1) : s;
  float value = 0;
  const auto r = std::from_chars(unsigned_.data(), unsigned_.data() + unsigned_.size(), value);
  if (r.ec == std::errc()) return value;
  // result_out_of_range does not say which way; strtof does (rare, so its locale dependence hardly matters).
#endif
  char buffer[kMaxNumberLength + 1];
  std::memcpy(buffer, s.data(), s.size());
  buffer[s.size()] = '\0';
  char* end = nullptr;
  const float parsed = std::strtof(buffer, &end);
  // Stopping early means a locale whose decimal point is not '.' (setlocale in the host program): refuse the
  // number rather than return a truncated one.
  return end == buffer + s.size() ? parsed : std::numeric_limits<float>::quiet_NaN();
}

}  // namespace

LineScanner::LineScanner(std::string_view text, const char* fn, const char* file)
    : text_(text), fn_(fn), file_(file) {}

bool LineScanner::nextLine() {
  while (next_ < text_.size()) {
    const size_t start = next_;
    size_t end = text_.find('\n', start);
    if (end == std::string_view::npos) end = text_.size();
    next_ = end + 1;
    ++line_;
    rest_ = text_.substr(start, end - start);
    rest_ = rest_.substr(0, rest_.find('#'));
    if (skipSpace(rest_, 0) < rest_.size()) return true;
  }
  rest_ = {};
  return false;
}

std::string_view LineScanner::token() {
  const size_t begin = skipSpace(rest_, 0), end = skipToken(rest_, begin);
  const std::string_view t = rest_.substr(begin, end - begin);
  rest_.remove_prefix(end);
  return t;
}

std::string_view LineScanner::requireToken(const char* what) {
  const std::string_view t = token();
  if (t.empty()) fail(std::string("expected ") + what);
  return t;
}

size_t LineScanner::remainingTokens() const {
  size_t n = 0;
  for (size_t i = skipSpace(rest_, 0); i < rest_.size(); i = skipSpace(rest_, skipToken(rest_, i))) ++n;
  return n;
}

float LineScanner::real(const char* what) {
  const std::string_view t = requireToken(what);
  if (t.size() > kMaxNumberLength) {
    fail(std::string(what) + " is too long to be a number (" + std::to_string(t.size()) + " characters)");
  }
  if (isNonFiniteWord(t)) fail(std::string(what) + " is not a finite number (got '" + quoted(t) + "')");
  if (!isDecimal(t)) fail(std::string(what) + " is not a number (got '" + quoted(t) + "')");
  const float value = toFloat(t);
  if (!std::isfinite(value)) fail(std::string(what) + " is not a finite number (got '" + quoted(t) + "')");
  return value;
}

int64_t LineScanner::integer(std::string_view t, const char* what) const {
  int64_t value = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), value);
  if (r.ec == std::errc::result_out_of_range) fail(std::string(what) + " is too large (got '" + quoted(t) + "')");
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || t.empty()) {
    fail(std::string(what) + " is not an integer (got '" + quoted(t) + "')");
  }
  return value;
}

void LineScanner::fail(const std::string& reason) const {
  std::string where = std::string(fn_) + ": ";
  if (*file_) where += std::string(file_) + ' ';
  throw MeshParseError(where + "line " + std::to_string(line_) + ": " + reason, line_);
}

void LineScanner::failFile(const std::string& reason) const {
  std::string where = std::string(fn_) + ": ";
  if (*file_) where += std::string(file_) + ": ";
  throw MeshParseError(where + reason, 0);
}

std::string quoted(std::string_view token) {
  constexpr size_t kMax = 32;
  std::string out;
  for (size_t i = 0; i < token.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'') {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (token.size() > kMax) out += "...";
  return out;
}

}  // namespace pbd::io
