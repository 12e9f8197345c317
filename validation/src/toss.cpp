#include "toss.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace carom::validation {
namespace {

constexpr const char* kHeader = "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
constexpr int kColumns = 14;
// A tracked quaternion is normalised to ~1e-9; 1e-3 only catches a wrong column or a typo.
constexpr double kUnitTolerance = 1e-3;

[[noreturn]] void fail(const std::string& path, int line, const std::string& problem) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + problem);
}

Frame parseRow(const std::string& text, const std::string& path, int line) {
  double value[kColumns];
  std::size_t start = 0;
  for (int column = 0; column < kColumns; ++column) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (start > text.size())
      fail(path, line, "expected 14 columns, found " + std::to_string(column));
    const std::string cell = text.substr(start, end - start);
    char* stop = nullptr;
    value[column] = std::strtod(cell.c_str(), &stop);
    if (cell.empty() || *stop != '\0' || !std::isfinite(value[column]))
      fail(path, line,
           "column " + std::to_string(column + 1) + ": not a finite number: '" + cell + "'");
    start = end + 1;
  }
  if (start <= text.size()) fail(path, line, "more than 14 columns");
  Frame frame;
  frame.t = value[0];
  frame.position = {value[1], value[2], value[3]};
  frame.rotation = Eigen::Quaterniond(value[4], value[5], value[6], value[7]);
  if (std::abs(frame.rotation.norm() - 1) > kUnitTolerance)
    fail(path, line, "the quaternion (qw, qx, qy, qz) is not a unit quaternion");
  frame.rotation.normalize();
  frame.velocity = {value[8], value[9], value[10]};
  frame.omegaBody = {value[11], value[12], value[13]};
  return frame;
}

}  // namespace

Toss readToss(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  Toss toss;
  toss.path = path;
  const std::string stem = std::filesystem::path(path).stem().string();
  if (stem.rfind("toss_", 0) == 0) toss.number = std::atoi(stem.c_str() + 5);
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (line == 1) {
      if (text != kHeader) fail(path, line, std::string("expected the header '") + kHeader + "'");
      continue;
    }
    if (text.empty()) fail(path, line, "empty line");
    toss.frames.push_back(parseRow(text, path, line));
    if (toss.frames.size() > 1 && !(toss.frames.back().t > toss.frames[toss.frames.size() - 2].t))
      fail(path, line, "time does not increase");
  }
  if (line == 0) fail(path, 1, "empty file");
  if (toss.frames.size() < 3) fail(path, line, "fewer than 3 frames");
  return toss;
}

std::vector<Toss> readTosses(const std::string& directory) {
  std::vector<std::string> paths;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("toss_", 0) == 0 && entry.path().extension() == ".csv")
      paths.push_back(entry.path().string());
  }
  if (error) throw std::runtime_error(directory + ": cannot read: " + error.message());
  if (paths.empty()) throw std::runtime_error(directory + ": no toss_NNN.csv files");
  std::vector<Toss> tosses;
  for (const std::string& path : paths)
    tosses.push_back(readToss(path));
  std::sort(tosses.begin(), tosses.end(),
            [](const Toss& a, const Toss& b) { return a.number < b.number; });
  return tosses;
}

}  // namespace carom::validation
