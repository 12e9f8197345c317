// The [[joint]] tables of a scene file (Scene::parse), and what they share with the rest of it.
#pragma once

#include <string>

#include "carom/bullet/scene.h"
#include "toml_reader.h"

namespace carom {

namespace scene_values {
// An array of three finite numbers, e.g. a position.
btVector3 vector3(const TomlReader& reader, const toml::node& node, const std::string& key);
}  // namespace scene_values

// Reads every [[joint]] table into scene.joints; the bodies are read already. Fails naming the
// file, line and key for anything Scene::parse refuses (scene.h).
void readJoints(const TomlReader& reader, const toml::node& node, Scene& scene);

}  // namespace carom
