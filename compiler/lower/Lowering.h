// Lowering.h — per-engine configurations of each Tensor Unit operation, derived from the typed program.
#pragma once

#include "Diagnostics.h"
#include "EngineConfig.h"
#include "Sequencer.h"
#include "SequencerMetrics.h"
#include "TypedProgram.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// A Tensor Unit operation: one chain from `begin` to `commit` / `to_trf` / `to_vrf`; or, with
// chain = -1, a DMA transfer (`to_dm` / `to_hbm`) as a read and a write sequencer.
struct TuConfig {
  int chain = 0;
  Ctx ctx = Ctx::Unknown;
  bool stage = false;          // the ops of a stage function (chain -1), which has no `begin`
  unsigned line = 0;           // source line of `begin` (stage: of the first op)
  std::vector<EngineConfig> engines;  // program order (a DMA transfer: one DmaConfig)

  // The first engine of type C (FetchConfig, CommitConfig, ...), nullptr when the operation has none.
  template <class C> const C *find() const {
    for (const EngineConfig &e : engines)
      if (const C *c = std::get_if<C>(&e)) return c;
    return nullptr;
  }
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

// The Switch Engine's configuration: topology, parameters, ring and snoop bitmaps (LowerSwitch.cpp).
SwitchEngineConfig lowerSwitch(const TypedOp &op);
// The Cast Engine's configuration: from, to, packets, elements (LowerCast.cpp).
CastConfig lowerCast(const TypedOp &op);
// The Transpose Engine's configuration (LowerTranspose.cpp); nullopt when the typed phase found none.
std::optional<TransposeConfig> lowerTranspose(const TypedOp &op);
// One stage of the Vector Engine's program: a vector_* op (LowerVector.cpp); nullopt after reporting
// an op the configuration cannot express.
std::optional<VectorStep> lowerVectorStep(const TypedOp &op, Diagnostics &diags);

// Derives every engine's configuration; a configuration the hardware cannot run is a diagnostic,
// and so is one outside the legal ranges of its fields (checkEngineConfig).
LoweredProgram lower(const TypedProgram &typed, Diagnostics &diags);
// --emit=config: every sequencer in the manual's spelling `[n0 : s0, ...] : packet_size`.
void printConfig(const LoweredProgram &program, llvm::raw_ostream &os);

}  // namespace tcp
