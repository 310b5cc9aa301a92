// DmaCost.h — cycles of a DMA plan: startup per command, DM and engine request rates, HBM channels with row switches, tCCD and RMW.
#pragma once

#include "CycleModel.h"
#include "DmaPlan.h"
#include "EngineConfig.h"

#include <cstdint>
#include <vector>

namespace tcp {

namespace dmacost {
constexpr uint64_t kStartup = 500;          // "DMA Engine" > Startup Latency: ~500 cycles per command
constexpr uint64_t kRequestBytes = 256;     // "an n-byte packet becomes ceil(n / 256) DMA requests"
constexpr uint64_t kDmnBytesPerCycle = 128; // "Each DMN provides 128 bytes/cycle"
// HBM channel time in thirds of a 1 GHz cycle: a 256-byte unit takes 4 cycles at 0.75 GHz = 16/3.
constexpr uint64_t kThirdsPerUnit = 16;
constexpr uint64_t kThirdsRowSwitch = 120;  // "Example 4": ~40 cycles per request that switches rows
constexpr uint64_t kDmnQueue = 2;           // requests a DMN holds before the engine stalls ("2-entry command queue")
constexpr uint64_t kSimulatedSteps = uint64_t(1) << 22;  // larger transfers: a prefix, scaled
constexpr uint64_t kRmwFactor = 50;         // "Misaligned Access": partial writes ~50x (read-modify-write)
}  // namespace dmacost

// One 256-byte HBM unit a request touches.
struct HbmRequest {
  uint64_t address = 0;  // the unit's first byte
  bool write = false;
  bool partial = false;  // a write that covers only part of the unit (read-modify-write)
};

// Requests of a step of `bytes` bytes at `address`: one per 256-byte unit it touches (an unaligned
// read crossing a boundary costs two units, "Unaligned Read").
void hbmRequests(uint64_t address, uint64_t bytes, bool write, std::vector<HbmRequest> &out);

// Busiest HBM channel's time in thirds of a cycle for requests issued in this order: a 256-byte
// unit takes 16/3 cycles; a request to a bank whose open row is another row takes ~40 cycles (a
// closed bank opens without penalty); a partial write takes 50x (read-modify-write). tCCD bounds a
// channel by its busiest (slice, bank group): one unit per 32/3 cycles there (tCCD 4 vs 2).
struct ChannelLoad {
  uint64_t maxThirds = 0;
  uint64_t channelsUsed = 0;
  uint64_t rowSwitches = 0;
  uint64_t requests = 0;
};
ChannelLoad hbmChannelLoad(const std::vector<HbmRequest> &requests);

// DM side cycles of one command's requests (DM virtual addresses, `bytes` each): at least one cycle
// per request and 128 B/cycle per DMN; issued in order, a DMN holding 2 requests stalls the engine
// (the first request's first cycle overlaps the startup: end - 1).
uint64_t dmSideCycles(const std::vector<uint64_t> &addresses, uint64_t bytes);

// The cost of a whole transfer: every engine runs its commands in sequence (500 + its slower side,
// the sum of both sides when source and destination are the same memory); the HBM channels are
// shared by all engines of a chip. cycles = max(slowest engine, 500 + busiest channel).
// The cost of a transfer's configuration (the lowering's DmaConfig); dmaPlanCost costs a plan's.
OpCost dmaCost(const DmaConfig &config);
OpCost dmaPlanCost(const DmaPlan &plan);

}  // namespace tcp
