// One measured cube toss (validation/data/cube_tosses): a camera frame per row at 148 Hz, read from
// CSV with errors that name the file and the line.
#pragma once

#include <Eigen/Geometry>

#include <string>
#include <vector>

namespace carom::validation {

// One camera frame in SI units (data README): the board's top face is z = 0, gravity −z.
struct Frame {
  double t = 0;                 // time since the toss's first frame (s)
  Eigen::Vector3d position;     // the cube's centre, board frame (m)
  Eigen::Quaterniond rotation;  // body to board frame, unit
  Eigen::Vector3d velocity;     // of the centre, board frame, a backward difference (m/s)
  Eigen::Vector3d omegaBody;    // angular velocity in the body frame, a backward difference (rad/s)
};

struct Toss {
  int number = -1;  // the source's toss number, NNN of toss_NNN.csv
  std::string path;
  std::vector<Frame> frames;
};

// Reads one toss file. Throws std::runtime_error "PATH:LINE: problem" for a missing or wrong
// header, a row without 14 finite numbers, a non-unit quaternion (|q| off 1 by more than 1e-3),
// times that do not increase, or fewer than 3 frames; "PATH: cannot read" for an unreadable file.
Toss readToss(const std::string& path);

// Every toss_NNN.csv of `directory`, by toss number. Throws as readToss, or when there is none.
std::vector<Toss> readTosses(const std::string& directory);

}  // namespace carom::validation
