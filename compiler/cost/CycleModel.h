// CycleModel.h — cycle, byte and footprint estimates of every operation (docs/cycle-model.md).
#pragma once

#include "Lowering.h"
#include "TypedProgram.h"

#include <map>
#include <string>
#include <vector>

namespace tcp {

// The three resources of "Scheduling": main context, sub context, DMA Engine.
enum class Resource { Main, Sub, Dma };
const char *resourceName(Resource r);  // "main", "sub", "dma"

// Memory tiers the cycle model counts bytes and footprints for.
enum class MemTier { Hbm, Dm, Trf, Vrf };
const char *memTierName(MemTier t);  // "hbm", "dm", "trf", "vrf"

// An address range an operation reads or writes: per slice for DM/TRF/VRF, per chip for HBM.
// `whole` stands for the entire tier (an operand whose address the program does not give).
struct MemRange {
  MemTier tier = MemTier::Dm;
  uint64_t begin = 0, end = 0;
  bool whole = false;
};
bool overlaps(const MemRange &a, const MemRange &b);

// One engine's share of a Tensor Unit operation (or one side of a DMA transfer).
struct EngineCost {
  std::string engine;        // "fetch", "collect", "reducer", ..., "dma_startup", "hbm_read", ...
  uint64_t cycles = 0;       // throughput-bound cycles of the engine over the whole operation
  uint64_t latency = 0;      // pipeline fill latency the engine adds
};

struct TierBytes {
  uint64_t read = 0, write = 0;
};

// One DMA Engine's share of a transfer (the same on every chip): it runs its commands in sequence
// from the op's start (`cycles`: startup + the slower side of each command).
struct DmaEngineCost {
  unsigned cluster = 0, pair = 0;  // the engine of a pair of DMNs
  uint64_t cycles = 0;
  uint64_t commands = 0;
  uint64_t bytes = 0;              // bytes it moves on one chip
};

// One schedulable operation: a Tensor Unit chain or a DMA transfer.
struct OpCost {
  std::string name;          // "to_dm", "to_hbm", or the chain's stages "fetch.collect.to_trf"
  unsigned line = 0;
  Resource resource = Resource::Main;
  std::vector<EngineCost> engines;
  uint64_t cycles = 0;       // slowest engine + every fill latency (DMA: startup + slower side)
  std::vector<MemRange> reads, writes;
  std::map<MemTier, TierBytes> bytes;  // bytes moved, summed over chips, clusters and slices
  std::vector<DmaEngineCost> dmaEngines;  // a DMA op: each engine of one chip
  // Work for the roofline (Roofline.h), summed over chips, clusters and slices: the Reducer's MACs
  // on data (positions of its input stream holding a tensor element) and their input type, and the
  // Vector Engine's element operations (one per element per ALU step or reduce step).
  uint64_t macs = 0;
  num::DType macType = num::DType::bf16;
  uint64_t vectorOps = 0;
  // "Bank Starvation": the longest run of consecutive accesses of its fetch/commit sequencers to
  // one DM bank; 64 or more and the op is scheduled as if it occupied the DMA (BankStarvation.h).
  uint64_t sameBankRun = 0;
  unsigned sameBankRunBank = 0;
  std::string sameBankRunEngine;  // "fetch" / "commit"
  llvm::SMRange range;            // the op's first stage in the source (diagnostics)
};

struct FunctionCost {
  std::string name;
  bool isDevice = false;
  unsigned chips = 1;                    // the chips the function runs on (#[device(chip = n)])
  std::vector<OpCost> ops;               // program order
  std::map<MemTier, uint64_t> peakBytes; // peak footprint per slice (DM/TRF/VRF) and per chip (HBM)
};

struct ProgramCost {
  std::vector<FunctionCost> functions;
};

// The model's constants, with the manual section each comes from.
namespace cost {
// DMA constants: DmaCost.h.
constexpr uint64_t kFlitBytes = 32;          // "Collect Engine": 32-byte flits
constexpr uint64_t kStageLatency = 1;        // assumption: one pipeline register per engine
}  // namespace cost

// Costs every operation of every kernel and stage function.
ProgramCost costProgram(const TypedProgram &typed, const LoweredProgram &lowered);

// Positions of a stream's chip, cluster, slice, time, row and packet mappings that hold a tensor
// element (each mapping's padding positions excluded; mappings of more than 65,536 positions count
// their top-level padding only): the work one pass of the stream does.
uint64_t activePositions(const TensorType &stream);

// Peak per-slice footprint per tier from the operations' reads and writes (CycleFootprint.cpp).
std::map<MemTier, uint64_t> peakFootprint(const std::vector<OpCost> &ops);
// The per-slice DM/TRF/VRF footprint at each operation (entry k, the live ranges while op k runs)
// and after the last one (entry ops.size(): the ranges nothing reads, the results); the peak is the
// largest entry (the timeline's occupancy counters).
std::vector<std::map<MemTier, uint64_t>> liveFootprint(const std::vector<OpCost> &ops);

}  // namespace tcp
