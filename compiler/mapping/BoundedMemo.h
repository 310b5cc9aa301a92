// BoundedMemo.h — a process-wide, thread-safe memo of derived values, started over when it reaches its bound.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace tcp {

// Plans and coverages derived from immutable inputs are asked for more than once (the checker, the
// lowering and the cycle model see the same op). A memo keeps each once per process; its bound keeps a
// long REPL session or test run from growing it without end (it is cleared, not evicted piecemeal).
template <class Key, class Value>
class BoundedMemo {
 public:
  explicit BoundedMemo(size_t bound) : bound_(bound) {}

  // The value of `key`, computed by `derive()` (outside the lock) the first time.
  template <class Derive>
  Value get(const Key &key, Derive &&derive) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = map_.find(key); it != map_.end()) return it->second;
    }
    Value value = derive();
    std::lock_guard<std::mutex> lock(mutex_);
    if (map_.size() >= bound_) map_.clear();
    map_.emplace(key, value);
    return value;
  }

 private:
  std::mutex mutex_;
  std::map<Key, Value> map_;
  size_t bound_;
};

}  // namespace tcp
