// The guards in front of the TOML parser: input toml++ does not survive (bytes that are not
// UTF-8, keys of thousands of dotted parts) and paths that are no file are refused in one line.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "carom/bullet/config.h"
#include "carom/bullet/scene.h"
#include "support/errors.h"

namespace carom {
namespace {

using test::expectErrorNaming;

std::string dottedHeader(int parts) {
  std::string header = "[a";
  for (int i = 1; i < parts; ++i)
    header += ".a";
  return header + "]\n";
}

TEST(SceneInput, BytesThatAreNotUtf8AreRefusedAtTheirLine) {
  expectErrorNaming([] { Scene::parse("# ok\nname = \"\xC8\"\n", "s.toml"); },
                    "s.toml:2: TOML: not valid UTF-8 (byte 0xC8)");
  expectErrorNaming([] { Scene::parse("\xC0\x80", "s.toml"); }, "s.toml:1: TOML: not valid UTF-8");
  expectErrorNaming([] { Scene::parse("x = \"\xED\xA0\x80\"", "s.toml"); }, "not valid UTF-8");
  expectErrorNaming([] { Scene::parse("x = \"\xF4\x90\x80\x80\"", "s.toml"); }, "not valid UTF-8");
  expectErrorNaming([] { Config::parse("\xFF", "c.toml"); }, "c.toml:1: TOML: not valid UTF-8");
}

// A NUL byte before the end held the structure scan at it for ever (the fuzz target's find).
TEST(SceneInput, ANulByteIsRefusedAtItsLine) {
  expectErrorNaming([] { Scene::parse(std::string("# ok\n\0\0Uing = 1\n", 16), "s.toml"); },
                    "s.toml:2: TOML: a NUL byte");
  expectErrorNaming([] { Config::parse(std::string("x = 1\0", 6), "c.toml"); },
                    "c.toml:1: TOML: a NUL byte");
}

TEST(SceneInput, NonAsciiOutsideStringsAndCommentsIsRefused) {
  // C8 AD is U+022D: valid UTF-8 that toml++ 3.3 meets with undefined behaviour outside a string.
  expectErrorNaming([] { Scene::parse("\xC8\xAD", "s.toml"); },
                    "s.toml:1: TOML: a non-ASCII character outside a string or comment");
  expectErrorNaming([] { Scene::parse("[world]\ntimestep = 1 \xC8\xAD\n", "s.toml"); },
                    "s.toml:2: TOML: a non-ASCII");
  expectErrorNaming([] { Scene::parse("x = { a = 1, \xC8\xAD }", "s.toml"); }, "non-ASCII");
}

TEST(SceneInput, ValidUtf8PassesTheGuard) {
  // é (2 bytes), € (3), 𝄞 (4) and U+022D in comments, a body name and a quoted key.
  const Scene scene = Scene::parse(
      "# \xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xC8\xAD\n[[body]]\nname = \"b\xC3\xA9\"\n"
      "shape = \"sphere\" # \xC8\xAD\nradius = 1\n[material.'\xC8\xAD']\n");
  ASSERT_EQ(scene.bodies.size(), 1u);
  EXPECT_EQ(scene.config.materials().count("\xC8\xAD"), 1u);
  EXPECT_EQ(scene.bodies[0].name, "b\xC3\xA9");
}

TEST(SceneInput, KeysOfTooManyDottedPartsAreRefused) {
  // 40,000 parts overflowed toml++'s recursion; 64 is the stated limit.
  expectErrorNaming([] { Scene::parse(dottedHeader(40000), "s.toml"); },
                    "s.toml:1: TOML: a key or table header has more than 64 dotted parts");
  expectErrorNaming([] { Scene::parse("\n\n" + dottedHeader(65), "s.toml"); }, "s.toml:3: TOML");
  expectErrorNaming([] { Config::parse("x = {" + dottedHeader(65).substr(1, 129) + " = 1}"); },
                    "dotted parts");
  // 64 parts reach toml++, which finds the unknown key "a" instead.
  expectErrorNaming([] { Scene::parse(dottedHeader(64), "s.toml"); }, "s.toml:1: a: unknown key");
  // Dots inside quoted keys and in values are no parts.
  std::string quoted = "[world]\n\"" + std::string(200, '.') + "\" = 1.5\n";
  expectErrorNaming([&] { Scene::parse(quoted, "s.toml"); }, "unknown key");
}

TEST(SceneInput, TableHeadersThatStartWithNoKeyAreRefused) {
  // toml++ 3.3 asserts that a header starts a key and, in a release build, assumes it.
  for (const char* text : {"[\\a]", "[ =]", "[[.]]", "[#]", "[,]", "[}]", "[+]", "[\n]", "[[[e"}) {
    expectErrorNaming([&] { Scene::parse(text, "s.toml"); },
                      "s.toml:1: TOML: a table header must start with a key");
  }
  // A header that does start with one reaches toml++ as before.
  EXPECT_EQ(Scene::parse("[ \"world\" ]\ntimestep = 0.5\n").world.timestep, 0.5);
  expectErrorNaming([] { Scene::parse("[]\n", "s.toml"); },
                    "s.toml:1: TOML: Error while parsing table header: tables with blank");
}

TEST(SceneInput, AClosingBraceInsideAnArrayIsRefused) {
  for (const char* text : {"n = [}", "n = [1, }", "n = [\n}", "x = {a = [}]}"}) {
    expectErrorNaming([&] { Scene::parse(text, "s.toml"); },
                      "TOML: '}' inside an array, where a value or ']' belongs");
  }
}

TEST(SceneInput, ValuesNestedTooDeeplyAreRefused) {
  const std::string deep = "x = " + std::string(33, '[') + std::string(33, ']') + "\n";
  expectErrorNaming([&] { Scene::parse(deep, "s.toml"); },
                    "s.toml:1: TOML: arrays and inline tables nested more than 32 deep");
  const std::string shallow = "x = " + std::string(32, '[') + std::string(32, ']') + "\n";
  expectErrorNaming([&] { Scene::parse(shallow, "s.toml"); }, "s.toml:1: x: unknown key");
}

TEST(SceneInput, TextLargerThanTheLimitIsRefused) {
  const std::string big = "# " + std::string(16u << 20, 'x') + "\n";
  expectErrorNaming([&] { Scene::parse(big, "s.toml"); }, "s.toml:1: TOML: larger than 16 MiB");
}

TEST(SceneInput, PathsThatAreNoRegularFileAreRefused) {
  expectErrorNaming([] { Scene::fromFile("/dev/zero"); },
                    "/dev/zero: cannot read the scene file: "
                    "not a regular file");
  const std::string directory = std::filesystem::temp_directory_path().string();
  expectErrorNaming([&] { Scene::fromFile(directory); }, "not a regular file");
  expectErrorNaming([&] { Config::fromFile(directory); }, "cannot read the config file");
}

TEST(SceneInput, FilesLargerThanTheLimitAreRefusedBeforeReading) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "carom-scene-input-big.toml").string();
  {
    std::ofstream file(path, std::ios::binary);
    file.seekp((16 << 20) + 1);  // a sparse file: no 16 MiB written
    file.put('\n');
  }
  expectErrorNaming([&] { Scene::fromFile(path); }, "larger than 16 MiB");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace carom
