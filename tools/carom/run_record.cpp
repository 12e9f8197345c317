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

// Each value preceded by a comma: the columns after a row's first.
void appendNumbers(std::string& out, std::initializer_list<double> values) {
  for (double value : values) {
    out += ',';
    out += numberText(value);
  }
}

struct Named {
  const char* name;
  double value;
};

// Throws StepFailure naming the time, the body and the first column that is not a number: the
// README promises exit status 3, never a non-finite value in a file of an exit-0 run.
void requireFinite(double t, const std::string& body, const char* file,
                   std::initializer_list<Named> values) {
  for (const Named& value : values) {
    if (!std::isfinite(value.value)) {
      throw StepFailure("t = " + numberText(t) + " s: body " + body + ": " + file + ": " +
                        value.name + " is not finite (" + numberText(value.value) + ")");
    }
  }
}

void requireFinite(double t, const std::string& body, const BodyTotals& totals) {
  const btVector3& p = totals.momentum;
  const btVector3& L = totals.angularMomentum;
  requireFinite(t, body, "energy.csv",
                {{"kinetic", totals.kinetic},
                 {"potential", totals.potential},
                 {"total", totals.total()},
                 {"px", p.x()},
                 {"py", p.y()},
                 {"pz", p.z()},
                 {"Lx", L.x()},
                 {"Ly", L.y()},
                 {"Lz", L.z()}});
}

// A total that is not finite: the first body whose own totals are not, else the sum's overflow.
void requireFiniteTotals(double t, const SceneWorld& world, const btVector3& gravity,
                         const BodyTotals& totals) {
  try {
    requireFinite(t, "(all)", totals);
  } catch (const StepFailure&) {
    for (const SceneWorld::DynamicBody& body : world.dynamicBodies())
      requireFinite(t, body.spec->name, totalsOf({body}, gravity));
    throw;
  }
}

}  // namespace

RunRecord::RunRecord(StagedOutput& output)
    : bodies_(output.open("bodies.csv")),
      energy_(output.open("energy.csv")),
      events_(output.open("events.csv")) {
  bodies_ << "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  energy_ << "t,kinetic,potential,total,px,py,pz,Lx,Ly,Lz\n";
  events_ << "t,bodyA,bodyB,law,contacts,impulse,vn_pre,vn_post,dE\n";
}

void RunRecord::addFrame(double t, const SceneWorld& world, const btVector3& gravity) {
  std::string bodies;
  for (const auto& [spec, body] : world.dynamicBodies()) {
    const btTransform& pose = body->getCenterOfMassTransform();
    const btVector3& x = pose.getOrigin();
    const btQuaternion q = pose.getRotation();
    const btVector3& v = body->getLinearVelocity();
    const btVector3& w = body->getAngularVelocity();
    requireFinite(t, spec->name, "bodies.csv",
                  {{"x", x.x()},
                   {"y", x.y()},
                   {"z", x.z()},
                   {"qw", q.w()},
                   {"qx", q.x()},
                   {"qy", q.y()},
                   {"qz", q.z()},
                   {"vx", v.x()},
                   {"vy", v.y()},
                   {"vz", v.z()},
                   {"wx", w.x()},
                   {"wy", w.y()},
                   {"wz", w.z()}});
    bodies += numberText(t) + ',' + spec->name;
    appendNumbers(bodies, {x.x(), x.y(), x.z(), q.w(), q.x(), q.y(), q.z(), v.x(), v.y(), v.z(),
                           w.x(), w.y(), w.z()});
    bodies += '\n';
  }
  bodies_ << bodies;
  const BodyTotals totals = totalsOf(world.dynamicBodies(), gravity);
  requireFiniteTotals(t, world, gravity, totals);
  const btVector3& p = totals.momentum;
  const btVector3& L = totals.angularMomentum;
  std::string energy = numberText(t);
  appendNumbers(energy, {totals.kinetic, totals.potential, totals.total(), p.x(), p.y(), p.z(),
                         L.x(), L.y(), L.z()});
  energy_ << energy << '\n';
  energySeries_.add({t, totals.kinetic, totals.potential, totals.total()});
}

void RunRecord::addEvents(const std::vector<ImpactEvent>& events, const SceneWorld& world) {
  for (const ImpactEvent& event : events) {
    requireFinite(event.time, world.nameOf(event.bodyA) + " / " + world.nameOf(event.bodyB),
                  "events.csv",
                  {{"t", event.time},
                   {"impulse", event.impulse.dot(event.normal)},
                   {"vn_pre", event.normalVelocityBefore},
                   {"vn_post", event.normalVelocityAfter},
                   {"dE", event.energyChange}});
    std::string row = numberText(event.time) + ',' + world.nameOf(event.bodyA) + ',' +
                      world.nameOf(event.bodyB) + ',' + event.law + ',' +
                      std::to_string(event.contacts);
    appendNumbers(row, {event.impulse.dot(event.normal), event.normalVelocityBefore,
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
