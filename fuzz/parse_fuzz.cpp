// libFuzzer target: any bytes as a scene file and as a config file (carom::Scene::parse,
// carom::Config::parse). Every input must end in a parsed value or a carom::Error; anything else (a
// crash, another exception, a sanitizer report, a hang) is a finding. Built with -DCAROM_FUZZ=ON by
// clang; `./run fuzz SECONDS` runs it on the bundled and the refused scenes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "carom/bullet/config.h"
#include "carom/bullet/scene.h"
#include "carom/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    carom::Scene::parse(text, "fuzz.toml");
  } catch (const carom::Error&) {
  }
  try {
    carom::Config::parse(text, "fuzz.toml");
  } catch (const carom::Error&) {
  }
  return 0;
}
