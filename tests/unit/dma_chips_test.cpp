// dma_chips_test.cpp — DMA across chips: global HBM addresses, per-chip write bases, PCIe bytes and cycles.
#include "CompiledTestUtil.h"
#include "DmaChips.h"

#include <gtest/gtest.h>

using tcp::testing::Compiled;

namespace {

std::string kernel(const std::string &axes, const std::string &in, const std::string &out, const std::string &stream,
                   unsigned chips = 4) {
  return "axes![" + axes + "];\n#[device(chip = " + std::to_string(chips) +
         ")]\nfn k(ctx: &mut Context, x: &HbmTensor<i8, " + in + ">) -> HbmTensor<i8, " + out + "> {\n    x.dma::<" +
         stream + ">(&mut ctx.tdma, 1 << 20)\n}\n";
}

// The DMA configuration of op i of function f.
const tcp::DmaConfig *dmaOf(const Compiled &c, size_t f, size_t i) {
  return c.comp.lowered().functions.at(f).tus.at(i).find<tcp::DmaConfig>();
}

bool hasEngine(const tcp::OpCost &c, const std::string &name) {
  for (const tcp::EngineCost &e : c.engines)
    if (e.engine == name) return true;
  return false;
}

TEST(DmaChips, GlobalHbmSpelling) {
  using tcp::DmaMedia;
  int64_t chip = int64_t(tcp::chipspace::kChipStride);
  EXPECT_EQ(tcp::hbmStrideText(DmaMedia::Hbm, 4096, 8, "*"), "4096");
  EXPECT_EQ(tcp::hbmStrideText(DmaMedia::Hbm, chip, 8, "*"), "chip_stride");
  EXPECT_EQ(tcp::hbmStrideText(DmaMedia::Hbm, 2 * chip + 256, 8, " * "), "(2 * chip_stride + 256)");
  // bf16: the stride is in elements, half the bytes.
  EXPECT_EQ(tcp::hbmStrideText(DmaMedia::Hbm, chip / 2, 16, "*"), "chip_stride");
  EXPECT_EQ(tcp::hbmBaseText(1024), "1024");
  EXPECT_EQ(tcp::hbmBaseText(3 * chip + 64), "HBM(3)@64");
}

TEST(DmaChips, AllToAllSendsThreeQuartersOverPcie) {
  // Each chip keeps one 4096-byte quarter and sends three: ceil(12288 / 30) = 410 cycles.
  Compiled c(kernel("A = 4, B = 16384", "m![A], m![B]", "m![B / 4096], m![A, B % 4096]", "m![B / 4096], m![B % 4096]"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.engine(0, 0, "pcie"), 410u);
  EXPECT_EQ(c.cycles(0), 910u);
}

TEST(DmaChips, ChipPermutationMovesOnlyTheSwappedChips) {
  // Chips 1 and 2 swap (Chip = A % 2, A / 2): each sends its whole 65536 bytes, chips 0 and 3 none.
  Compiled c(kernel("A = 4, B = 65536", "m![A], m![B]", "m![A % 2, A / 2], m![B]", "m![B / 4096], m![B % 4096]"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.engine(0, 0, "pcie"), (65536u + 29) / 30);
  EXPECT_GE(c.cycles(0), 500u + (65536u + 29) / 30);
}

TEST(DmaChips, GatherFromDmSendsEveryOtherChipsBytes) {
  std::string text =
      "axes![A = 4, B = 8192];\n#[device(chip = 4)]\nfn k(ctx: &mut Context, x: &HbmTensor<i8, m![A], m![B]>) -> "
      "HbmTensor<i8, m![1 # 4], m![A, B]> {\n    let d: DmTensor<i8, m![A], m![1 # 2], m![B / 4096 # 256], "
      "m![B % 4096]> = x.dma::<m![B / 4096], m![B % 4096]>(&mut ctx.tdma, 0);\n    d.dma::<m![B / 4096], "
      "m![B % 4096]>(&mut ctx.tdma, 1 << 20)\n}\n";
  Compiled c(text);
  ASSERT_TRUE(c.ok) << c.diags;
  // Chips 1-3 send all 8192 bytes; chip 0 receives 3 * 8192 ("30 B/cycle for both reads and writes").
  EXPECT_EQ(c.engine(0, 1, "pcie"), (3 * 8192u + 29) / 30);
  EXPECT_GE(c.cycles(1), 500u + (3 * 8192u + 29) / 30);
}

TEST(DmaChips, SameChipsCostNoPcie) {
  Compiled c(kernel("A = 4, B = 16384", "m![A], m![B]", "m![A], m![B / 4096, B % 4096]", "m![B / 4096], m![B % 4096]"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_FALSE(hasEngine(c.op(0, 0), "pcie"));
}

TEST(DmaChips, DestinationChipMappingSpansTheKernel) {
  Compiled c(kernel("A = 2, B = 1024", "m![A], m![B]", "m![B / 256], m![A, B % 256]", "m![B / 256], m![B % 256]", 2));
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.diags.find("has size 4 but the kernel runs on 2 chip(s)"), std::string::npos) << c.diags;
}

TEST(DmaChips, ChipsSpreadOverDmSlicesAreRefused) {
  std::string text =
      "axes![A = 2, B = 1024];\n#[device(chip = 2)]\nfn k(ctx: &mut Context, x: &HbmTensor<i8, m![A], m![B]>) -> "
      "DmTensor<i8, m![1 # 2], m![1 # 2], m![A # 256], m![B]> {\n    x.dma::<m![1], m![B]>(&mut ctx.tdma, 0)\n}\n";
  Compiled c(text);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.diags.find("spreading chips over slices is not supported yet"), std::string::npos) << c.diags;
}

// A rotation ChipShuffle(1, 2, 3, 0): one route per source chip, each writing the whole chip d - 1;
// every chip sends and receives its 65536 bytes over PCIe.
TEST(DmaChips, RotationRoutesEachChipToItsPredecessor) {
  Compiled c(kernel("A = 4, B = 65536", "m![A], m![B]", "m![A @ 1 + A = 1], m![B]", "m![B / 4096], m![B % 4096]"));
  ASSERT_TRUE(c.ok) << c.diags;
  EXPECT_EQ(c.engine(0, 0, "pcie"), (65536u + 29) / 30);
  const tcp::DmaConfig *d = dmaOf(c, 0, 0);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->chipWrites.size(), 4u);
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(d->chipWrites[k].chip, k);
    EXPECT_EQ(d->chipWrites[k].toChips, (std::vector<uint64_t>{(k + 3) % 4}));
    EXPECT_EQ(d->chipWrites[k].pcieBytes, 65536u);
  }
}

// A broadcast over chips (an all-gather `m![X]`): every source chip has a route to every chip, and
// each chip receives the three other chips' rows.
TEST(DmaChips, BroadcastWritesEveryChip) {
  Compiled c(kernel("A = 4, B = 4096, X = 4", "m![A], m![B]", "m![X], m![A, B]", "m![B / 1024], m![B % 1024]"));
  ASSERT_TRUE(c.ok) << c.diags;
  const tcp::DmaConfig *d = dmaOf(c, 0, 0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->chipWrites.size(), 16u);
  EXPECT_EQ(c.engine(0, 0, "pcie"), (3 * 4096u + 29) / 30);
}

}  // namespace
