// Output files that appear all at once or not at all: each is written under a temporary name in
// the output directory and renamed when every file is complete, so an interrupted or failed
// command never leaves a file that looks finished.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace carom::cli {

class StagedOutput {
 public:
  // Creates `directory` (and its parents) if needed; throws carom::Error when it cannot.
  explicit StagedOutput(std::string directory);
  // Removes the temporary files of an output that was never committed, and the directories this
  // output created where they are left empty.
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  // The temporary path to write `name` (a file name inside the directory) to.
  std::string stage(const std::string& name);
  // Writes `text` to the temporary file of `name`; throws carom::Error when it cannot.
  void write(const std::string& name, const std::string& text);
  // The temporary file of `name` opened for writing, for output streamed while a command runs;
  // throws carom::Error when it cannot be opened.
  std::ofstream open(const std::string& name);
  // Renames every staged file to its final name; throws carom::Error when one cannot be renamed.
  void commit();

 private:
  std::string directory_;
  std::vector<std::string> created_;  // directories this output made, innermost first
  std::vector<std::pair<std::string, std::string>> staged_;  // temporary path, final path
  bool committed_ = false;
};

}  // namespace carom::cli
