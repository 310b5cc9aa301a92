// cycle_model_test.cpp — cycle formulas, DMA cost, and the scheduler's hazards and overlap.
#include "CycleModel.h"
#include "CompiledTestUtil.h"
#include "Driver.h"
#include "Scheduler.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

using tcp::testing::Compiled;

namespace {

// The manual's reshape examples ("Kernel Examples" > permutation, A = 3, B = 5, C = 2, f8):
// Example 1 fetches Time = m![A, B] (15) packets of m![C # 8] (8 bytes, the manual's `C # 6` adds 6
// padding bytes): fetch_size 8, 15 cycles. Example 2 merges B and C into one 32-byte packet,
// Time = m![A]: fetch_size 32, 3 cycles. The lowering rejects the examples' commits (the commit
// adapter keeps only the 2 / 10 data bytes), so the stream goes to VRF instead. The tensors pad C to
// 8 (Example 1) and [B, C] to 16 (Example 2) bytes in HBM and DM: an HBM-to-DM DMA moves 8-byte
// aligned packets ("DMA Engine" > Alignment Constraints), which 30 contiguous bytes are not.
const char *kPaddingExample1 = R"(
axes![A = 3, B = 5, C = 2];
#[device(chip = 1)]
fn kernel(ctx: &mut Context, x: &HbmTensor<f8e4m3, m![1], m![A, B, C # 8]>) -> HbmTensor<f8e4m3, m![1], m![A, B, C # 8]> {
    let input: DmTensor<f8e4m3, m![1], m![1 # 2], m![1 # 256], m![A, B, C # 8]> = x.to_dm(&mut ctx.tdma, 0);
    let packed: VrfTensor<f8e4m3, m![1], m![1 # 2], m![1 # 256], m![A, B, C # 32]> = ctx
        .main
        .begin(input.view())
        .fetch::<f8e4m3, m![A, B], m![C # 8]>()
        .collect::<m![A, B], m![C # 32]>()
        .to_vrf(0);
    input.to_hbm(&mut ctx.tdma, 1 << 20)
}
)";

const char *kPaddingExample2 = R"(
axes![A = 3, B = 5, C = 2];
#[device(chip = 1)]
fn kernel(ctx: &mut Context, x: &HbmTensor<f8e4m3, m![1], m![A, [B, C] # 16]>) -> HbmTensor<f8e4m3, m![1], m![A, [B, C] # 16]> {
    let input: DmTensor<f8e4m3, m![1], m![1 # 2], m![1 # 256], m![A, [B, C] # 16]> = x.to_dm(&mut ctx.tdma, 0);
    let packed: VrfTensor<f8e4m3, m![1], m![1 # 2], m![1 # 256], m![A, [B, C] # 32]> = ctx
        .main
        .begin(input.view())
        .fetch::<f8e4m3, m![A], m![[B, C] # 32]>()
        .collect::<m![A], m![[B, C] # 32]>()
        .to_vrf(0);
    input.to_hbm(&mut ctx.tdma, 1 << 20)
}
)";

TEST(CycleModel, FetchCyclesOfThePaddingExamples) {
  Compiled c1(kPaddingExample1);
  ASSERT_TRUE(c1.ok) << c1.diags;
  const tcp::OpCost &tu = c1.op(0, 1);
  EXPECT_EQ(tu.resource, tcp::Resource::Main);
  EXPECT_EQ(c1.engine(0, 1, "fetch"), 15u);
  EXPECT_EQ(c1.engine(0, 1, "collect"), 15u);
  EXPECT_EQ(c1.engine(0, 1, "vrf_load"), 15u);
  EXPECT_EQ(c1.engine(0, 1, "switch"), 15u);  // forwarding: one 8-byte packet (one flit) per cycle
  // slowest engine + one stage latency for each of fetch, switch, collect and the VRF load
  EXPECT_EQ(tu.cycles, 15u + 4u);
  Compiled c2(kPaddingExample2);
  ASSERT_TRUE(c2.ok) << c2.diags;
  EXPECT_EQ(c2.engine(0, 1, "fetch"), 3u);
  EXPECT_EQ(c2.op(0, 1).cycles, 3u + 4u);
  // The to_hbm reads the DM tensor the main op also reads: no hazard, they overlap.
  const tcp::FunctionSchedule &s = c2.comp.schedule().functions.at(0);
  EXPECT_EQ(s.ops.at(2).start, s.ops.at(1).start);
  EXPECT_LT(s.ops.at(2).start, s.ops.at(1).end);
}

// The Fetch Adapter batching examples as stage functions (no lowering: the cycle model derives the
// fetch plan itself): 16-byte packets 24 cycles, 32-byte packets 12, 48-byte packets batched from
// 3 × 16-byte fetches 12.
TEST(CycleModel, FetchCyclesOfTheBatchingExamplesInStageFunctions) {
  const char *text = R"(
axes![N = 4, C = 3, H = 4, W = 8];
fn fetch_batch_2<'l>(
    input: BeginTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![1], m![N, C, H, W]>,
) -> FetchTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![N, C, H / 2], m![H % 2, W]> {
    input.fetch()
}
fn fetch_batch_3<'l>(
    input: BeginTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![1], m![N, C, H, W]>,
) -> FetchTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![N, C], m![H, W]> {
    input.fetch()
}
fn fetch_batch_4<'l>(
    input: BeginTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![1], m![N, C, H, W]>,
) -> FetchTensor<'l, { Tu::Main }, i4, m![1], m![1 # 2], m![1 # 256], m![N], m![C, H, W]> {
    input.fetch()
}
)";
  Compiled c(text);
  ASSERT_TRUE(c.ok) << c.diags;
  ASSERT_EQ(c.comp.costs().functions.size(), 3u);
  EXPECT_EQ(c.engine(0, 0, "fetch"), 24u);
  EXPECT_EQ(c.engine(1, 0, "fetch"), 12u);
  EXPECT_EQ(c.engine(2, 0, "fetch"), 12u);
  // + the forwarding switch (24, 12 and 4 × 2 flits) and one latency per engine
  EXPECT_EQ(c.comp.schedule().total, 26u + 14u + 14u);
}

// The sub context fetches 8 bytes per fetch: a 32-byte packet takes 4 cycles (manual 003 kernel),
// the main context one (fetch_size 32).
TEST(CycleModel, SubContextFetchIsNarrower) {
  const char *text = R"(
axes![A = 2048];
type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];
#[device(chip = 1)]
fn kernel(ctx: &mut Context, lhs: &HbmTensor<i32, Chip, m![A]>, rhs: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let lhs_dm = lhs.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma, 0);
    let rhs_dm = rhs.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma, 1 << 12);
    let rhs_vrf: VrfTensor<i32, Chip, Cluster, Slice, m![A % 8]> = ctx
        .sub
        .begin(rhs_dm.view())
        .fetch::<i32, m![1], m![A % 8]>()
        .collect::<m![A % 8 / 8], m![A % 8 % 8]>()
        .to_vrf(0);
    let result = ctx
        .main
        .begin(lhs_dm.view())
        .fetch::<i32, m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_branch(BranchMode::Unconditional)
        .vector_fxp(FxpBinaryOp::MulInt, &rhs_vrf)
        .vector_final()
        .commit::<m![A % 8]>(1 << 13);
    result.to_hbm(&mut ctx.tdma, 1 << 28)
}
)";
  Compiled c(text);
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.op(0, 2).resource, tcp::Resource::Sub);
  EXPECT_EQ(c.engine(0, 2, "fetch"), 4u);
  EXPECT_EQ(c.op(0, 3).resource, tcp::Resource::Main);
  EXPECT_EQ(c.engine(0, 3, "fetch"), 1u);
  // The main op reads the VRF the sub op writes: it starts when the sub op ends (RAW).
  const tcp::FunctionSchedule &s = c.comp.schedule().functions.at(0);
  EXPECT_EQ(s.ops.at(3).start, std::max(s.ops.at(2).end, s.ops.at(0).end));
  EXPECT_GE(s.ops.at(3).start, s.ops.at(2).end);
  // The second to_dm writes what the sub op reads: the sub op waits for it.
  EXPECT_EQ(s.ops.at(2).start, s.ops.at(1).end);
}

tcp::OpCost op(tcp::Resource r, uint64_t cycles, std::vector<tcp::MemRange> reads, std::vector<tcp::MemRange> writes) {
  tcp::OpCost c;
  c.resource = r;
  c.cycles = cycles;
  c.reads = std::move(reads);
  c.writes = std::move(writes);
  return c;
}

TEST(Scheduler, MainWaitsForTheSubOpWritingItsTrf) {
  tcp::FunctionCost f;
  f.ops.push_back(op(tcp::Resource::Sub, 1000, {{tcp::MemTier::Dm, 0, 64}}, {{tcp::MemTier::Trf, 0, 8192}}));
  f.ops.push_back(op(tcp::Resource::Main, 10, {{tcp::MemTier::Dm, 4096, 8192}, {tcp::MemTier::Trf, 0, 0, true}},
                     {{tcp::MemTier::Dm, 65536, 70000}}));
  tcp::FunctionSchedule s = tcp::schedule(f);
  EXPECT_EQ(s.ops[1].start, 1000u);
  EXPECT_EQ(s.ops[1].waitsFor, std::vector<size_t>{0});
  EXPECT_EQ(s.makespan, 1010u);
}

TEST(Scheduler, IndependentOpsOverlap) {
  tcp::FunctionCost f;
  f.ops.push_back(op(tcp::Resource::Dma, 5000, {}, {{tcp::MemTier::Dm, 0, 4096}}));
  f.ops.push_back(op(tcp::Resource::Sub, 300, {{tcp::MemTier::Dm, 8192, 9000}}, {{tcp::MemTier::Trf, 0, 512}}));
  f.ops.push_back(op(tcp::Resource::Main, 700, {{tcp::MemTier::Dm, 16384, 20000}}, {{tcp::MemTier::Dm, 32768, 33000}}));
  tcp::FunctionSchedule s = tcp::schedule(f);
  EXPECT_EQ(s.ops[0].start, 0u);
  EXPECT_EQ(s.ops[1].start, 0u);
  EXPECT_EQ(s.ops[2].start, 0u);
  EXPECT_EQ(s.makespan, 5000u);
}

TEST(Scheduler, WarAndWawAndResourceConflicts) {
  tcp::FunctionCost f;
  f.ops.push_back(op(tcp::Resource::Main, 50, {{tcp::MemTier::Dm, 0, 100}}, {{tcp::MemTier::Dm, 1000, 1100}}));
  // WAR: the DMA overwrites what op 0 reads.
  f.ops.push_back(op(tcp::Resource::Dma, 20, {}, {{tcp::MemTier::Dm, 50, 60}}));
  // WAW with op 0's output, on another resource.
  f.ops.push_back(op(tcp::Resource::Sub, 5, {}, {{tcp::MemTier::Dm, 1050, 1060}}));
  // Same resource as op 0, no hazard: waits for the main context only.
  f.ops.push_back(op(tcp::Resource::Main, 7, {{tcp::MemTier::Dm, 5000, 5100}}, {{tcp::MemTier::Dm, 6000, 6100}}));
  tcp::FunctionSchedule s = tcp::schedule(f);
  EXPECT_EQ(s.ops[1].start, 50u);
  EXPECT_EQ(s.ops[2].start, 50u);
  EXPECT_EQ(s.ops[3].start, 50u);
  EXPECT_EQ(s.makespan, 70u);
}

TEST(CycleModel, PeakFootprintCountsLiveRanges) {
  std::vector<tcp::OpCost> ops;
  ops.push_back(op(tcp::Resource::Dma, 1, {}, {{tcp::MemTier::Dm, 0, 1000}}));
  ops.push_back(op(tcp::Resource::Dma, 1, {}, {{tcp::MemTier::Dm, 1000, 3000}}));
  ops.push_back(op(tcp::Resource::Main, 1, {{tcp::MemTier::Dm, 0, 1000}}, {{tcp::MemTier::Dm, 4000, 4100}}));
  ops.push_back(op(tcp::Resource::Main, 1, {{tcp::MemTier::Dm, 1000, 3000}}, {{tcp::MemTier::Dm, 0, 500}}));
  auto peak = tcp::peakFootprint(ops);
  // At op 2: [0,1000) + [1000,3000) + [4000,4100) = 3100.
  EXPECT_EQ(peak[tcp::MemTier::Dm], 3100u);
  EXPECT_EQ(peak[tcp::MemTier::Trf], 0u);
}

}  // namespace
