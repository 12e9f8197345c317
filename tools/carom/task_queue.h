// The task queue of `carom view`'s server (httplib::Server::new_task_queue), bounded. httplib
// 0.11's ThreadPool (Debian bookworm's) queues every accepted connection that finds its workers
// busy, without limit: a flood of connections grows the queue, and the memory and descriptors it
// holds, for as long as the flood lasts. This one keeps at most `capacity` connections waiting;
// the server's accept loop, which calls enqueue, waits there for room, and further connections
// wait in the kernel's listen backlog, whose length is bounded, until a worker is free. (Later
// httplib versions let enqueue refuse a task; in 0.11 it returns nothing, and the task owns the
// accepted socket, which only the task closes: it cannot be dropped.)
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace carom::cli {

class BoundedTaskQueue : public httplib::TaskQueue {
 public:
  BoundedTaskQueue(std::size_t workers, std::size_t capacity);
  ~BoundedTaskQueue() override;  // shuts down first where shutdown() was not called
  BoundedTaskQueue(const BoundedTaskQueue&) = delete;
  BoundedTaskQueue& operator=(const BoundedTaskQueue&) = delete;

  // Queues `task` for a worker, first waiting while `capacity` tasks are waiting.
  void enqueue(std::function<void()> task) override;
  // Runs the tasks still waiting, then joins the workers.
  void shutdown() override;
  // Tasks queued and not yet taken by a worker.
  std::size_t waiting() const;

 private:
  void work();

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable taskReady_, roomFree_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace carom::cli
