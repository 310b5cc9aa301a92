// dma_cost_test.cpp — HBM address bit map, DMA request/channel/DMN formulas, DmaSequencer derivation and segmentation.
#include "BankStarvation.h"
#include "CycleModel.h"
#include "DmaCost.h"
#include "DmaPlan.h"
#include "CompiledTestUtil.h"
#include "Driver.h"
#include "HbmAddressMap.h"
#include "Scheduler.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

using tcp::testing::Compiled;

namespace {

using tcp::hbm::decode;

TEST(HbmAddressMap, LowBitsAreByteStackAndChannel) {
  // Bits 0-7: byte within the 256-byte unit; bit 8: stack; bits 9-12: channel.
  EXPECT_EQ(decode(255).stack, 0u);
  EXPECT_EQ(decode(255).column, 255u);
  EXPECT_EQ(decode(256).stack, 1u);
  EXPECT_EQ(decode(256).globalChannel(), 16u);
  for (unsigned c = 0; c < 16; ++c) EXPECT_EQ(decode(uint64_t(c) << 9).channel, c);
  // 32 consecutive units cover all 32 channels once.
  std::vector<int> seen(32, 0);
  for (uint64_t u = 0; u < 32; ++u) ++seen[decode(u * 256).globalChannel()];
  for (int n : seen) EXPECT_EQ(n, 1);
}

TEST(HbmAddressMap, ChannelIsTheXorOfFourBitGroups) {
  // "the channel's first bit equals the XOR of bits 9, 13, (17,) 21 and 25".
  for (unsigned b : {9u, 13u, 17u, 21u, 25u}) EXPECT_EQ(decode(uint64_t(1) << b).channel, 1u) << b;
  EXPECT_EQ(decode((uint64_t(1) << 9) | (uint64_t(1) << 13)).channel, 0u);
  EXPECT_EQ(decode((uint64_t(1) << 12) | (uint64_t(1) << 28)).channel, 0u);
  EXPECT_EQ(decode(uint64_t(1) << 28).channel, 8u);
}

TEST(HbmAddressMap, BankGroupBankSliceRowAndColumn) {
  EXPECT_EQ(decode(uint64_t(1) << 13).bankGroup, 1u);
  EXPECT_EQ(decode(uint64_t(1) << 19).bankGroup, 2u);
  EXPECT_EQ(decode(uint64_t(3) << 17).bank, 3u);
  EXPECT_EQ(decode(uint64_t(1) << 20).slice, 1u);
  EXPECT_EQ(decode(uint64_t(1) << 34).slice, 2u);
  EXPECT_EQ(decode(uint64_t(1) << 21).row, 1u);
  EXPECT_EQ(decode(uint64_t(1) << 33).row, uint64_t(1) << 12);
  EXPECT_EQ(decode(uint64_t(1) << 35).row, uint64_t(1) << 13);
  // The byte within the 2K row: bits 0-7 and 14-16.
  EXPECT_EQ(decode(uint64_t(7) << 14).column, 7u << 8);
}

TEST(HbmAddressMap, ColumnToColumnDelay) {
  tcp::hbm::HbmLocation a = decode(0), b = decode(uint64_t(1) << 13), c = decode(uint64_t(1) << 20);
  EXPECT_EQ(tcp::hbm::tccd(a, b), 2u);  // same slice, different bank group
  EXPECT_EQ(tcp::hbm::tccd(a, c), 3u);  // different slice
  EXPECT_EQ(tcp::hbm::tccd(a, a), 4u);  // same slice, same bank group
}

TEST(DmaCost, RequestsSplitPacketsIntoUnits) {
  std::vector<tcp::HbmRequest> r;
  tcp::hbmRequests(0, 4095, false, r);  // "packet size 4095 results in 16 DMA requests"
  EXPECT_EQ(r.size(), 16u);
  r.clear();
  tcp::hbmRequests(128, 256, false, r);  // an unaligned read crosses a boundary: two units
  EXPECT_EQ(r.size(), 2u);
  r.clear();
  tcp::hbmRequests(0, 2800, true, r);  // "ten 256-byte requests plus one 240-byte request"
  ASSERT_EQ(r.size(), 11u);
  for (size_t k = 0; k < 10; ++k) EXPECT_FALSE(r[k].partial);
  EXPECT_TRUE(r[10].partial);
}

TEST(DmaCost, ChannelTimeIdealConflictAndRmw) {
  using namespace tcp::dmacost;
  // 32 units over 32 channels: one unit (16/3 cycles) each.
  std::vector<tcp::HbmRequest> r;
  for (uint64_t u = 0; u < 32; ++u) r.push_back({u * 256, false, false});
  EXPECT_EQ(tcp::hbmChannelLoad(r).maxThirds, kThirdsPerUnit);
  EXPECT_EQ(tcp::hbmChannelLoad(r).channelsUsed, 32u);
  // Alternating rows of one bank (bit 21 + bit 9 keep the channel): every access after the first
  // switches rows (~40 cycles).
  r.clear();
  uint64_t other = (uint64_t(1) << 21) | (uint64_t(1) << 9);
  for (int k = 0; k < 4; ++k) r.push_back({k % 2 ? other : 0, false, false});
  tcp::ChannelLoad l = tcp::hbmChannelLoad(r);
  EXPECT_EQ(l.rowSwitches, 3u);
  EXPECT_EQ(l.maxThirds, kThirdsPerUnit + 3 * kThirdsRowSwitch);
  // A partial write is a read-modify-write, ~50x.
  EXPECT_EQ(tcp::hbmChannelLoad({{0, true, true}}).maxThirds, kThirdsPerUnit * kRmwFactor);
  // tCCD: four units of one channel, (slice, bank group) and row, in 4 columns (bits 14-15, with
  // bits 10-11 keeping the channel): commands 32/3 cycles apart after the first.
  r.clear();
  for (uint64_t k = 0; k < 4; ++k) r.push_back({(k << 14) | (k << 10), false, false});
  EXPECT_EQ(tcp::hbmChannelLoad(r).channelsUsed, 1u);
  EXPECT_EQ(tcp::hbmChannelLoad(r).maxThirds, kThirdsPerUnit + 3 * kThirdsPerUnit * 2);
}

TEST(DmaCost, DmnInterleaving) {
  using tcp::dmspace::address;
  // Alternating DMNs: one 256-byte request per cycle ("Optimizing DMA Performance" 1.).
  std::vector<uint64_t> alt, one;
  for (unsigned k = 0; k < 64; ++k) alt.push_back(address(0, (k % 2) * 32 + k / 2 % 32, 0));
  EXPECT_EQ(tcp::dmSideCycles(alt, 256), 64u);
  // One DMN: 128 B/cycle, two cycles per request.
  for (unsigned k = 0; k < 64; ++k) one.push_back(address(0, k % 32, 0));
  EXPECT_EQ(tcp::dmSideCycles(one, 256), 128u);
  // Requests of at most 128 bytes take one cycle on one DMN.
  EXPECT_EQ(tcp::dmSideCycles(one, 128), 64u);
  // Order: 32 requests to DMN 0, then 32 to DMN 1, take about twice as long as alternating.
  std::vector<uint64_t> runs;
  for (unsigned k = 0; k < 64; ++k) runs.push_back(address(0, k / 32 * 32 + k % 32, 0));
  EXPECT_GE(tcp::dmSideCycles(runs, 256), 120u);
}

TEST(DmaCost, ManualExample2And3) {
  Compiled c(R"(
axes![A = 256, B = 256, C = 256];
#[device(chip = 1)]
fn k(ctx: &mut Context, x: &HbmTensor<i8, m![1], m![B, A, C]>) {
    let a: DmTensor<i8, m![1], m![1 # 2], m![A / 4 # 256], m![A % 4, B, C]> =
        x.dma::<m![B, A % 4, A / 4 % 32, A / 128], m![C]>(&mut ctx.tdma, 0);
    let b: DmTensor<i8, m![1], m![1 # 2], m![A / 4 # 256], m![B, A % 4, C]> =
        a.dma::<m![B, A % 4, A / 4 % 32, A / 128], m![C]>(&mut ctx.tdma, 262144);
}
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.cycles(0), 66036u);   // max(65536, 65536) + 500
  EXPECT_EQ(c.cycles(1), 131572u);  // 65536 + 65536 + 500 (one cluster: reads and writes take turns)
}

TEST(DmaCost, SlowerWithoutDmnInterleaving) {
  // Example 2 with the DMN term outermost: the first half of the requests all go to DMN 0.
  Compiled c(R"(
axes![A = 256, B = 256, C = 256];
#[device(chip = 1)]
fn k(ctx: &mut Context, x: &HbmTensor<i8, m![1], m![B, A, C]>) {
    let a: DmTensor<i8, m![1], m![1 # 2], m![A / 4 # 256], m![A % 4, B, C]> =
        x.dma::<m![A / 128, B, A % 4, A / 4 % 32], m![C]>(&mut ctx.tdma, 0);
}
)");
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_GT(c.cycles(0), 500u + 2 * 65536u - 100);
}

tcp::TensorType hbm(const tcp::MappingRef &e) {
  tcp::TensorType t;
  t.tier = tcp::Tier::Hbm;
  t.chip = tcp::Mapping::identity();
  t.element = e;
  return t;
}

TEST(DmaPlan, PairedStridesAndStride0) {
  tcp::AxisTable axes;
  std::string err;
  axes.add({"A", 8, "", ""});
  axes.add({"B", 8, "", ""});
  axes.add({"C", 256, "", ""});
  auto A = tcp::Mapping::symbol(axes, "A", &err), B = tcp::Mapping::symbol(axes, "B", &err),
       C = tcp::Mapping::symbol(axes, "C", &err);
  tcp::DmaRequest req;
  req.in = hbm(tcp::Mapping::pair(A, tcp::Mapping::pair(B, C)));
  req.out = hbm(tcp::Mapping::pair(B, tcp::Mapping::pair(A, C)));
  req.dstAddr = 16384;
  req.time = tcp::Mapping::pair(A, B);
  req.packet = C;
  tcp::DmaPlan p = tcp::planDma(req);
  ASSERT_TRUE(p.ok()) << p.diagnostics.at(0);
  EXPECT_EQ(p.shared.str(p.src, p.dst, 8), "[A=8:(2048, 256), B=8:(256, 2048), C=256:(1, 1)], base=(0, 16384), stride0 = 256");
  ASSERT_EQ(p.engines.size(), 1u);
  EXPECT_EQ(p.engines[0].commands.at(0).steps(8), 64u);
  EXPECT_EQ(tcp::dmaPlanCost(p).cycles, 628u);  // Example 1: 64 + 64 + 500
  // A contiguous copy merges the whole run into stride0 (at most 4096 bytes).
  req.out = req.in;
  req.time = A;
  req.packet = tcp::Mapping::pair(B, C);
  tcp::DmaPlan q = tcp::planDma(req);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q.shared.stride0, 4096u);
  EXPECT_EQ(q.shared.entries.size(), 2u);
}

TEST(DmaPlan, AlignmentDiagnostics) {
  tcp::AxisTable axes;
  std::string err;
  axes.add({"A", 4, "", ""});
  axes.add({"B", 3, "", ""});
  auto A = tcp::Mapping::symbol(axes, "A", &err), B = tcp::Mapping::symbol(axes, "B", &err);
  tcp::DmaRequest req;
  req.in = hbm(tcp::Mapping::pair(A, B));
  req.out.tier = tcp::Tier::Dm;
  req.out.chip = tcp::Mapping::identity();
  req.out.cluster = tcp::Mapping::pad(tcp::Mapping::identity(), 2, &err);
  req.out.slice = tcp::Mapping::pad(tcp::Mapping::identity(), 256, &err);
  req.out.element = tcp::Mapping::pair(B, A);
  req.time = B;
  req.packet = A;
  tcp::DmaPlan p = tcp::planDma(req);  // a transpose into DM: 1-byte packets
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.diagnostics.at(0).find("not a multiple of 8"), std::string::npos) << p.diagnostics.at(0);
}

}  // namespace

namespace {

TEST(BankStarvation, LongestSameBankRun) {
  // 128 packets of 32 bytes down a 128-byte pitch: each access hits banks 0-3.
  tcp::SeqConfig col;
  col.entries = {{128, 128, "A", false}, {32, 1, "B", true}};
  col.packetSize = 32;
  tcp::BankRun r = tcp::longestSameBankRun(col, 0, 8, 32);
  EXPECT_EQ(r.length, 128u);
  EXPECT_EQ(r.bank, 0u);
  // The same bytes read row by row: 32-byte accesses walk the 16 banks, a bank repeats every 4th.
  tcp::SeqConfig row;
  row.entries = {{512, 32, "A", false}, {32, 1, "B", true}};
  row.packetSize = 32;
  EXPECT_EQ(tcp::longestSameBankRun(row, 0, 8, 32).length, 1u);
  // A 64-byte pitch alternates two bank groups: runs of 1.
  tcp::SeqConfig half;
  half.entries = {{128, 64, "A", false}, {8, 1, "B", true}};
  half.packetSize = 8;
  EXPECT_EQ(tcp::longestSameBankRun(half, 0, 8, 8).length, 1u);
  // An 8-byte access at byte 4 straddles banks 0 and 1.
  tcp::SeqConfig one;
  one.entries = {{70, 128, "A", false}, {8, 1, "B", true}};
  one.packetSize = 8;
  tcp::BankRun s = tcp::longestSameBankRun(one, 4, 8, 8);
  EXPECT_EQ(s.length, 70u);
}

}  // namespace

namespace {

TEST(BankStarvation, SchedulerKeepsStarvingOpsApartFromDma) {
  tcp::FunctionCost f;
  tcp::OpCost tu, dma;
  tu.resource = tcp::Resource::Main;
  tu.cycles = 1000;
  dma.resource = tcp::Resource::Dma;
  dma.cycles = 700;
  f.ops = {tu, dma};
  tcp::FunctionSchedule ok = tcp::schedule(f);  // 63 in a row: they overlap
  f.ops[0].sameBankRun = 63;
  ok = tcp::schedule(f);
  EXPECT_EQ(ok.ops[1].start, 0u);
  EXPECT_FALSE(ok.ops[0].starvesDma);
  f.ops[0].sameBankRun = 64;  // 64: the DMA waits for the Tensor Unit op
  tcp::FunctionSchedule s = tcp::schedule(f);
  EXPECT_TRUE(s.ops[0].blocksDma);
  EXPECT_TRUE(s.ops[0].starvesDma);
  EXPECT_EQ(s.ops[1].start, 1000u);
  EXPECT_EQ(s.makespan, 1700u);
  // And a starving op waits for a DMA already running.
  f.ops = {dma, f.ops[0]};
  s = tcp::schedule(f);
  EXPECT_EQ(s.ops[1].start, 700u);
}

}  // namespace

namespace {

// An HBM-to-HBM copy of `n` single bytes (stride0 = 1: each step is a 1-byte partial write).
tcp::DmaPlan byteCopy(uint64_t n) {
  tcp::DmaPlan p;
  p.src = p.dst = tcp::DmaMedia::Hbm;
  p.elemBits = 8;
  tcp::DmaCommand c;
  c.entries = {{n, 2, 2, "A", 0}, {1, 1, 1, "B", -1}};
  c.dstBase = int64_t(1) << 30;
  c.stride0 = 1;
  p.shared = c;
  p.engines.push_back({0, 0, {c}});
  return p;
}

TEST(DmaCost, HugeTransfersAreSimulatedOnAPrefixAndScaled) {
  uint64_t half = tcp::dmaPlanCost(byteCopy(tcp::dmacost::kSimulatedSteps)).cycles;
  uint64_t full = tcp::dmaPlanCost(byteCopy(2 * tcp::dmacost::kSimulatedSteps)).cycles;
  EXPECT_NEAR(double(full - 500), 2.0 * double(half - 500), 0.01 * double(half));
}

}  // namespace
