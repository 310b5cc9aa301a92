// Lowering.h — per-engine configurations of each Tensor Unit operation, derived from the typed program.
#pragma once

#include "Diagnostics.h"
#include "Sequencer.h"
#include "SequencerMetrics.h"
#include "TypedProgram.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// One engine's configuration inside a Tensor Unit operation.
struct EngineConfig {
  std::string engine;                 // "fetch", "switch", "collect", "aligner", "reducer", "vector", ...
  std::optional<SeqConfig> sequencer; // fetch / commit / TRF sequencers
  std::vector<std::pair<std::string, std::string>> fields;  // derived parameters, in print order
};

// A Tensor Unit operation: one chain from `begin` to `commit` / `to_trf` / `to_vrf`; or, with
// chain = -1, a DMA transfer (`to_dm` / `to_hbm`) as a read and a write sequencer.
struct TuConfig {
  int chain = 0;
  Ctx ctx = Ctx::Unknown;
  bool stage = false;          // the ops of a stage function (chain -1), which has no `begin`
  unsigned line = 0;           // source line of `begin` (stage: of the first op)
  uint64_t timeSize = 0;       // packets the fetch sequencer delivers
  std::vector<EngineConfig> engines;
};

struct FunctionConfig {
  std::string name;
  bool isDevice = false;
  std::vector<TuConfig> tus;
};

struct LoweredProgram {
  std::vector<FunctionConfig> functions;
};

// The fetch / commit sequencer of a checked op: the one the typed phase derived (derived again only
// for ops built without it, e.g. by tests).
std::shared_ptr<const SeqResult> fetchSequencer(const TypedOp &op);
std::shared_ptr<const SeqResult> commitSequencer(const TypedOp &op);

// The Switch Engine's configuration: topology, parameters, ring, cycles and snoop bitmaps (LowerSwitch.cpp).
EngineConfig lowerSwitch(const TypedOp &op);
// The Cast Engine's configuration: from, to, packets, bytes, cycles (LowerCast.cpp).
EngineConfig lowerCast(const TypedOp &op);
// The Transpose Engine's configuration: its parameters and cycles (LowerTranspose.cpp).
EngineConfig lowerTranspose(const TypedOp &op);

// Derives every engine's configuration; a configuration the hardware cannot run is a diagnostic.
LoweredProgram lower(const TypedProgram &typed, Diagnostics &diags);
// --emit=config: every sequencer in the manual's spelling `[n0 : s0, ...] : packet_size`.
void printConfig(const LoweredProgram &program, llvm::raw_ostream &os);

}  // namespace tcp
