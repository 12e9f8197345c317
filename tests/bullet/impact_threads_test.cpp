// lcp mode's impact groups on several threads (solver.threads): the same step, bit for bit, as on
// one; and the pool of threads that runs them.
#include <gtest/gtest.h>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bullet/impact_solver_scene.h"
#include "carom/bullet/impact_solver.h"
#include "support/errors.h"
#include "worker_pool.h"

namespace carom {
namespace {

using test::SolverScene;

// What a run leaves: every event and every body's final pose and velocity.
struct Landing {
  std::vector<ImpactEvent> events;
  std::vector<std::pair<int, int>> eventBodies;  // per event: its bodies' indices, −1 the ground
  std::vector<btTransform> poses;
  std::vector<btVector3> linear, angular;
  int mostSimultaneousGroups = 0;  // in one step: boxes struck by impacts of several contacts
};

// Twelve boxes landing on the ground in the same step, flat (four corners: a simultaneous impact
// each) or tilted (one or two corners), and two pairs of stacked boxes whose contact joins them
// into one group, stepped at 240 Hz with solver.threads = `threads` and
// solver.simultaneous_contacts = `lcpContacts` (1: every simultaneous impact by sweeps).
Landing landBoxes(int threads, int lcpContacts) {
  Config config;
  config.solver.threads = threads;
  config.solver.simultaneousContacts = lcpContacts;
  ImpactSolver solver(config);
  SolverScene scene(&solver);
  std::vector<btRigidBody*> boxes;
  for (int i = 0; i < 12; ++i) {
    btRigidBody* box =
        scene.box(btVector3(0.2, 0.2, 0.2), btVector3(0.6 * (i % 4), 0.5, 0.6 * (i / 4)));
    if (i % 3 == 1) {  // tilted about x by a few degrees: lands on an edge
      btTransform pose = box->getWorldTransform();
      pose.setRotation(btQuaternion(btVector3(1, 0, 0), 0.05 * (1 + i % 4)));
      box->setWorldTransform(pose);
    }
    box->setRestitution(0.4);
    boxes.push_back(box);
  }
  for (int i = 0; i < 2; ++i) {
    boxes.push_back(scene.box(btVector3(0.2, 0.2, 0.2), btVector3(-1.0, 0.5, 0.8 * i)));
    boxes.push_back(scene.box(btVector3(0.2, 0.2, 0.2), btVector3(-1.0, 0.9, 0.8 * i)));
  }
  scene.ground()->setRestitution(1);
  Landing run;
  for (int step = 0; step < 240; ++step) {
    const std::size_t before = solver.events().size();
    scene.step(1.0 / 240.0);
    std::set<const btCollisionObject*> struck;
    for (std::size_t e = before; e < solver.events().size(); ++e) {
      const ImpactEvent& event = solver.events()[e];
      if (event.contacts < 2) continue;
      struck.insert(event.bodyA == scene.ground() ? event.bodyB : event.bodyA);
    }
    run.mostSimultaneousGroups =
        std::max(run.mostSimultaneousGroups, static_cast<int>(struck.size()));
  }
  run.events = solver.events();
  const auto indexOf = [&](const btCollisionObject* body) {
    const auto at = std::find(boxes.begin(), boxes.end(), body);
    return at == boxes.end() ? -1 : static_cast<int>(at - boxes.begin());
  };
  for (const ImpactEvent& event : run.events)
    run.eventBodies.emplace_back(indexOf(event.bodyA), indexOf(event.bodyB));
  for (const btRigidBody* box : boxes) {
    run.poses.push_back(box->getWorldTransform());
    run.linear.push_back(box->getLinearVelocity());
    run.angular.push_back(box->getAngularVelocity());
  }
  return run;
}

void expectSame(const btVector3& a, const btVector3& b) {
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(a[k], b[k]);
}

// Every event (bodies, point, impulse, normal velocity after, law) and every final pose and
// velocity of `many` the same, bit for bit, as `one`'s.
void expectSameLanding(const Landing& one, const Landing& many, int threads) {
  ASSERT_EQ(many.events.size(), one.events.size()) << threads << " threads";
  for (std::size_t e = 0; e < one.events.size(); ++e) {
    const ImpactEvent& a = one.events[e];
    const ImpactEvent& b = many.events[e];
    EXPECT_EQ(one.eventBodies[e], many.eventBodies[e]);
    expectSame(a.point, b.point);
    expectSame(a.impulse, b.impulse);
    EXPECT_EQ(a.normalVelocityAfter, b.normalVelocityAfter);
    EXPECT_EQ(a.law, b.law);
  }
  for (std::size_t i = 0; i < one.poses.size(); ++i) {
    expectSame(one.poses[i].getOrigin(), many.poses[i].getOrigin());
    for (int r = 0; r < 3; ++r)
      expectSame(one.poses[i].getBasis()[r], many.poses[i].getBasis()[r]);
    expectSame(one.linear[i], many.linear[i]);
    expectSame(one.angular[i], many.angular[i]);
  }
}

// By Halm–Posa's LCPs (up to 8 contacts: all of these) and by sweeps.
TEST(ImpactSolverThreads, GroupsResolveTheSameOnAnyNumberOfThreads) {
  for (const int lcpContacts : {8, 1}) {
    SCOPED_TRACE(lcpContacts);
    const Landing one = landBoxes(1, lcpContacts);
    // Several simultaneous impacts in one round, so that the threads had groups to share.
    ASSERT_GE(one.mostSimultaneousGroups, 4);
    const bool bySweeps = std::any_of(one.events.begin(), one.events.end(), [](const auto& e) {
      return e.law.find("by sweeps") != std::string::npos;
    });
    EXPECT_EQ(bySweeps, lcpContacts == 1);
    for (int threads : {2, 3, 0})
      expectSameLanding(one, landBoxes(threads, lcpContacts), threads);
  }
}

TEST(ImpactSolverThreads, RefusesANegativeThreadCount) {
  Config config;
  config.solver.threads = -1;
  test::expectErrorNaming([&] { ImpactSolver solver(config); }, "solver.threads");
}

TEST(WorkerPool, RunsEveryJobOnceInEveryRound) {
  for (int threads : {2, 3, 6}) {  // more helpers than jobs too: those sit the round out
    detail::WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (std::size_t round = 0; round < 200; ++round) {
      const std::size_t count = round % 9;  // fewer jobs than threads, none, and more
      std::vector<std::atomic<int>> calls(count);
      pool.run(count, [&](std::size_t i) { ++calls[i]; });
      for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(calls[i].load(), 1) << threads << " threads, round " << round << ", job " << i;
    }
  }
}

TEST(WorkerPool, PoolForKeepsAPoolOfTheAskedSizeAndNoneForOneThread) {
  std::unique_ptr<detail::WorkerPool> pool;
  EXPECT_EQ(detail::poolFor(pool, 1), nullptr);
  detail::WorkerPool* two = detail::poolFor(pool, 2);
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->threads(), 2);
  EXPECT_EQ(detail::poolFor(pool, 2), two);  // kept from step to step
  EXPECT_EQ(detail::poolFor(pool, 3)->threads(), 3);
  EXPECT_EQ(detail::poolFor(pool, 1), nullptr);
  EXPECT_EQ(pool, nullptr);
  EXPECT_EQ(detail::threadCount(4), 4);
  EXPECT_GE(detail::threadCount(0), 1);  // the CPUs this thread may run on
}

#ifdef __linux__
// 0 asks for the CPUs the calling thread may run on: a thread pinned to one CPU gets no helper.
TEST(WorkerPool, ThreadCountZeroIsTheCpusTheThreadMayRunOn) {
  int counted = 0;
  std::thread pinned([&counted] {
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
    int first = 0;
    while (!CPU_ISSET(first, &allowed))
      ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
    counted = detail::threadCount(0);
  });
  pinned.join();
  EXPECT_EQ(counted, 1);
}
#endif

}  // namespace
}  // namespace carom
