// BigStack.h — runs a function on a thread with a large stack, reusing that thread for every later call from the same thread.
#pragma once

#include <cstddef>
#include <functional>

namespace tcp {

// Runs fn on a thread with a `stackBytes` stack and waits for it; fn must not throw. Each calling
// thread keeps its worker for its later calls (a REPL parses every input: a thread per parse took
// 0.2 ms each, 2 s for 10,000 inputs). A call made on a worker runs inline (it has the large stack);
// if no worker can be started, fn runs inline on the caller's stack.
void runWithStack(size_t stackBytes, const std::function<void()> &fn);

}  // namespace tcp
