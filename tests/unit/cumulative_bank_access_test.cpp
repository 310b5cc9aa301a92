// cumulative_bank_access_test.cpp — the cumulative main + sub + DMA same-bank rule of "Bank Starvation".
#include "CompiledTestUtil.h"
#include "CumulativeBankAccess.h"
#include "Scheduler.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using tcp::testing::Compiled;

namespace {

tcp::OpCost op(tcp::Resource r, uint64_t cycles, uint64_t run = 0, unsigned bank = 0) {
  tcp::OpCost c;
  c.resource = r;
  c.cycles = cycles;
  c.sameBankRun = run;
  c.sameBankRunBank = bank;
  return c;
}

TEST(CumulativeBankAccess, ManualSafeAndUnsafeTotals) {
  // "Main-context Fetch: 30, Sub-context Fetch: 20, DMA: 1 -> 51: Safe"; main 35 + sub 30 + 1 = 66.
  tcp::FunctionCost f;
  f.ops = {op(tcp::Resource::Main, 1000, 30, 2), op(tcp::Resource::Sub, 1000, 20, 2), op(tcp::Resource::Dma, 600)};
  EXPECT_TRUE(tcp::cumulativeBankConflicts(f, tcp::schedule(f)).empty());
  f.ops[0].sameBankRun = 35;
  f.ops[1].sameBankRun = 30;
  auto c = tcp::cumulativeBankConflicts(f, tcp::schedule(f));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].main, 0u);
  EXPECT_EQ(c[0].sub, 1u);
  EXPECT_EQ(c[0].dma, 2u);
  EXPECT_EQ(c[0].bank, 2u);
  EXPECT_EQ(c[0].total(), 66u);
  // The boundary: 63 is safe ("must be less than 64"), 64 is not.
  f.ops[0].sameBankRun = 32;
  EXPECT_TRUE(tcp::cumulativeBankConflicts(f, tcp::schedule(f)).empty());  // 32 + 30 + 1 = 63
  f.ops[0].sameBankRun = 33;
  EXPECT_EQ(tcp::cumulativeBankConflicts(f, tcp::schedule(f)).size(), 1u);  // 64
}

TEST(CumulativeBankAccess, NeedsTheSameBankAndADmaBeside) {
  tcp::FunctionCost f;
  f.ops = {op(tcp::Resource::Main, 1000, 40, 0), op(tcp::Resource::Sub, 1000, 40, 1), op(tcp::Resource::Dma, 600)};
  EXPECT_TRUE(tcp::cumulativeBankConflicts(f, tcp::schedule(f)).empty());  // different banks
  f.ops[1].sameBankRunBank = 0;
  f.ops.pop_back();  // no DMA: main may slow sub, nothing times out
  EXPECT_TRUE(tcp::cumulativeBankConflicts(f, tcp::schedule(f)).empty());
  // A DMA that starts after both end does not overlap them.
  tcp::FunctionCost g;
  g.ops = {op(tcp::Resource::Dma, 100), op(tcp::Resource::Main, 50, 40, 0), op(tcp::Resource::Sub, 50, 40, 0)};
  tcp::FunctionSchedule s = tcp::schedule(g);
  s.ops[0].start = 200;  // as if the DMA waited on a hazard
  s.ops[0].end = 300;
  EXPECT_TRUE(tcp::cumulativeBankConflicts(g, s).empty());
}

TEST(CumulativeBankAccess, GoldenKernelRunsAndWarning) {
  std::ifstream in(std::string(TCP_SOURCE_DIR) + "/tests/golden/dma/warn_cumulative_bank_access.tcp");
  std::stringstream text;
  text << in.rdbuf();
  Compiled c(text.str());
  ASSERT_TRUE(c.ok) << c.diags;
  // unsafe_sum: sub (op 2) 30 and main (op 3) 35 in a row to bank 0; safe: 20 and 30 (the manual's).
  EXPECT_EQ(c.op(0, 2).sameBankRun, 30u);
  EXPECT_EQ(c.op(0, 3).sameBankRun, 35u);
  EXPECT_EQ(c.op(1, 2).sameBankRun, 20u);
  EXPECT_EQ(c.op(1, 3).sameBankRun, 30u);
  EXPECT_EQ(c.op(0, 3).sameBankRunBank, 0u);
  EXPECT_NE(c.diags.find("35 + 30 + 1 = 66"), std::string::npos) << c.diags;
  EXPECT_EQ(c.diags.find("30 + 20 + 1"), std::string::npos) << c.diags;
}

}  // namespace
