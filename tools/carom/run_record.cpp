#include "run_record.h"

#include <initializer_list>

#include "body_totals.h"
#include "common/svg_plot.h"
#include "number_text.h"

namespace carom::cli {
namespace {

// Each value preceded by a comma: the columns after a row's first.
void appendNumbers(std::string& out, std::initializer_list<double> values) {
  for (double value : values) {
    out += ',';
    out += numberText(value);
  }
}

}  // namespace

RunRecord::RunRecord()
    : bodies_("t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"),
      energy_("t,kinetic,potential,total,px,py,pz,Lx,Ly,Lz\n"),
      events_("t,bodyA,bodyB,law,contacts,impulse,vn_pre,vn_post,dE\n") {}

void RunRecord::addFrame(double t, const SceneWorld& world, const btVector3& gravity) {
  for (const auto& [spec, body] : world.dynamicBodies()) {
    const btTransform& pose = body->getCenterOfMassTransform();
    const btVector3& x = pose.getOrigin();
    const btQuaternion q = pose.getRotation();
    const btVector3& v = body->getLinearVelocity();
    const btVector3& w = body->getAngularVelocity();
    bodies_ += numberText(t) + ',' + spec->name;
    appendNumbers(bodies_, {x.x(), x.y(), x.z(), q.w(), q.x(), q.y(), q.z(), v.x(), v.y(), v.z(),
                            w.x(), w.y(), w.z()});
    bodies_ += '\n';
  }
  const BodyTotals totals = totalsOf(world.dynamicBodies(), gravity);
  const btVector3& p = totals.momentum;
  const btVector3& L = totals.angularMomentum;
  energy_ += numberText(t);
  appendNumbers(energy_, {totals.kinetic, totals.potential, totals.total(), p.x(), p.y(), p.z(),
                          L.x(), L.y(), L.z()});
  energy_ += '\n';
  times_.push_back(t);
  kinetic_.push_back(totals.kinetic);
  potential_.push_back(totals.potential);
  total_.push_back(totals.total());
}

void RunRecord::addEvents(const std::vector<ImpactEvent>& events, const SceneWorld& world) {
  for (const ImpactEvent& event : events) {
    events_ += numberText(event.time) + ',' + world.nameOf(event.bodyA) + ',' +
               world.nameOf(event.bodyB) + ',' + event.law + ',' + std::to_string(event.contacts);
    appendNumbers(events_, {event.impulse.dot(event.normal), event.normalVelocityBefore,
                            event.normalVelocityAfter, event.energyChange});
    events_ += '\n';
  }
}

void RunRecord::writeEnergyPlot(const std::string& title, const std::string& path) const {
  demo::LinePlot plot(title, "t (s)", "energy (J)");
  plot.add({"kinetic", "#1f77b4", times_, kinetic_});
  plot.add({"potential", "#2ca02c", times_, potential_});
  plot.add({"total", "#d62728", times_, total_});
  plot.write(path);
}

}  // namespace carom::cli
