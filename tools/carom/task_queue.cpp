#include "task_queue.h"

#include <utility>

namespace carom::cli {

BoundedTaskQueue::BoundedTaskQueue(std::size_t workers, std::size_t capacity)
    : capacity_(capacity) {
  for (std::size_t i = 0; i < workers; ++i)
    workers_.emplace_back([this] { work(); });
}

BoundedTaskQueue::~BoundedTaskQueue() {
  shutdown();
}

void BoundedTaskQueue::enqueue(std::function<void()> task) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    roomFree_.wait(lock, [this] { return tasks_.size() < capacity_; });
    tasks_.push_back(std::move(task));
  }
  taskReady_.notify_one();
}

void BoundedTaskQueue::shutdown() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  taskReady_.notify_all();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

std::size_t BoundedTaskQueue::waiting() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return tasks_.size();
}

void BoundedTaskQueue::work() {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      taskReady_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and nothing left to run
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    roomFree_.notify_one();
    task();
  }
}

}  // namespace carom::cli
