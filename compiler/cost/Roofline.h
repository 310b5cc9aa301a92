// Roofline.h — per-function and whole-program roofline: engine-class time shares, FLOPs, HBM bytes, peak fractions.
#pragma once

#include "CycleModel.h"
#include "Scheduler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcp {

// The chip's peaks, per chip, in the cycle model's 1 GHz core cycles (docs/cycle-model.md, Roofline).
namespace roof {
constexpr uint64_t kClockHz = 1000000000;     // "At 1GHz, the total time is approximately 128 cycles" (DMA examples)
constexpr uint64_t kSlicesPerChip = 2 * 256;  // "Processing Units": 2 clusters per chip, 256 slices per cluster
constexpr uint64_t kRowsPerSlice = 8;         // "Processing Units": Row, 8 per slice (the MAC array's rows)
constexpr uint64_t kMacWidthBytes = 64;       // "TRF Read Mechanism": the Reducer consumes mac_width = 64 B per cycle per Row
constexpr uint64_t kHbmBytesPerCycle = 1500;  // "HBM": 1.5 TB/s per chip (48 GB/s × 32 channels) at 1 GHz
constexpr uint64_t kPcieBytesPerCycle = 30;   // "Inter-Chip Transfers": PCIe 30 B/cycle
}  // namespace roof

// MACs one chip's Contraction Engines can do per cycle on `dtype` inputs: slices × Rows × the
// elements of one mac_width packet (bf16: 512 × 8 × 32 = 131,072).
uint64_t peakMacsPerCycle(num::DType dtype);

// What the time of an operation is attributed to.
enum class WorkClass { Hbm, Pcie, Tu, Ve, Other };
constexpr int kWorkClasses = static_cast<int>(WorkClass::Other) + 1;
const char *workClassName(WorkClass c);  // "hbm", "pcie", "tu", "ve", "other"
// A DMA op crossing chips is PCIe, one touching HBM is HBM (DM to DM: other); a Tensor Unit op with
// a contraction is TU, with Vector Engine steps and no contraction VE, anything else other.
WorkClass workClass(const OpCost &op);

// Cycles covered by the union of [start, end) intervals.
uint64_t unionCycles(std::vector<std::pair<uint64_t, uint64_t>> intervals);

// One function's (or the program's) roofline.
struct Roofline {
  uint64_t cycles = 0;
  uint64_t busy[kWorkClasses] = {};        // per WorkClass: cycles the class is busy (the union of its ops' intervals)
  uint64_t macs = 0;            // contraction MACs on data (padding lanes excluded), over all chips
  uint64_t vectorOps = 0;       // Vector Engine ALU element operations, over all chips
  uint64_t flops = 0;           // 2 × macs + vectorOps
  uint64_t hbmBytes = 0;        // HBM read + write bytes, over all chips
  // What the chips could do in `cycles`: cycles × chips × 2 × peakMacsPerCycle (of the narrowest
  // contraction type, bf16 without one), and cycles × chips × kHbmBytesPerCycle.
  double flopCapacity = 0, hbmCapacity = 0;

  double share(WorkClass c) const;  // busy / cycles
  double intensity() const;         // flops / hbmBytes (FLOP/B); +inf without HBM traffic
  double ridge() const;             // flopCapacity / hbmCapacity: peak FLOP per peak HBM byte
  bool memoryBound() const;         // intensity() < ridge()
  double flopFraction() const;      // flops / flopCapacity
  double hbmFraction() const;       // hbmBytes / hbmCapacity
  double roofFraction() const;      // flops over min(flopCapacity, intensity × hbmCapacity): the bounding roof
                                    // (memory bound: the HBM fraction, also for a function without FLOPs)
};

// The roofline of one function from its costed ops, their schedule and its chip count.
Roofline functionRoofline(const FunctionCost &f, const FunctionSchedule &s);

// Rooflines of each function (parallel to p.functions) and of the program: the functions launched
// one after another (cycles, busy cycles, work, bytes and capacities summed).
struct ProgramRoofline {
  std::vector<Roofline> functions;
  Roofline program;
};
ProgramRoofline roofline(const ProgramCost &p, const ProgramSchedule &s);

}  // namespace tcp
