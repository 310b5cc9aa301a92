// CompiledTestUtil.h — a program compiled from text through the cycles phase, for cycle-model tests.
#pragma once

#include "CycleModel.h"
#include "Driver.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace tcp::testing {

// Compiles `text` through the cycles phase; `ok` is false and `diags` holds the messages on errors.
struct Compiled {
  std::string diags;
  llvm::raw_string_ostream os{diags};
  tcp::Compilation comp{os};
  bool ok = false;
  explicit Compiled(const std::string &text) {
    ok = comp.loadText(text, "input.tcp") && comp.run(tcp::Phase::Cycles, nullptr);
    os.flush();
  }
  const tcp::OpCost &op(size_t f, size_t i) const { return comp.costs().functions.at(f).ops.at(i); }
  uint64_t cycles(size_t i) const { return op(0, i).cycles; }
  uint64_t engine(size_t f, size_t i, const std::string &name) const {
    for (const tcp::EngineCost &e : op(f, i).engines)
      if (e.engine == name) return e.cycles;
    ADD_FAILURE() << "no engine " << name;
    return 0;
  }
};

}  // namespace tcp::testing
