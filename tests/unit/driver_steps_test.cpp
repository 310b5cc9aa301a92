// driver_steps_test.cpp — Compilation::stepSeconds (tcpc --time): the steps run() took, in order, up to where it stopped.
#include "Driver.h"

#include <gtest/gtest.h>

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> stepsOf(const std::string &text, tcp::Phase last) {
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tcp::Compilation comp(os);
  EXPECT_TRUE(comp.loadText(text, "t.tcp"));
  comp.run(last, nullptr);
  std::vector<std::string> names;
  for (const auto &[name, seconds] : comp.stepSeconds()) {
    EXPECT_GE(seconds, 0.0) << name;
    names.push_back(name);
  }
  return names;
}

TEST(DriverSteps, EveryStepOfACheckIsTimedInOrder) {
  EXPECT_EQ(stepsOf("axes![A = 8];\nfn main() {}\n", tcp::Phase::Cycles),
            (std::vector<std::string>{"parse", "resolve", "check", "host", "lower", "cycles"}));
}

TEST(DriverSteps, TimingStopsWhereTheRunStops) {
  EXPECT_EQ(stepsOf("axes![A = 8];\n", tcp::Phase::Resolved), (std::vector<std::string>{"parse", "resolve"}));
  // A syntax error ends the run after the parse.
  EXPECT_EQ(stepsOf("fn main( {}\n", tcp::Phase::Cycles), (std::vector<std::string>{"parse"}));
}

}  // namespace
