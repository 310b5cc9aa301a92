// trf_sequencer_test.cpp — the TRF Sequencer's read plan and the TRF layout capacities against the manual's examples.
#include "MappingTestUtil.h"
#include "TrfSequencer.h"

#include <gtest/gtest.h>

using namespace tcp;
using tcp::testing::Axes;
using tcp::testing::MappingParser;

namespace {

TensorType trfOf(const Axes &axes, num::DType d, const std::string &element) {
  TensorType t;
  t.tier = Tier::Trf;
  t.dtype = d;
  t.element = MappingParser(axes.table, element).parse();
  return t;
}

MappingRef m(const Axes &axes, const std::string &text) { return MappingParser(axes.table, text).parse(); }

}  // namespace

TEST(TrfSequencer, LayoutCapacityPerRegType) {
  // 128 rows (a half: 64) × 2 bank columns × 320 bits; 20-bit bf16, 10-bit i8/f8, 5-bit i4 slots.
  EXPECT_EQ(trfElementsPerRow(num::DType::bf16, false), 4096u);
  EXPECT_EQ(trfElementsPerRow(num::DType::bf16, true), 2048u);
  EXPECT_EQ(trfElementsPerRow(num::DType::i8, false), 8192u);
  EXPECT_EQ(trfElementsPerRow(num::DType::f8e4m3, true), 4096u);
  EXPECT_EQ(trfElementsPerRow(num::DType::i4, false), 16384u);
  EXPECT_EQ(trfElementsPerRow(num::DType::f32, false), 0u);
  EXPECT_EQ(trfRegType(num::DType::i4), 0);
  EXPECT_EQ(trfRegType(num::DType::i8), 1);
  EXPECT_EQ(trfRegType(num::DType::f8e5m2), 2);
  EXPECT_EQ(trfRegType(num::DType::bf16), 3);
}

TEST(TrfSequencer, BatchedMatMulTimePermute) {
  // "Aligner" > Example: Batched MatMul: Element [O, M, K], Time [M, O], Packet [L, K].
  Axes axes({{"M", 32}, {"N", 8}, {"K", 16}, {"L", 2}, {"O", 2}});
  TrfReadPlan p = planTrfRead(trfOf(axes, num::DType::bf16, "O, M, K"), m(axes, "M, O"), m(axes, "L, K"));
  ASSERT_TRUE(p.ok()) << p.diagnostics[0];
  EXPECT_EQ(p.regReadBytes, 32u);
  EXPECT_EQ(p.broadcast, 2u);
  ASSERT_EQ(p.entries.size(), 2u);  // outermost first: M { 32, 32 }, O { 2, 1024 } (the manual's Entry 1, Entry 0)
  EXPECT_EQ(p.entries[0].size, 32u);
  EXPECT_EQ(p.entries[0].stride, 32);
  EXPECT_EQ(p.entries[1].size, 2u);
  EXPECT_EQ(p.entries[1].stride, 1024);
}

TEST(TrfSequencer, BasicBroadcastAndAlignment) {
  Axes axes({{"M", 32}, {"K", 32}, {"T", 5}});
  TrfReadPlan basic = planTrfRead(trfOf(axes, num::DType::bf16, "K"), m(axes, "M"), m(axes, "K"));
  ASSERT_TRUE(basic.ok());
  EXPECT_EQ(basic.regReadBytes, 64u);
  ASSERT_EQ(basic.entries.size(), 1u);
  EXPECT_EQ(basic.entries[0].stride, 0);  // M is broadcast
  // reg_read_size = 64 spans both bank columns: strides must be multiples of 64 bytes (80 is not).
  TrfReadPlan bad = planTrfRead(trfOf(axes, num::DType::bf16, "T, K # 40"), m(axes, "T"), m(axes, "K"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.diagnostics[0].find("strides 80 bytes"), std::string::npos) << bad.diagnostics[0];
  // i8: 64 lanes of one contiguous row.
  TrfReadPlan i8 = planTrfRead(trfOf(axes, num::DType::i8, "T, K, 1 # 2"), m(axes, "T"), m(axes, "K, 1 # 2"));
  ASSERT_TRUE(i8.ok());
  EXPECT_EQ(i8.regReadBytes, 64u);
  EXPECT_EQ(i8.entries[0].stride, 64);
}

TEST(TrfSequencer, PaddedPacketReadsOnlyTheData) {
  // collect_flits = 1: Packet [K # 32] with K = 16 bf16 reads 32 bytes and repeats them.
  Axes axes({{"M", 32}, {"K", 16}});
  TrfReadPlan p = planTrfRead(trfOf(axes, num::DType::bf16, "K"), m(axes, "M"), m(axes, "K # 32"));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.regReadBytes, 32u);
  EXPECT_EQ(p.broadcast, 2u);
}
