// DmaPlanDetail.h — the phases of planDma and the helpers they share (not a public API).
#pragma once

#include "DmaPlan.h"

#include <optional>
#include <string>
#include <vector>

namespace tcp::dmaplan {

constexpr uint64_t kMaxStride0 = 4096;  // "DMA Engine": the AXI packet limit
constexpr uint64_t kSlicesPerEngine = 64;
constexpr size_t kMaxEntries = 8;  // "Sequencer" constraints, shared by the DMA sequencers

inline std::string dec(uint64_t v) { return std::to_string(v); }
inline std::string q(const std::string &s) { return "`" + s + "`"; }
// Records a problem of the plan; false, for `return fail(plan, ...)`.
inline bool fail(DmaPlan &plan, const std::string &m) {
  plan.diagnostics.push_back(m);
  return false;
}

// The top-level terms of a mapping of more than one position, outermost first.
void flat(const MappingRef &m, std::vector<MappingRef> &out);
// A DM buffer stride in element positions as a stride in the 4 MB-per-slice virtual space.
int64_t toSliceSpace(const TensorType &t, unsigned bits, int64_t stride);
// Groups derived entries by the stream components they come from; nullopt when they do not line up.
std::optional<std::vector<std::vector<SeqEntry>>> byComponent(const std::vector<SeqEntry> &entries,
                                                               const std::vector<MappingRef> &comps);

// What the sequencer phase hands to the engine phase.
struct Draft {
  std::vector<MappingRef> timeComps;  // the stream's Time components
  int64_t trimSrc = 0, trimDst = 0;   // bytes the bases step over a trimmed left pad
  DmaEntry inner;                     // the innermost run before stride0 splits it (for messages)
};

// Phase 1 (DmaSequencerPairing.cpp): the read and write sequencers of one engine, paired into the
// compact DmaSequencer `plan.shared` (broadcasts dropped, runs merged, padding trimmed, stride0,
// at most 8 entries where merging allows). False after a problem that stops the plan (a problem
// recorded with true left, an entry too large, still lets the alignment be checked).
bool pairSequencers(const DmaRequest &req, DmaPlan &plan, Draft &d);
// Phase 2 (same file): the alignment rules of the sides' addresses, strides and packet.
void checkAlignment(const DmaRequest &req, DmaPlan &plan, const Draft &d);
// Phase 3 (DmaEngines.cpp): the engines of the DM side, the coverage of the source, segmentation of
// padded positions and peeling of entries beyond 8 into commands. False after recording a problem.
bool planEngines(const DmaRequest &req, DmaPlan &plan, const Draft &d);

}  // namespace tcp::dmaplan
