// roofline_test.cpp — the roofline's peaks, busy shares, FLOPs, intensity and fractions against hand-computed numbers.
#include "Roofline.h"

#include "Driver.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <filesystem>
#include <string>

namespace {

using namespace tcp;

EngineCost engine(const char *name, uint64_t cycles) { return EngineCost{name, cycles, 1}; }

// A DMA op reading `hbm` bytes of HBM, a Tensor Unit op with a contraction of `macs` bf16 MACs, a
// Vector Engine op of `ops` element operations.
OpCost dmaOp(uint64_t hbm) {
  OpCost op;
  op.name = "to_dm";
  op.resource = Resource::Dma;
  op.engines = {engine("dma_startup", 500)};
  op.bytes[MemTier::Hbm].read = hbm;
  return op;
}
OpCost contractionOp(uint64_t macs) {
  OpCost op;
  op.name = "fetch.collect.align.contract.accumulate.commit";
  op.engines = {engine("fetch", 1), engine("reducer", 1)};
  op.macs = macs;
  op.macType = num::DType::bf16;
  return op;
}
OpCost vectorOp(uint64_t ops) {
  OpCost op;
  op.name = "fetch.collect.vector.commit";
  op.engines = {engine("fetch", 1), engine("vector", 1)};
  op.vectorOps = ops;
  return op;
}

TEST(Roofline, PeakMacsFromTheManualsCounts) {
  // 2 clusters × 256 slices × 8 Rows × (64-byte mac_width / element size).
  EXPECT_EQ(peakMacsPerCycle(num::DType::bf16), 512u * 8 * 32);  // 131,072: 262,144 FLOP/cycle = 262 TFLOP/s at 1 GHz
  EXPECT_EQ(peakMacsPerCycle(num::DType::i8), 512u * 8 * 64);
  EXPECT_EQ(peakMacsPerCycle(num::DType::f8e4m3), 512u * 8 * 64);
  EXPECT_EQ(peakMacsPerCycle(num::DType::i4), 512u * 8 * 128);
  EXPECT_EQ(roof::kHbmBytesPerCycle, 1500u);  // 1.5 TB/s at 1 GHz
}

TEST(Roofline, UnionOfIntervals) {
  EXPECT_EQ(unionCycles({}), 0u);
  EXPECT_EQ(unionCycles({{0, 10}, {5, 15}, {20, 30}}), 25u);
  EXPECT_EQ(unionCycles({{10, 20}, {0, 100}}), 100u);  // nested, out of order
  EXPECT_EQ(unionCycles({{0, 10}, {10, 20}}), 20u);    // touching
}

TEST(Roofline, WorkClasses) {
  EXPECT_EQ(workClass(dmaOp(64)), WorkClass::Hbm);
  OpCost dmToDm = dmaOp(0);
  EXPECT_EQ(workClass(dmToDm), WorkClass::Other);
  OpCost pcie = dmaOp(64);
  pcie.engines.push_back(engine("pcie", 410));
  EXPECT_EQ(workClass(pcie), WorkClass::Pcie);
  EXPECT_EQ(workClass(contractionOp(1)), WorkClass::Tu);
  EXPECT_EQ(workClass(vectorOp(1)), WorkClass::Ve);
  OpCost trfLoad;
  trfLoad.engines = {engine("fetch", 4), engine("trf_load", 4)};
  EXPECT_EQ(workClass(trfLoad), WorkClass::Other);
  OpCost epilogue = contractionOp(1);  // a contraction with a vector epilogue is Tensor Unit time
  epilogue.engines.push_back(engine("vector", 1));
  EXPECT_EQ(workClass(epilogue), WorkClass::Tu);
}

// One chip, 1000 cycles: a DMA of 600,000 HBM bytes over [0, 800), a contraction at the full bf16
// rate for 100 cycles (131,072 × 100 MACs) over [800, 900), a vector pass of 409,600 operations
// over [900, 1000).
FunctionCost threeOps() {
  FunctionCost f;
  f.name = "k";
  f.ops = {dmaOp(600000), contractionOp(131072u * 100), vectorOp(409600)};
  return f;
}
FunctionSchedule threeOpsSchedule() {
  FunctionSchedule s;
  s.ops.resize(3);
  s.ops[0].start = 0, s.ops[0].end = 800;
  s.ops[1].start = 800, s.ops[1].end = 900;
  s.ops[2].start = 900, s.ops[2].end = 1000;
  s.makespan = 1000;
  return s;
}

TEST(Roofline, MemoryBoundFunction) {
  Roofline r = functionRoofline(threeOps(), threeOpsSchedule());
  EXPECT_EQ(r.cycles, 1000u);
  EXPECT_DOUBLE_EQ(r.share(WorkClass::Hbm), 0.8);
  EXPECT_DOUBLE_EQ(r.share(WorkClass::Tu), 0.1);
  EXPECT_DOUBLE_EQ(r.share(WorkClass::Ve), 0.1);
  EXPECT_DOUBLE_EQ(r.share(WorkClass::Pcie), 0.0);
  EXPECT_EQ(r.flops, 2u * 13107200 + 409600);  // 26,624,000
  EXPECT_EQ(r.hbmBytes, 600000u);
  EXPECT_DOUBLE_EQ(r.flopCapacity, 262144000.0);  // 1000 × 262,144
  EXPECT_DOUBLE_EQ(r.hbmCapacity, 1500000.0);     // 1000 × 1500
  EXPECT_NEAR(r.intensity(), 26624000.0 / 600000.0, 1e-9);  // 44.37 FLOP/B
  EXPECT_NEAR(r.ridge(), 262144.0 / 1500.0, 1e-9);          // 174.76 FLOP/B
  EXPECT_TRUE(r.memoryBound());
  EXPECT_DOUBLE_EQ(r.flopFraction(), 0.1015625);  // 26,624,000 / 262,144,000
  EXPECT_DOUBLE_EQ(r.hbmFraction(), 0.4);
  // Memory bound: the roof is intensity × the HBM peak, so the roof fraction is the HBM fraction.
  EXPECT_NEAR(r.roofFraction(), 0.4, 1e-12);
}

TEST(Roofline, ComputeBoundFunctionOnTwoChips) {
  FunctionCost f = threeOps();
  f.chips = 2;
  f.ops[0] = dmaOp(1000);
  Roofline r = functionRoofline(f, threeOpsSchedule());
  EXPECT_DOUBLE_EQ(r.flopCapacity, 2 * 262144000.0);
  EXPECT_DOUBLE_EQ(r.hbmCapacity, 2 * 1500000.0);
  EXPECT_FALSE(r.memoryBound());  // 26,624 FLOP/B
  EXPECT_DOUBLE_EQ(r.flopFraction(), 0.05078125);
  EXPECT_DOUBLE_EQ(r.roofFraction(), r.flopFraction());
}

TEST(Roofline, NarrowerContractionRaisesThePeak) {
  FunctionCost f = threeOps();
  f.ops[1].macType = num::DType::i8;
  Roofline r = functionRoofline(f, threeOpsSchedule());
  EXPECT_DOUBLE_EQ(r.flopCapacity, 524288000.0);  // 1000 × 2 × 262,144
}

TEST(Roofline, NoHbmTrafficIsComputeBound) {
  FunctionCost f;
  f.ops = {vectorOp(4096)};
  FunctionSchedule s;
  s.ops.resize(1);
  s.ops[0].end = 10;
  s.makespan = 10;
  Roofline r = functionRoofline(f, s);
  EXPECT_TRUE(std::isinf(r.intensity()));
  EXPECT_FALSE(r.memoryBound());
  EXPECT_DOUBLE_EQ(r.flopCapacity, 2621440.0);  // no contraction: the bf16 roof
  EXPECT_DOUBLE_EQ(r.roofFraction(), 4096.0 / 2621440.0);
}

TEST(Roofline, MemoryBoundWithoutFlopsReadsTheHbmRoof) {
  FunctionCost f;
  f.ops = {dmaOp(3000)};  // a pure transfer (a gather, a layout change): 0 FLOP/B
  FunctionSchedule s;
  s.ops.resize(1);
  s.ops[0].end = 10;
  s.makespan = 10;
  Roofline r = functionRoofline(f, s);
  EXPECT_TRUE(r.memoryBound());
  EXPECT_DOUBLE_EQ(r.hbmFraction(), 0.2);  // 3000 / (10 × 1500)
  EXPECT_DOUBLE_EQ(r.roofFraction(), 0.2);
}

TEST(Roofline, ProgramSumsItsFunctions) {
  ProgramCost p;
  p.functions = {threeOps(), threeOps()};
  p.functions[1].ops[0] = dmaOp(1000);
  ProgramSchedule s;
  s.functions = {threeOpsSchedule(), threeOpsSchedule()};
  s.total = 2000;
  ProgramRoofline r = roofline(p, s);
  ASSERT_EQ(r.functions.size(), 2u);
  EXPECT_EQ(r.program.cycles, 2000u);
  EXPECT_EQ(r.program.busy[static_cast<int>(WorkClass::Hbm)], 1600u);
  EXPECT_EQ(r.program.flops, 2u * 26624000);
  EXPECT_EQ(r.program.hbmBytes, 601000u);
  EXPECT_DOUBLE_EQ(r.program.hbmFraction(), 601000.0 / 3000000.0);
  EXPECT_DOUBLE_EQ(r.program.flopFraction(), 0.1015625);
}

// A sample through the cycles phase, and its program roofline.
Roofline sampleRoofline(const std::string &relative) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  Compilation comp(os);
  bool ok = comp.load((std::filesystem::path(TCP_SOURCE_DIR) / relative).string()) && comp.run(Phase::Cycles, nullptr);
  EXPECT_TRUE(ok) << os.str();
  if (!ok) return {};
  return roofline(comp.costs(), comp.schedule()).program;
}

TEST(Roofline, GemmSampleCountsEveryMacOnce) {
  // samples/hello/gemm.tcp: C[I, J] = A[I, K] · B[J, K], I = J = 512, K = 1024, bf16.
  Roofline r = sampleRoofline("samples/hello/gemm.tcp");
  EXPECT_EQ(r.macs, 512u * 512 * 1024);
  EXPECT_EQ(r.vectorOps, 0u);
  EXPECT_EQ(r.flops, 2u * 512 * 512 * 1024);
  EXPECT_DOUBLE_EQ(r.flopCapacity, double(r.cycles) * 262144.0);
}

TEST(Roofline, SoftmaxSampleCountsVectorSteps) {
  // samples/vector/softmax.tcp: 16 rows of 16 f32; per element a max reduce, SubF, Exp, a sum reduce
  // and DivF (5 operations); 1 KiB read from HBM and 1 KiB written.
  Roofline r = sampleRoofline("samples/vector/softmax.tcp");
  EXPECT_EQ(r.macs, 0u);
  EXPECT_EQ(r.vectorOps, 16u * 16 * 5);
  EXPECT_EQ(r.hbmBytes, 2048u);
}

}  // namespace
