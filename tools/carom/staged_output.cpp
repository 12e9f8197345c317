#include "staged_output.h"

#include <unistd.h>

#include <filesystem>

#include "carom/error.h"

namespace carom::cli {

StagedOutput::StagedOutput(std::string directory) : directory_(std::move(directory)) {
  namespace fs = std::filesystem;
  std::error_code error;
  for (fs::path missing = fs::absolute(directory_, error).lexically_normal();
       !missing.empty() && !fs::exists(missing, error) && missing != missing.parent_path();
       missing = missing.parent_path()) {
    created_.push_back(missing.string());
  }
  fs::create_directories(directory_, error);
  if (error) throw Error(directory_ + ": cannot create the output directory: " + error.message());
}

StagedOutput::~StagedOutput() {
  for (const auto& [temporary, final] : staged_) {
    std::error_code ignored;  // a temporary file that is already gone needs no cleaning
    std::filesystem::remove(temporary, ignored);
  }
  if (committed_) return;
  for (const std::string& directory : created_) {
    std::error_code ignored;  // remove() leaves a directory that is not empty, as it should
    std::filesystem::remove(directory, ignored);
  }
}

std::string StagedOutput::stage(const std::string& name) {
  // The process id keeps two commands writing into one directory from sharing a temporary file.
  const std::string temporary =
      directory_ + "/." + name + ".partial-" + std::to_string(static_cast<long>(::getpid()));
  staged_.emplace_back(temporary, directory_ + "/" + name);
  return temporary;
}

void StagedOutput::write(const std::string& name, const std::string& text) {
  std::ofstream file = open(name);
  file << text;
  file.close();
  if (!file) throw Error(staged_.back().first + ": cannot write");
}

std::ofstream StagedOutput::open(const std::string& name) {
  const std::string path = stage(name);
  std::ofstream file(path, std::ios::binary);
  if (!file) throw Error(path + ": cannot write");
  return file;
}

void StagedOutput::commit() {
  for (const auto& [temporary, final] : staged_) {
    std::error_code error;
    std::filesystem::rename(temporary, final, error);
    if (error) throw Error(final + ": cannot write: " + error.message());
  }
  staged_.clear();
  committed_ = true;
}

}  // namespace carom::cli
