// Guards in front of toml++: a scene or config file is checked for what the library does not
// survive (bytes that are not UTF-8 reach undefined behaviour, a key of 40,000 dotted parts
// overflows its recursion) before toml::parse sees it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace carom {

// Limits on a TOML document, far above any scene or config a person writes.
inline constexpr std::size_t kMaxTomlBytes = 16u << 20;  // 16 MiB
inline constexpr int kMaxKeyParts = 64;                  // dotted parts of one key or table header
inline constexpr int kMaxValueNesting = 32;  // arrays and inline tables inside one another

// Throws carom::Error "SOURCE:LINE: TOML: problem" when `text` is larger than kMaxTomlBytes, is
// not valid UTF-8, or holds a key, header or value nested beyond the limits above.
void checkTomlInput(std::string_view text, std::string_view source);

// The contents of the regular file at `path` (`what`: "scene", "config"); throws carom::Error
// "PATH: ..." when it is missing, not a regular file (a directory, /dev/zero) or too large.
std::string readTomlFile(const std::string& path, const std::string& what);

}  // namespace carom
