// dma_engine_share_test.cpp — a Time that walks the DM side's (cluster, slice / 64) axes: each DMA Engine runs its own share.
#include "CompiledTestUtil.h"
#include "DmaPlan.h"

#include <gtest/gtest.h>

using tcp::testing::Compiled;

namespace {

std::string kernel(const std::string &dm, const std::string &time, const std::string &packet) {
  return "axes![B = 1048576];\n#[device(chip = 1)]\nfn k(ctx: &mut Context, x: &HbmTensor<i8, m![1], m![B]>) {\n"
         "    let y: DmTensor<i8, m![1], " + dm + "> =\n        x.dma::<" + time + ", " + packet +
         ">(&mut ctx.tdma, 0);\n}\n";
}

const tcp::DmaConfig *dmaOf(const Compiled &c) { return c.comp.lowered().functions.at(0).tus.at(0).find<tcp::DmaConfig>(); }

// Every engine: one command of `steps` steps based at its own 131072-byte share of B on both sides.
void expectShares(const Compiled &c, uint64_t steps) {
  const tcp::DmaConfig *d = dmaOf(c);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->engines.size(), 8u);
  uint64_t bytes = 0;
  for (const tcp::DmaEngineWork &w : d->engines) {
    ASSERT_EQ(w.commands.size(), 1u);
    const tcp::DmaCommand &cmd = w.commands[0];
    EXPECT_EQ(cmd.steps(8), steps) << "engine (" << w.cluster << ", " << w.pair << ")";
    uint64_t share = (w.cluster * 4 + w.pair) * 131072;
    EXPECT_EQ(cmd.srcBase, int64_t(share));
    EXPECT_EQ(cmd.dstBase, int64_t(tcp::dmspace::address(w.cluster, w.pair * 64, 0)));
    // Every step lands in the engine's own 64 slices.
    cmd.forEachStep(8, [&](uint64_t src, uint64_t dst) {
      EXPECT_EQ(src / 131072, share / 131072);
      EXPECT_EQ(dst / tcp::dmspace::kClusterStride, w.cluster);
      EXPECT_EQ(dst % tcp::dmspace::kClusterStride / tcp::dmspace::kSliceStride / 64, w.pair);
    });
    bytes += cmd.steps(8) * cmd.stride0;
  }
  EXPECT_EQ(bytes, 1048576u);
  // The cost: each engine moves its 131072 bytes in one command, all in the same cycles.
  const std::vector<tcp::DmaEngineCost> &costs = c.op(0, 0).dmaEngines;
  ASSERT_EQ(costs.size(), 8u);
  for (const tcp::DmaEngineCost &e : costs) {
    EXPECT_EQ(e.bytes, 131072u);
    EXPECT_EQ(e.commands, 1u);
    EXPECT_EQ(e.cycles, costs[0].cycles);
  }
  EXPECT_EQ(c.op(0, 0).bytes.at(tcp::MemTier::Hbm).read, 1048576u);
}

TEST(DmaEngineShare, TimeWalkingClusterAndSlicesSplitsAmongEngines) {
  Compiled c(kernel("m![B / 524288], m![B % 524288 / 2048], m![B % 2048]", "m![B / 2048]", "m![B % 2048]"));
  ASSERT_TRUE(c.ok) << c.diags;
  expectShares(c, 64);
  // 500 startup + 64 steps x 8 DM requests, 2 cycles each in one DMN (minus the overlap of the
  // last): 992; before the split engine (0, 0) ran 512 steps (7726).
  EXPECT_EQ(c.op(0, 0).dmaEngines.at(0).cycles, 1492u);
  EXPECT_EQ(c.cycles(0), 1492u);
}

TEST(DmaEngineShare, ClusterWalkedInnermost) {
  // The cluster digit is the Time's innermost: each engine runs one of its positions.
  Compiled c(kernel("m![B / 524288], m![B % 524288 / 2048], m![B % 2048]", "m![B % 524288 / 2048, B / 524288]",
                    "m![B % 2048]"));
  ASSERT_TRUE(c.ok) << c.diags;
  expectShares(c, 64);
}

TEST(DmaEngineShare, TimeWalkingOnlyTheSlicesKeepsTheClusterInTheBase) {
  // Only the slice pairs are shared: the cluster stays an engine coordinate (2 x 256 slices).
  Compiled c(kernel("m![B / 524288], m![B % 524288 / 2048], m![B % 2048]", "m![B % 524288 / 2048]",
                    "m![B % 2048]"));
  ASSERT_TRUE(c.ok) << c.diags;
  expectShares(c, 64);
}

TEST(DmaEngineShare, TimeDisjointFromTheEngineAxesIsUnchanged) {
  Compiled c(kernel("m![B / 524288], m![B % 524288 / 2048], m![B % 2048]", "m![B % 131072 / 2048]",
                    "m![B % 2048]"));
  ASSERT_TRUE(c.ok) << c.diags;
  expectShares(c, 64);
}

TEST(DmaEngineShare, PaddedClusterIsNotAShareOfTheTime) {
  // Cluster `1 # 2` merges into the engines' `B % 4` term as padding: the Time's `B / 4` is not an
  // engine digit. Each of the 4 engines runs its one `B % 4` position: 4 x 64 steps of 256 bytes.
  Compiled c("axes![A = 64, B = 16, C = 256];\n#[device(chip = 1)]\nfn k(ctx: &mut Context, x: &HbmTensor<i8, "
             "m![1], m![B, A, C]>) {\n    let y: DmTensor<i8, m![1], m![1 # 2], m![B % 4, A], m![B / 4, C]> =\n"
             "        x.dma::<m![B / 4, B % 4, A], m![C]>(&mut ctx.tdma, 0);\n}\n");
  ASSERT_TRUE(c.ok) << c.diags;
  const tcp::DmaConfig *d = dmaOf(c);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->engines.size(), 4u);
  for (const tcp::DmaEngineWork &w : d->engines) {
    ASSERT_EQ(w.commands.size(), 1u);
    EXPECT_EQ(w.commands[0].steps(8), 256u);
    EXPECT_EQ(w.commands[0].srcBase, int64_t(w.pair) * 16384);
    EXPECT_EQ(w.commands[0].dstBase, int64_t(tcp::dmspace::address(0, w.pair * 64, 0)));
  }
  EXPECT_EQ(c.op(0, 0).bytes.at(tcp::MemTier::Hbm).read, 262144u);
}

}  // namespace
