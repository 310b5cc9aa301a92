// TensorType.h — the types the checker tracks: memory tensors per tier and the Tensor Unit stream typestate.
#pragma once

#include "Mapping.h"
#include "Numerics.h"

#include <string>
#include <vector>

namespace tcp {

// Where a tensor lives. Stream tensors flow through the Tensor Unit; the others are at rest.
enum class Tier { Host, Hbm, Dm, Trf, Vrf, Stream };

// The position of a stream in the Tensor Unit pipeline ("Memory and Stream"; the Vector Engine
// has its own sub-states). Ops are legal only at the positions the manual allows.
enum class Stage {
  Begin, Fetch, Switch, Collect, Aligned, Contraction, Accumulation,
  VectorInit, VectorBranch, VectorLogic, VectorFxp, VectorFxpToFp, VectorNarrow, VectorFp, VectorIntraSliceReduce,
  VectorFpDiv, VectorWiden, VectorFpToFxp, VectorClip, VectorFilter, VectorInterSliceReduce, VectorPair, VectorFinal,
  Cast, Transpose,
};

// The Vector Engine's pass state carried by its stream types ("Vector Engine": the Way, the ALUs
// used in the current pass, the live stash, the block order, two-group mode). Not part of a type's
// identity: a declared `VectorFinalTensor` matches whatever pass produced it.
struct VeState {
  bool way4 = false;         // after Narrow, before Widen
  uint32_t alus = 0;         // bit per VeAlu used in this pass
  bool stash = false;        // a stash is live
  num::DType stashType = num::DType::i32;
  MappingRef stashTime, stashPacket;  // the stream's Time and Packet when the stash was taken
  bool stashUsed = false;    // a binary op consumed it ("not available after a binary op consumes the stash")
  bool interFirst = false;   // VeOrder::InterFirst
  bool interDone = false;    // the inter-slice block ran
  bool paired = false;       // two-group mode before `_zip`
  bool zipped = false;       // after `_zip` (stash and filter stay unavailable)
  Stage pairStage = Stage::VectorBranch;  // two-group mode: the stage the pair has reached
  bool toggle = false;       // BranchMode::AxisToggle: elements are in ExecutionId group 0 or 1
};

// Tensor Unit execution context ("Execution Contexts").
enum class Ctx { Main, Sub, Unknown };

const char *tierName(Tier t);
const char *stageTypeName(Stage s);  // "FetchTensor", "AlignedPair", ...
const char *ctxName(Ctx c);

struct TensorType {
  Tier tier = Tier::Dm;
  num::DType dtype = num::DType::i8;
  // Present per tier: Host: element. Hbm: chip, element. Dm/Vrf: chip, cluster, slice, element.
  // Trf: chip, cluster, slice, row, element. Stream: chip, cluster, slice, time, packet, and row
  // for Aligned/Contraction.
  MappingRef chip, cluster, slice, row, time, packet, element;
  Stage stage = Stage::Begin;  // Stream only
  Ctx ctx = Ctx::Unknown;      // Stream only
  VeState ve;                  // Stream only, Vector Engine stages
  bool isView = false;         // `.view()` of a memory tensor

  // The spelling of the manual, e.g. `DmTensor<bf16, m![1], m![1 # 2], m![A / 8 # 256], m![A % 8]>`.
  std::string str() const;
  // Bytes of one packet (Stream) or of the element dimension (memory tiers).
  uint64_t packetBytes() const;
  uint64_t elementBytes() const;
  // The mappings of this type in declaration order, paired with their parameter names.
  std::vector<std::pair<const char *, MappingRef>> dims() const;
};

// A memory tensor written from a stream: same element type, Chip, Cluster and Slice (Row and
// Element are left for the op to set).
TensorType atRest(const TensorType &stream, Tier tier);

}  // namespace tcp
