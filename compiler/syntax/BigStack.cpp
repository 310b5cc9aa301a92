// BigStack.cpp — a persistent worker thread per calling thread, with a large stack, for the parser's recursion.
#include "BigStack.h"

#include <pthread.h>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace tcp {

namespace {

thread_local bool onWorker = false;  // this thread is a worker: its stack is already large

class Worker {
 public:
  explicit Worker(size_t stackBytes) : stackBytes_(stackBytes) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return;
    started_ = pthread_attr_setstacksize(&attr, stackBytes) == 0 && pthread_create(&thread_, &attr, &Worker::main, this) == 0;
    pthread_attr_destroy(&attr);
  }
  ~Worker() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    pthread_join(thread_, nullptr);
  }
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  bool started() const { return started_; }
  size_t stackBytes() const { return stackBytes_; }

  void run(const std::function<void()> &fn) {
    std::unique_lock<std::mutex> lock(mu_);
    job_ = &fn;
    cv_.notify_all();
    cv_.wait(lock, [&] { return job_ == nullptr; });
  }

 private:
  static void *main(void *self) {
    onWorker = true;
    static_cast<Worker *>(self)->loop();
    return nullptr;
  }
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return job_ != nullptr || stop_; });
      if (!job_) return;  // stop_, and nothing left to run
      lock.unlock();
      (*job_)();
      lock.lock();
      job_ = nullptr;
      cv_.notify_all();
    }
  }

  size_t stackBytes_;
  bool started_ = false;
  pthread_t thread_{};
  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void()> *job_ = nullptr;  // the call being run (guarded by mu_)
  bool stop_ = false;
};

thread_local std::unique_ptr<Worker> worker;  // the calling thread's, made at its first call

}  // namespace

void runWithStack(size_t stackBytes, const std::function<void()> &fn) {
  if (onWorker) return fn();
  if (!worker || worker->stackBytes() < stackBytes) worker = std::make_unique<Worker>(stackBytes);
  if (!worker->started()) return fn();
  worker->run(fn);
}

}  // namespace tcp
