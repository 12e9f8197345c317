// docs/config.md against the parsers' own lists of keys (plugin/bullet/config_keys.h,
// scene_keys.h): every key Config::parse or Scene::parse accepts has a row in one of the doc's key
// tables, and every row names such a key, so that the doc cannot drift from the code (issue 32).
//
// A key table is a Markdown table whose first header cell is "key"; the first cell of each of its
// rows holds one or more keys, each in backticks, dotted from the top of the file
// (`solver.kind`, `material.NAME.friction`, `joint.lower`, `joint.upper`).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "scene_keys.h"

namespace {

struct DocKey {
  std::string key;
  int line = 0;
};

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

// The first cell of a table row "| a | b |", without its spaces.
std::string firstCell(const std::string& row) {
  const std::size_t end = row.find('|', 1);
  return trimmed(row.substr(1, end == std::string::npos ? std::string::npos : end - 1));
}

// The keys of a key cell "`a`, `b`"; a cell of any other form is a failure naming its line.
std::vector<std::string> cellKeys(const std::string& cell, int line) {
  std::vector<std::string> keys;
  std::size_t at = 0;
  while (at < cell.size()) {
    const std::size_t close = cell.find('`', at + 1);
    if (cell[at] != '`' || close == std::string::npos || close == at + 1) break;
    keys.push_back(cell.substr(at + 1, close - at - 1));
    at = close + 1;
    if (at == cell.size()) return keys;
    if (cell.compare(at, 2, ", ") != 0) break;
    at += 2;
  }
  ADD_FAILURE() << "docs/config.md:" << line << ": the key cell \"" << cell
                << "\" is not one or more keys in backticks, separated by \", \"";
  return keys;
}

std::vector<DocKey> docKeys(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file) << "cannot read " << path;
  std::vector<DocKey> keys;
  bool inKeyTable = false;
  std::string row;
  for (int line = 1; std::getline(file, row); ++line) {
    if (row.empty() || row[0] != '|') {
      inKeyTable = false;
      continue;
    }
    const std::string cell = firstCell(row);
    if (cell == "key") {
      inKeyTable = true;
    } else if (inKeyTable && cell.find_first_not_of("-: ") != std::string::npos) {
      for (const std::string& key : cellKeys(cell, line))
        keys.push_back({key, line});
    }
  }
  return keys;
}

TEST(ConfigDoc, HasARowForEveryParserKeyAndNoOther) {
  const std::vector<DocKey> documented = docKeys(CAROM_CONFIG_DOC);
  ASSERT_FALSE(documented.empty()) << CAROM_CONFIG_DOC << " holds no key table";
  const std::vector<std::string> parsed = carom::file_keys::sceneKeyPaths();

  std::map<std::string, int> rows;  // key → its first row's line
  for (const DocKey& key : documented) {
    const auto [first, isNew] = rows.emplace(key.key, key.line);
    if (!isNew) {
      ADD_FAILURE() << "docs/config.md:" << key.line << ": `" << key.key
                    << "` has a row already, at line " << first->second;
    }
    if (std::find(parsed.begin(), parsed.end(), key.key) == parsed.end()) {
      ADD_FAILURE() << "docs/config.md:" << key.line << ": `" << key.key
                    << "` names no key the parsers accept (plugin/bullet/config_keys.h, "
                       "scene_keys.h)";
    }
  }
  for (const std::string& key : parsed) {
    if (rows.count(key) == 0) {
      ADD_FAILURE() << "the parsers accept `" << key << "` but docs/config.md has no row for it";
    }
  }
}

// A config file's tables are a scene file's too, with the same keys: sceneKeyPaths covers them.
TEST(ConfigDoc, SceneKeysHoldTheConfigKeys) {
  const std::vector<std::string> scene = carom::file_keys::sceneKeyPaths();
  for (const std::string& key : carom::file_keys::configKeyPaths()) {
    EXPECT_NE(std::find(scene.begin(), scene.end(), key), scene.end()) << key;
  }
  for (std::string_view table : carom::file_keys::kConfigTables) {
    EXPECT_TRUE(carom::file_keys::KeyList(carom::file_keys::kSceneTables).contains(table)) << table;
  }
}

}  // namespace
