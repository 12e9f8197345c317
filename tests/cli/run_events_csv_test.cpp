// events.csv stays a CSV whatever an event's law says: the law of a contact struck in turn in a
// simultaneous impact over the Halm–Posa cap says why, with a comma, and a solver's message may
// hold any text. Such a field is quoted as RFC 4180 writes it (before, the comma split the row
// into ten fields under a nine-column header).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_output.h"

namespace carom::cli {
namespace {

// The fields of one RFC 4180 line: commas outside quotes separate them, "" in quotes is a quote.
std::vector<std::string> fieldsOf(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A pyramid of 21 unit boxes with 4 cm under every level: its levels land box on box all at once,
// over the cap of one simultaneous impact.
std::string writeDroppedPyramid() {
  const std::string path = ::testing::TempDir() + "carom-dropped-pyramid.toml";
  std::ofstream scene(path);
  // The sequential model strikes a level's landing (more contacts than one impact's LCPs take) in
  // turn, and its law says so with a comma.
  scene << "[world]\ngravity = [0.0, -9.81, 0.0]\ntimestep = 0.016666666666666666\n"
        << "duration = 0.4\n\n[solver]\nsimultaneous = \"sequential\"\n\n[material.box]\nimpact = "
           "\"stronge\"\nrestitution = 0.0\n"
        << "friction = 0.6\n\n[[body]]\nname = \"ground\"\nshape = \"plane\"\n"
        << "normal = [0.0, 1.0, 0.0]\noffset = 0.0\nmaterial = \"box\"\n";
  constexpr int kLevels = 6;
  for (int row = 0; row < kLevels; ++row) {
    for (int i = 0; i < kLevels - row; ++i) {
      scene << "\n[[body]]\nname = \"box" << row << '_' << i
            << "\"\nshape = \"box\"\nhalf_extents = [0.5, 0.5, 0.5]\nmass = 1.0\nposition = ["
            << i - 0.5 * (kLevels - row - 1) << ", " << 0.5 + row + 0.04 * (row + 1)
            << ", 0.0]\nmaterial = \"box\"\n";
    }
  }
  return path;
}

TEST(RunEvents, ALawWithACommaIsQuotedAndTheRowKeepsItsColumns) {
  const std::string out = test::runScene(writeDroppedPyramid(), SolverKind::lcp, 0.4, "events-csv");
  std::ifstream events(out + "/events.csv");
  std::string line;
  ASSERT_TRUE(std::getline(events, line));
  const std::size_t columns = fieldsOf(line).size();
  EXPECT_EQ(columns, 9u);
  int inTurn = 0, rows = 0;
  while (std::getline(events, line)) {
    ++rows;
    const std::vector<std::string> fields = fieldsOf(line);
    ASSERT_EQ(fields.size(), columns) << line;
    if (fields[3].find("in turn") != std::string::npos) {
      ++inTurn;
      EXPECT_NE(fields[3].find(','), std::string::npos) << fields[3];
    }
  }
  std::cout << rows << " events, " << inTurn << " struck in turn\n";
  EXPECT_GT(inTurn, 0);
}

}  // namespace
}  // namespace carom::cli
