// DmaLowering.h — the DMA ops (`to_dm`, `to_hbm`, `dma`) of a typed function as DMA plans and configurations.
#pragma once

#include "DmaPlan.h"
#include "Lowering.h"

namespace tcp {

bool isDmaOp(const TypedOp &op);  // to_dm, to_hbm or dma

// The plan of a DMA op: its stream (given to `.dma::<Time, Packet>`, else defaultDmaStream of the
// DM side), addresses (a kernel parameter's HBM address is unknown to the compiler: 0, unless
// `srcAddr` gives it, as the interpreter does) and chips.
DmaPlan dmaPlanOf(const TypedFunction &f, const TypedOp &op, std::optional<uint64_t> srcAddr = std::nullopt);

// The transfer's configuration (a TU of one DmaConfig): the compact DmaSequencer, every engine's
// commands and, across chips, each source chip's writes.
TuConfig lowerDmaOp(const TypedFunction &f, const TypedOp &op, Diagnostics &diags);

}  // namespace tcp
