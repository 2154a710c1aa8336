// The line tokenizer shared by the mesh readers: walks text line by line, skips blank lines and `#` comments,
// splits lines at whitespace, converts tokens to numbers, and throws MeshParseError naming the current line.
// It never copies the text, so any bytes, any line length and a missing final newline are all fine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pbd::io {

class LineScanner {
 public:
  /// `fn` and `file` prefix every message: "<fn>: <file> line <n>: <reason>" ("<fn>: line <n>: ..." when file is "").
  LineScanner(std::string_view text, const char* fn, const char* file = "");

  /// Advances to the next line holding a token. Returns false (and leaves line() at the last line) at the end.
  bool nextLine();
  /// 1-based number of the current line; 0 before the first nextLine().
  size_t line() const { return line_; }
  /// The next whitespace-separated token of the current line, or "" when the line has no more.
  std::string_view token();
  /// The next token, or throws "expected <what>" when the line has no more.
  std::string_view requireToken(const char* what);
  /// Counts the tokens left on the current line without consuming them.
  size_t remainingTokens() const;

  /// The next token as a finite float; throws "<what> is not a (finite) number (got '<token>')" or "expected <what>".
  float real(const char* what);
  /// Converts `token` to an integer; throws "<what> is not an integer (got '<token>')".
  int64_t integer(std::string_view token, const char* what) const;
  /// The next token as an integer; throws "expected <what>" when the line has no more.
  int64_t integer(const char* what) { return integer(requireToken(what), what); }

  /// Throws MeshParseError naming the current line.
  [[noreturn]] void fail(const std::string& reason) const;
  /// Throws MeshParseError about the whole text (line() 0): "<fn>: <file>: <reason>".
  [[noreturn]] void failFile(const std::string& reason) const;

 private:
  std::string_view text_;
  size_t next_ = 0;        // Offset of the first byte after the current line.
  std::string_view rest_;  // The unread part of the current line (comment already cut off).
  size_t line_ = 0;
  const char* fn_;
  const char* file_;
};

/// `token` fit to quote in a message: at most 32 characters, bytes outside printable ASCII written as \xNN.
std::string quoted(std::string_view token);

}  // namespace pbd::io
