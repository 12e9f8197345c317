// Staged output: files streamed while a command runs stay hidden until the commit, and an output
// that is never committed leaves nothing behind, not even the directories it made.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "staged_output.h"

namespace carom::cli {
namespace {

namespace fs = std::filesystem;

fs::path freshDirectory(const std::string& name) {
  const fs::path root = fs::path(::testing::TempDir()) / name;
  fs::remove_all(root);
  fs::create_directories(root);
  return root;
}

TEST(StagedOutput, StreamedFilesAppearAtTheCommit) {
  const fs::path root = freshDirectory("carom-staged-commit");
  const fs::path out = root / "a" / "b";
  StagedOutput output(out.string());
  std::ofstream file = output.open("rows.csv");
  file << "t\n0\n" << std::flush;
  EXPECT_FALSE(fs::exists(out / "rows.csv"));
  ASSERT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);
  EXPECT_EQ(fs::file_size(fs::directory_iterator(out)->path()), 4u);  // on disk, not in memory
  file << "1\n";
  file.close();
  output.commit();
  EXPECT_EQ(fs::file_size(out / "rows.csv"), 6u);
}

TEST(StagedOutput, AnOutputNeverCommittedLeavesNothing) {
  const fs::path root = freshDirectory("carom-staged-abandoned");
  {
    StagedOutput output((root / "a" / "b").string());
    output.open("rows.csv") << "t\n";
    output.write("plot.svg", "<svg/>");
  }
  EXPECT_TRUE(fs::exists(root));  // it was there before
  EXPECT_FALSE(fs::exists(root / "a"));
}

TEST(StagedOutput, AnAbandonedOutputKeepsWhatWasThereBefore) {
  const fs::path root = freshDirectory("carom-staged-existing");
  std::ofstream(root / "old.csv") << "kept\n";
  { StagedOutput(root.string()).open("rows.csv") << "t\n"; }
  EXPECT_TRUE(fs::exists(root / "old.csv"));
  EXPECT_EQ(std::distance(fs::directory_iterator(root), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace carom::cli
