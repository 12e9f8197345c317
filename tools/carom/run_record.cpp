#include "run_record.h"

#include <cmath>
#include <initializer_list>

#include "carom/error.h"

#include "body_totals.h"
#include "common/svg_plot.h"
#include "number_text.h"
#include "run_command.h"

namespace carom::cli {
namespace {

constexpr const char* kBodiesHeader = "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
constexpr const char* kEnergyHeader = "t,kinetic,potential,total,px,py,pz,Lx,Ly,Lz";
constexpr const char* kEventsHeader = "t,bodyA,bodyB,law,contacts,impulse,vn_pre,vn_post,dE";

// The columns of one row: where the first number goes (after t, names and such) and what the
// row is about, so that a value that is not finite can be named.
struct RowContext {
  double t;
  const std::string& body;
  const char* file;
  const char* header;
  int firstNumberColumn;
};

// A text field as RFC 4180 writes it: quoted, its quotes doubled, where it holds a comma, quote or
// line break (an event's law carries its solver's message, which may).
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string columnName(const char* header, int column) {
  std::string name;
  for (const char* c = header; *c != '\0'; ++c) {
    if (*c == ',') {
      if (column-- == 0) return name;
      name.clear();
    } else {
      name += *c;
    }
  }
  return name;
}

// Each value preceded by a comma: the columns after a row's first. A value that is not finite
// throws StepFailure naming the time, the body and the column: the README promises exit status 3,
// never a non-finite value in a file of an exit-0 run.
void appendNumbers(std::string& out, const RowContext& row, std::initializer_list<double> values) {
  int column = row.firstNumberColumn;
  for (double value : values) {
    if (!std::isfinite(value)) {
      throw StepFailure("t = " + numberText(row.t) + " s: body " + row.body + ": " + row.file +
                        ": " + columnName(row.header, column) + " is not finite (" +
                        numberText(value) + ")");
    }
    out += ',';
    out += numberText(value);
    ++column;
  }
}

std::string energyRow(double t, const std::string& body, const BodyTotals& totals) {
  const btVector3& p = totals.momentum;
  const btVector3& L = totals.angularMomentum;
  std::string row = numberText(t);
  appendNumbers(
      row, {t, body, "energy.csv", kEnergyHeader, 1},
      {totals.kinetic, totals.potential, totals.total(), p.x(), p.y(), p.z(), L.x(), L.y(), L.z()});
  return row;
}

// A total that is not finite names the first body whose own totals are not, else the sum.
std::string energyRow(double t, const SceneWorld& world, const btVector3& gravity,
                      const BodyTotals& totals) {
  try {
    return energyRow(t, "(the sum over all bodies)", totals);
  } catch (const StepFailure&) {
    for (const SceneWorld::DynamicBody& body : world.dynamicBodies())
      energyRow(t, body.spec->name, totalsOf({body}, gravity));
    throw;
  }
}

}  // namespace

RunRecord::RunRecord(StagedOutput& output)
    : bodies_(output.open("bodies.csv")),
      energy_(output.open("energy.csv")),
      events_(output.open("events.csv")) {
  bodies_ << kBodiesHeader << '\n';
  energy_ << kEnergyHeader << '\n';
  events_ << kEventsHeader << '\n';
}

void RunRecord::addFrame(double t, const SceneWorld& world, const btVector3& gravity) {
  std::string bodies;
  for (const auto& [spec, body] : world.dynamicBodies()) {
    const btTransform& pose = body->getCenterOfMassTransform();
    const btVector3& x = pose.getOrigin();
    const btQuaternion q = pose.getRotation();
    const btVector3& v = body->getLinearVelocity();
    const btVector3& w = body->getAngularVelocity();
    bodies += numberText(t) + ',' + spec->name;
    appendNumbers(bodies, {t, spec->name, "bodies.csv", kBodiesHeader, 2},
                  {x.x(), x.y(), x.z(), q.w(), q.x(), q.y(), q.z(), v.x(), v.y(), v.z(), w.x(),
                   w.y(), w.z()});
    bodies += '\n';
  }
  bodies_ << bodies;
  const BodyTotals totals = totalsOf(world.dynamicBodies(), gravity);
  energy_ << energyRow(t, world, gravity, totals) << '\n';
  energySeries_.add({t, totals.kinetic, totals.potential, totals.total()});
}

void RunRecord::addEvents(const std::vector<ImpactEvent>& events, const SceneWorld& world) {
  for (const ImpactEvent& event : events) {
    const std::string bodies = world.nameOf(event.bodyA) + " / " + world.nameOf(event.bodyB);
    if (!std::isfinite(event.time)) {
      throw StepFailure("body " + bodies + ": events.csv: t is not finite (" +
                        numberText(event.time) + ")");
    }
    std::string row = numberText(event.time) + ',' + world.nameOf(event.bodyA) + ',' +
                      world.nameOf(event.bodyB) + ',' + csvField(event.law) + ',' +
                      std::to_string(event.contacts);
    appendNumbers(row, {event.time, bodies, "events.csv", kEventsHeader, 5},
                  {event.impulse.dot(event.normal), event.normalVelocityBefore,
                   event.normalVelocityAfter, event.energyChange});
    events_ << row << '\n';
  }
}

void RunRecord::close() {
  for (std::ofstream* file : {&bodies_, &energy_, &events_}) {
    file->close();
    if (!*file) throw Error("cannot write the run's CSV files (disk full?)");
  }
}

void RunRecord::writeEnergyPlot(const std::string& title, const std::string& path) const {
  std::vector<double> times, kinetic, potential, total;
  for (const EnergySample& sample : energySeries_.samples()) {
    times.push_back(sample.t);
    kinetic.push_back(sample.kinetic);
    potential.push_back(sample.potential);
    total.push_back(sample.total);
  }
  demo::LinePlot plot(title, "t (s)", "energy (J)");
  plot.add({"kinetic", "#1f77b4", times, kinetic});
  plot.add({"potential", "#2ca02c", times, potential});
  plot.add({"total", "#d62728", times, total});
  plot.write(path);
}

}  // namespace carom::cli
