#include "toml_reader.h"

#include "toml_input.h"

namespace carom {
namespace {

std::string typeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

}  // namespace

void TomlReader::fail(const toml::source_region& where, const std::string& key,
                      const std::string& problem) const {
  throw Error(std::string(source_) + ":" + std::to_string(where.begin.line) + ": " + key + ": " +
              problem);
}

void TomlReader::failAt(const toml::source_region& where, const std::string& message) const {
  throw Error(std::string(source_) + ":" + std::to_string(where.begin.line) + ": " + message);
}

const toml::table& TomlReader::table(const toml::node& node, const std::string& key) const {
  if (!node.is_table()) fail(node.source(), key, "expected a table, got " + typeName(node));
  return *node.as_table();
}

std::int64_t TomlReader::integer(const toml::node& node, const std::string& key) const {
  if (!node.is_integer()) fail(node.source(), key, "expected an integer, got " + typeName(node));
  return node.as_integer()->get();
}

double TomlReader::number(const toml::node& node, const std::string& key) const {
  if (node.is_integer()) return static_cast<double>(node.as_integer()->get());
  if (!node.is_floating_point())
    fail(node.source(), key, "expected a number, got " + typeName(node));
  return node.as_floating_point()->get();
}

std::string TomlReader::string(const toml::node& node, const std::string& key) const {
  if (!node.is_string()) fail(node.source(), key, "expected a string, got " + typeName(node));
  return node.as_string()->get();
}

const toml::array& TomlReader::numberArray(const toml::node& node, const std::string& key,
                                           std::size_t expectedSize) const {
  if (!node.is_array())
    fail(node.source(), key, "expected an array of numbers, got " + typeName(node));
  const toml::array& array = *node.as_array();
  if (expectedSize != 0 && array.size() != expectedSize) {
    fail(node.source(), key,
         "expected " + std::to_string(expectedSize) + " numbers, got " +
             std::to_string(array.size()));
  }
  for (const toml::node& element : array)
    number(element, key);
  return array;
}

toml::table TomlReader::parse(std::string_view text) const {
  checkTomlInput(text, source_);
  try {
    return toml::parse(text, source_);
  } catch (const toml::parse_error& e) {
    fail(e.source(), "TOML", std::string(e.description()));
  }
}

}  // namespace carom
