#include "toml_input.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "carom/error.h"

namespace carom {
namespace {

[[noreturn]] void refuse(std::string_view source, std::size_t line, const std::string& problem) {
  throw Error(std::string(source) + ":" + std::to_string(line) + ": TOML: " + problem);
}

// The length of the UTF-8 sequence that starts at text[i], or 0 where it is not one (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  const auto tail = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return byte(k) >= lo && byte(k) <= hi;
  };
  const unsigned lead = byte(0);
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return tail(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned lo = lead == 0xE0 ? 0xA0 : 0x80, hi = lead == 0xED ? 0x9F : 0xBF;
    return tail(1, lo, hi) && tail(2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned lo = lead == 0xF0 ? 0x90 : 0x80, hi = lead == 0xF4 ? 0x8F : 0xBF;
    return tail(1, lo, hi) && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

void checkUtf8(std::string_view text, std::string_view source) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size();) {
    // A NUL byte is no TOML (control characters but tab are not allowed), and the structure scan
    // below reads '\0' as the end of the text: one before the end would hold it at the same place
    // for ever.
    if (text[i] == '\0')
      refuse(source, line, "a NUL byte (TOML allows no control character but tab)");
    const std::size_t length = utf8Length(text, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[i]));
      refuse(source, line, std::string("not valid UTF-8 (byte ") + byte + ")");
    }
    if (text[i] == '\n') ++line;
    i += length;
  }
}

// A linear scan of the document's structure, enough to count the dotted parts of every key and
// header and the nesting of values; it judges nothing else (toml++ does, once this has passed).
class StructureScan {
 public:
  StructureScan(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  void run() {
    while (!atEnd()) {
      skipBlanks();
      const char c = peek();
      if (c == '\n') {
        next();
      } else if (c == '#') {
        skipComment();
      } else if (c == '[') {
        next();
        if (peek() == '[') next();  // [[array of tables]]; a third '[' starts no key
        skipBlanks();
        requireHeaderKeyStart();
        scanKey();
      } else if (c == ']' || c == '}' || c == ',' || c == '=') {
        next();  // malformed; toml++ says where
      } else if (c != '\0') {
        scanKey();
        if (peek() == '=') {
          next();
          scanValue(0);
        }
      }
    }
  }

 private:
  bool atEnd() const { return i_ >= text_.size(); }
  char peek(std::size_t k = 0) const { return i_ + k < text_.size() ? text_[i_ + k] : '\0'; }
  void next() {
    if (text_[i_] == '\n') ++line_;
    ++i_;
  }
  // A character of a key or a bare value: toml++ 3.3 reaches an unreachable point on some non-ASCII
  // ones there (U+00A1 to U+0499), and TOML 1.0 allows non-ASCII only in strings and comments.
  void nextStructural() {
    if (static_cast<unsigned char>(peek()) >= 0x80) {
      refuse(source_, line_, "a non-ASCII character outside a string or comment");
    }
    next();
  }
  void skipBlanks() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\r')
      next();
  }
  void skipBlankLines() {
    for (;;) {
      skipBlanks();
      if (peek() == '\n') {
        next();
      } else if (peek() == '#') {
        skipComment();
      } else {
        return;
      }
    }
  }
  void skipComment() {
    while (!atEnd() && peek() != '\n')
      next();
  }

  // A string at a quote: basic or literal, on one line or (tripled quotes) on several.
  void skipString() {
    const char quote = peek();
    const bool multiline = peek(1) == quote && peek(2) == quote;
    for (int k = 0; k < (multiline ? 3 : 1); ++k)
      next();
    while (!atEnd()) {
      const char c = peek();
      if (c == '\\' && quote == '"') {
        next();
        if (!atEnd()) next();
      } else if (c == quote && (!multiline || (peek(1) == quote && peek(2) == quote))) {
        for (int k = 0; k < (multiline ? 3 : 1); ++k)
          next();
        return;
      } else if (c == '\n' && !multiline) {
        return;  // unterminated; toml++ says so
      } else {
        next();
      }
    }
  }

  // toml++ 3.3 asserts (and, built with NDEBUG, assumes) that a table header's first character
  // starts a key: a bare key, a quoted one, or the ']' of a blank header it reports itself.
  void requireHeaderKeyStart() const {
    const char c = peek();
    const bool bare = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    if (!(bare || c == '"' || c == '\'' || c == ']')) {
      refuse(source_, line_, "a table header must start with a key (bare or quoted)");
    }
  }

  // A key or header up to (not past) '=', ']', '}', ',', '#' or the end of the line.
  void scanKey() {
    const std::size_t line = line_;
    int parts = 1;
    for (;;) {
      const char c = peek();
      if (atEnd() || c == '=' || c == ']' || c == '}' || c == ',' || c == '#' || c == '\n') return;
      if (c == '"' || c == '\'') {
        skipString();
        continue;
      }
      if (c == '.' && ++parts > kMaxKeyParts) {
        refuse(source_, line,
               "a key or table header has more than " + std::to_string(kMaxKeyParts) +
                   " dotted parts");
      }
      nextStructural();
    }
  }

  void scanValue(int depth) {
    skipBlanks();
    const char c = peek();
    if (c == '"' || c == '\'') {
      skipString();
    } else if (c == '[' || c == '{') {
      if (depth + 1 > kMaxValueNesting) {
        refuse(source_, line_,
               "arrays and inline tables nested more than " + std::to_string(kMaxValueNesting) +
                   " deep");
      }
      next();
      c == '[' ? scanArray(depth + 1) : scanInlineTable(depth + 1);
    } else {
      while (!atEnd() && peek() != ',' && peek() != ']' && peek() != '}' && peek() != '\n' &&
             peek() != '#')
        nextStructural();
    }
  }

  void scanArray(int depth) {
    for (;;) {
      skipBlankLines();
      const char c = peek();
      if (atEnd()) return;
      // toml++ 3.3 asserts (and, with NDEBUG, assumes) that an array never holds '}' there.
      if (c == '}') refuse(source_, line_, "'}' inside an array, where a value or ']' belongs");
      if (c == ']') return next();
      if (c == ',') {
        next();
        continue;
      }
      scanValue(depth);
    }
  }

  void scanInlineTable(int depth) {
    for (;;) {
      skipBlankLines();
      const char c = peek();
      if (atEnd() || c == ']') return;
      if (c == '}') return next();
      if (c == ',' || c == '=') {
        next();
        continue;
      }
      scanKey();
      if (peek() == '=') {
        next();
        scanValue(depth);
      }
    }
  }

  std::string_view text_, source_;
  std::size_t i_ = 0, line_ = 1;
};

}  // namespace

void checkTomlInput(std::string_view text, std::string_view source) {
  if (text.size() > kMaxTomlBytes) {
    refuse(source, 1,
           "larger than " + std::to_string(kMaxTomlBytes >> 20) + " MiB (" +
               std::to_string(text.size()) + " bytes)");
  }
  checkUtf8(text, source);
  StructureScan(text, source).run();
}

std::string readTomlFile(const std::string& path, const std::string& what) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);  // follows symbolic links
  if (!std::filesystem::exists(status)) {
    throw Error(path + ": cannot read the " + what + " file: no such file");
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(path + ": cannot read the " + what + " file: not a regular file");
  }
  const auto size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxTomlBytes) {
    throw Error(path + ": cannot read the " + what + " file: larger than " +
                std::to_string(kMaxTomlBytes >> 20) + " MiB (" + std::to_string(size) + " bytes)");
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file) throw Error(path + ": cannot read the " + what + " file");
  return text.str();
}

}  // namespace carom
