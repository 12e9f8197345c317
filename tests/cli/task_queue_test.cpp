// The bounded task queue of `carom view`'s server (task_queue.h): connections beyond its capacity
// wait to be queued instead of growing the queue, and shutdown runs every task queued.
#include "task_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace carom::cli {
namespace {

TEST(BoundedTaskQueue, AFullQueueMakesEnqueueWaitInsteadOfGrowing) {
  std::promise<void> gate;
  const std::shared_future<void> open = gate.get_future().share();
  std::atomic<int> started{0}, done{0};
  const auto task = [&] {
    ++started;
    open.wait();
    ++done;
  };
  BoundedTaskQueue queue(1, 2);
  queue.enqueue(task);
  while (started == 0)  // the one worker has taken it and waits at the gate
    std::this_thread::yield();
  queue.enqueue(task);
  queue.enqueue(task);
  EXPECT_EQ(queue.waiting(), 2u);
  std::atomic<bool> queued{false};
  std::thread flood([&] {
    queue.enqueue(task);
    queued = true;
  });
  // Whatever the wait, the third task is not queued while the worker is busy.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(queued);
  EXPECT_EQ(queue.waiting(), 2u);
  gate.set_value();
  flood.join();
  EXPECT_TRUE(queued);
  queue.shutdown();
  EXPECT_EQ(done, 4);
  EXPECT_EQ(queue.waiting(), 0u);
}

}  // namespace
}  // namespace carom::cli
