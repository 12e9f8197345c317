// The config tables of a TOML document, shared by Config::parse and the scene reader: a scene file
// holds [solver], [material.*] and [pair.*.*] exactly as a config file does (INTERFACES.md §4).
#pragma once

#include <toml++/toml.h>

#include "carom/bullet/config.h"
#include "toml_reader.h"

namespace carom {

// Reads [solver], [material] and [pair] of `root` into `config`, leaving other top-level keys to
// the caller. Throws carom::Error "SOURCE:LINE: KEY: problem".
void readConfigTables(const TomlReader& reader, const toml::table& root, Config& config);

}  // namespace carom
