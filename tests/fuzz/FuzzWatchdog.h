// FuzzWatchdog.h — opt-in: every thread's stack of an input that runs too long, written by gdb (libFuzzer's timeout shows the main thread only).
//
// tcp parses on a thread of its own (runWithStack), so when a text target times out libFuzzer's report
// shows the main thread waiting in pthread_join. With TCP_FUZZ_STACKS_AFTER=S, an input still running
// after S seconds makes a watchdog thread run `gdb -p PID -batch -ex "thread apply all bt 80"` once,
// into stacks-PID-TIME.txt in TCP_FUZZ_STACKS_DIR (default: the working directory). Off by default.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

namespace tcp::fuzz {

class InputWatch {
 public:
  InputWatch() {
    static const long after = [] {
      const char *env = std::getenv("TCP_FUZZ_STACKS_AFTER");
      long s = env ? std::atol(env) : 0;
      if (s > 0) std::thread(watch, s).detach();
      return s;
    }();
    if (after > 0) started().store(now());
  }
  ~InputWatch() { started().store(0); }

 private:
  static long now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  static std::atomic<long> &started() {
    static std::atomic<long> at{0};
    return at;
  }
  static void watch(long after) {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      long at = started().load();
      if (at == 0 || now() - at <= after) continue;
      const char *dir = std::getenv("TCP_FUZZ_STACKS_DIR");
      std::string cmd = "gdb -p " + std::to_string(getpid()) + " -batch -ex 'thread apply all bt 80' > '" +
                        std::string(dir ? dir : ".") + "/stacks-" + std::to_string(getpid()) + "-" +
                        std::to_string(now()) + ".txt' 2>&1";
      if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "FuzzWatchdog: gdb failed\n");
      started().compare_exchange_strong(at, 0);  // once per input
    }
  }
};

}  // namespace tcp::fuzz
