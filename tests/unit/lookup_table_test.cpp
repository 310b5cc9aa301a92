// lookup_table_test.cpp — "Table Indexing": table types and sizes, and the Fetch Adapter's lookup on the CPU model (masked lanes stay 0).
#include "DeviceChain.h"
#include "DeviceTestUtil.h"

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// 63 valid i8 values padded to a 64-lane packet: the adapter masks lane 63 (last_dim_rightmost_valid_count 63).
// The result keeps the padded lane: a 32-byte commit of the last 16 lanes into `m![A]` would write past it.
const char *kMaskedSource = R"tcp(axes![A = 63];
#[device(chip = 1)]
fn masked(ctx: &mut Context, x: &HbmTensor<i8, m![1], m![A]>, table: &LookupTable<i8, bf16>) -> HbmTensor<bf16, m![1], m![A # 64]> {
    let xd = x.to_dm::<m![1 # 2], m![1 # 256], m![A # 64]>(&mut ctx.tdma, 0);
    let r = ctx.main.begin(xd.view()).fetch_with_table::<bf16, m![1], m![A # 64]>(table)
        .collect::<m![A # 64 / 16], m![A # 64 % 16]>().commit::<m![A # 64]>(1 << 12);
    r.to_hbm(&mut ctx.tdma, 1 << 20)
}
)tcp";

}  // namespace

TEST(LookupTable, EntriesAreTheIndexTypesValues) {
  EXPECT_EQ(tableEntries(num::DType::i4), 16u);
  EXPECT_EQ(tableEntries(num::DType::i8), 256u);
  EXPECT_EQ(tableEntries(num::DType::f8e4m3), 256u);
  EXPECT_TRUE(tableIndexType(num::DType::f8e5m2));
  EXPECT_FALSE(tableIndexType(num::DType::bf16));
  EXPECT_FALSE(tableIndexType(num::DType::i9));
  // Lanes hold sign-extended integers; the index is the bit pattern.
  EXPECT_EQ(tableIndex(num::DType::i8, uint32_t(-1)), 255u);
  EXPECT_EQ(tableIndex(num::DType::i8, uint32_t(-128)), 128u);
  EXPECT_EQ(tableIndex(num::DType::i4, uint32_t(-8)), 8u);
  EXPECT_EQ(tableIndex(num::DType::i4, 7u), 7u);
  EXPECT_EQ((LookupTableType{num::DType::i4, num::DType::bf16}.str()), "LookupTable<i4, bf16>");
}

TEST(LookupTable, KernelRecordsTheTableParameter) {
  Kernel k = compileKernel("masked.tcp", kMaskedSource);
  ASSERT_TRUE(k.fn);
  ASSERT_EQ(k.fn->tables.size(), 1u);
  EXPECT_EQ(k.fn->tables[0].name, "table");
  EXPECT_EQ(k.fn->tables[0].argIndex, 1u);  // after the tensor `x`
  EXPECT_EQ(k.fn->tables[0].type.str(), "LookupTable<i8, bf16>");
  bool found = false;
  for (const TypedOp &op : k.fn->ops)
    if (op.name == "fetch") {
      EXPECT_EQ(op.arg, "table");
      EXPECT_EQ(op.table, 0);
      found = true;
    }
  EXPECT_TRUE(found);
}

// The adapter replaces every valid lane by its entry; the masked lane keeps pad_value 0 although
// the table maps 0 (what a masked lane would index) to 0.5.
TEST(LookupTable, FetchLooksUpValidLanesAndMaskedLanesStayZero) {
  Kernel k = compileKernel("masked.tcp", kMaskedSource);
  ASSERT_TRUE(k.fn);
  std::vector<const TypedOp *> chain;
  for (const TypedOp &op : k.fn->ops)
    if (op.name == "begin" || op.name == "fetch") chain.push_back(&op);
  ASSERT_EQ(chain.size(), 2u);
  LookupTableData table{{num::DType::i8, num::DType::bf16}, {}};
  for (uint32_t idx = 0; idx < 256; ++idx) {
    int v = int8_t(uint8_t(idx));
    table.entries.push_back(num::f32ToBf16(0.5f + float(v) / 256.0f));  // exact in bf16
  }
  std::vector<LookupTableData> tables{table};
  DeviceImpl dev(1);
  dev.slices.reserveChips(1);
  dev.slices.reserveDm(64);
  dev.tables = &tables;
  Placements placed;
  placed.add(placed.dm, chain[0]->source, chain[0]->in, 0);
  uint8_t *dm = dev.slices[0].dmData();
  for (int i = 0; i < 64; ++i) dm[i] = uint8_t(int8_t(i - 32));  // byte 63 is padding: its value must not matter
  ChainBuilder b(dev, placed, chain);
  for (const TypedOp *op : chain) b.add(*op);
  SliceRun run;
  run.mem = &dev.slices[0];
  for (auto &step : b.steps) step(run);
  ASSERT_EQ(run.cur.size(), 64u);
  for (int i = 0; i < 63; ++i) EXPECT_EQ(bf(run.cur[i]), 0.5f + float(i - 32) / 256.0f) << "lane " << i;
  EXPECT_EQ(run.cur[63], 0u) << "the masked lane bypasses the table";
}

TEST(LookupTable, LaunchChecksTheTables) {
  Kernel k = compileKernel("masked.tcp", kMaskedSource);
  ASSERT_TRUE(k.fn && k.cfg);
  Device dev(1);
  try {
    dev.launch(*k.fn, *k.cfg, {0});
    ADD_FAILURE() << "a launch without its table must fail";
  } catch (const DeviceError &e) {
    EXPECT_EQ(e.message, "kernel `masked` takes 1 lookup table, got 0");
  }
  LookupTableData shortTable{{num::DType::i8, num::DType::bf16}, std::vector<uint32_t>(16, 0)};
  try {
    dev.launch(*k.fn, *k.cfg, {0}, {shortTable});
    ADD_FAILURE() << "a table of 16 entries must fail";
  } catch (const DeviceError &e) {
    EXPECT_EQ(e.message, "lookup table `table` has 16 entries; a LookupTable<i8, bf16> has 256");
  }
}
