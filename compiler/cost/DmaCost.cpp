// DmaCost.cpp — DMA transfer cycles from the plan's request streams: engines, DMN interleaving, HBM channels and banks.
#include "DmaCost.h"

#include "DmaChips.h"

#include "HbmAddressMap.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace tcp {

using namespace dmacost;

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
}  // namespace

void hbmRequests(uint64_t address, uint64_t bytes, bool write, std::vector<HbmRequest> &out) {
  if (bytes == 0) return;
  uint64_t first = address / kRequestBytes, last = (address + bytes - 1) / kRequestBytes;
  for (uint64_t u = first; u <= last; ++u) {
    uint64_t lo = std::max(address, u * kRequestBytes), hi = std::min(address + bytes, (u + 1) * kRequestBytes);
    out.push_back({u * kRequestBytes, write, write && hi - lo < kRequestBytes});
  }
}

ChannelLoad hbmChannelLoad(const std::vector<HbmRequest> &requests) {
  struct Channel {
    uint64_t thirds = 0;
    bool any = false;
    uint64_t perGroup[16] = {};
  };
  std::vector<Channel> ch(hbm::kChannels);
  constexpr uint64_t kClosed = UINT64_MAX;
  std::vector<uint64_t> openRow(hbm::kChannels * 4 * 4 * 4, kClosed);  // global bank -> open row
  ChannelLoad load;
  for (const HbmRequest &r : requests) {
    hbm::HbmLocation l = hbm::decode(r.address);
    Channel &c = ch[l.globalChannel()];
    uint64_t t = kThirdsPerUnit;
    ++c.perGroup[l.slice * 4 + l.bankGroup];
    assert(l.globalBank() < openRow.size() && "bank outside the chip");
    uint64_t &open = openRow[l.globalBank()];
    if (open != kClosed && open != l.row) {
      t = kThirdsRowSwitch;
      ++load.rowSwitches;
    }
    open = l.row;
    if (r.partial) t *= kRmwFactor;
    c.thirds += t;
    c.any = true;
    ++load.requests;
  }
  for (const Channel &c : ch) {
    // tCCD: the controller interleaves bank groups (FR-FCFS over a 64-entry queue), so only the
    // busiest (slice, bank group) bounds the channel: its commands issue every tCCD = 4 (1.5 GHz)
    // cycles, half the ideal rate ("Same Slice, Same Bank Group: 1/2").
    uint64_t busiest = *std::max_element(std::begin(c.perGroup), std::end(c.perGroup));
    uint64_t bound = busiest ? kThirdsPerUnit + (busiest - 1) * kThirdsPerUnit * 4 / 2 : 0;
    uint64_t thirds = std::max(c.thirds, bound);
    load.maxThirds = std::max(load.maxThirds, thirds);
    load.channelsUsed += c.any ? 1 : 0;
  }
  return load;
}

uint64_t dmSideCycles(const std::vector<uint64_t> &addresses, uint64_t bytes) {
  uint64_t perRequest = std::max<uint64_t>(
      ceilDiv(std::min(bytes, kRequestBytes), kDmnBytesPerCycle) * ceilDiv(bytes, kRequestBytes), 1);
  uint64_t requests = addresses.size() * ceilDiv(bytes, kRequestBytes);
  // Order-free bounds: one request per cycle from the engine; each DMN moves 128 B/cycle.
  std::map<uint64_t, uint64_t> perDmn;
  for (uint64_t a : addresses) perDmn[a / dmspace::kDmnStride] += perRequest;
  uint64_t busiest = 0;
  for (const auto &[dmn, c] : perDmn) busiest = std::max(busiest, c);
  // Order: the engine issues in sequence and stalls when the target DMN already holds
  // kDmnQueue requests, so long runs in one DMN leave the other idle ("Interleave across DMNs").
  std::map<uint64_t, std::vector<uint64_t>> finish;  // per DMN: finish time of each request
  uint64_t issue = 0, end = 0;
  bool first = true;
  for (uint64_t a : addresses) {
    std::vector<uint64_t> &f = finish[a / dmspace::kDmnStride];
    uint64_t t = first ? 0 : issue + 1;
    if (f.size() >= kDmnQueue) t = std::max(t, f[f.size() - kDmnQueue]);
    uint64_t start = std::max(t, f.empty() ? 0 : f.back());
    f.push_back(start + perRequest);
    end = std::max(end, f.back());
    issue = t;
    first = false;
  }
  return std::max({requests, busiest, end ? end - 1 : 0});
}

OpCost dmaPlanCost(const DmaPlan &plan) { return dmaCost(dmaConfigOf(plan)); }

OpCost dmaCost(const DmaConfig &plan) {
  OpCost c;
  c.resource = Resource::Dma;
  uint64_t stepBytes = plan.shared.stride0;
  // The runs: within chips every chip runs the same commands (chip 0 stands for all); across chips
  // each route of the destination table runs them on its source chip, its write base added.
  struct Run {
    uint64_t chip = 0;
    int64_t base = 0;
  };
  std::vector<Run> runs;
  if (plan.crossChip()) {
    for (const DmaChipWrite &w : plan.chipWrites)
      if (w.used) runs.push_back({w.chip, w.writeBase});
  } else {
    runs.push_back({0, 0});
  }
  uint64_t nChips = 1;
  for (const Run &r : runs) nChips = std::max<uint64_t>(nChips, r.chip + 1);
  for (const DmaChipWrite &w : plan.chipWrites)
    for (uint64_t k : w.toChips) nChips = std::max<uint64_t>(nChips, k + 1);
  size_t E = plan.engines.size();
  // Per chip: every engine's time and HBM requests (reads on the source chip, writes on the chip
  // they land on); per chip the PCIe bytes sent and received.
  std::vector<std::vector<uint64_t>> engineTotal(nChips, std::vector<uint64_t>(E, 0)), engineStartup = engineTotal,
      engineRead = engineTotal, engineWrite = engineTotal, engineCommands = engineTotal, engineBytes = engineTotal;
  std::vector<std::vector<std::vector<HbmRequest>>> requests(nChips, std::vector<std::vector<HbmRequest>>(E));
  std::vector<uint64_t> sent(nChips, 0), received(nChips, 0);
  uint64_t totalBytes = 0;
  // At most kSimulatedSteps steps in all are walked; each command of each run gets an equal share.
  uint64_t commands = 0;
  for (const DmaEngineWork &w : plan.engines) commands += w.commands.size();
  uint64_t budget = std::max<uint64_t>(kSimulatedSteps / std::max<uint64_t>(commands * runs.size(), 1), 1);
  std::vector<uint64_t> scaleNum(nChips, 0), scaleDen(nChips, 0);  // per chip: steps in all / steps simulated
  for (const Run &run : runs) {
    for (size_t e = 0; e < E; ++e) {
      for (const DmaCommand &cmd : plan.engines[e].commands) {
        std::vector<uint64_t> dmRead, dmWrite;
        uint64_t hbmRead = 0, hbmWrite = 0, off = 0;
        std::vector<uint64_t> recv(nChips, 0);
        // Very large transfers are simulated on a prefix of each command and scaled up.
        uint64_t steps = cmd.steps(plan.elemBits), simulated = std::min(steps, budget);
        // One request per 256-byte unit of each step (aligned steps; unaligned ones may add one).
        const uint64_t units = std::max<uint64_t>(ceilDiv(stepBytes, kRequestBytes), 1);
        const uint64_t sides = (plan.src != DmaMedia::Dm ? 1 : 0) + (plan.dst != DmaMedia::Dm && !plan.crossChip() ? 1 : 0);
        requests[run.chip][e].reserve(requests[run.chip][e].size() + simulated * units * sides);
        cmd.forEachStep(plan.elemBits, [&](uint64_t s, uint64_t d) {
          if (plan.src == DmaMedia::Dm) {
            dmRead.push_back(s);
          } else {
            std::vector<HbmRequest> &q = requests[run.chip][e];
            size_t before = q.size();
            hbmRequests(s, stepBytes, false, q);
            hbmRead += q.size() - before;
          }
          uint64_t to = run.chip;
          if (plan.crossChip()) {
            uint64_t g = d + uint64_t(run.base);
            to = std::min<uint64_t>(g / chipspace::kChipStride, nChips - 1);
            d = g % chipspace::kChipStride;
            if (to != run.chip) off += stepBytes, recv[to] += stepBytes;
          }
          if (plan.dst == DmaMedia::Dm) {
            dmWrite.push_back(d);
          } else {
            std::vector<HbmRequest> &q = requests[to][e];
            size_t before = q.size();
            hbmRequests(d, stepBytes, true, q);
            hbmWrite += q.size() - before;
          }
        }, simulated);
        uint64_t read = plan.src == DmaMedia::Dm ? dmSideCycles(dmRead, stepBytes) : hbmRead;
        uint64_t write = plan.dst == DmaMedia::Dm ? dmSideCycles(dmWrite, stepBytes) : hbmWrite;
        if (simulated && simulated < steps) {
          read = ceilDiv(read * steps, simulated);
          write = ceilDiv(write * steps, simulated);
          off = ceilDiv(off * steps, simulated);
          for (uint64_t &r : recv) r = ceilDiv(r * steps, simulated);
        }
        scaleDen[run.chip] += simulated;
        scaleNum[run.chip] += steps;
        sent[run.chip] += off;
        for (uint64_t k = 0; k < nChips; ++k) received[k] += recv[k];
        // Same memory (HBM to HBM, DM to DM in one cluster): reads and writes take turns ("Example 1",
        // "Example 3"); otherwise they overlap in the pipeline ("Example 2": max(read, write) + 500).
        uint64_t body = plan.src == plan.dst ? read + write : std::max(read, write);
        engineTotal[run.chip][e] += kStartup + body;
        engineStartup[run.chip][e] += kStartup;
        engineRead[run.chip][e] += read;
        engineWrite[run.chip][e] += write;
        engineCommands[run.chip][e] += 1;
        engineBytes[run.chip][e] += steps * stepBytes;
        totalBytes += steps * stepBytes;
      }
    }
  }
  // The slowest engine of any chip.
  uint64_t slowest = 0, slowestStartup = 0, slowestRead = 0, slowestWrite = 0;
  size_t busyChip = runs.empty() ? 0 : runs[0].chip;
  for (uint64_t k = 0; k < nChips; ++k)
    for (size_t e = 0; e < E; ++e)
      if (engineTotal[k][e] > slowest)
        slowest = engineTotal[k][e], slowestStartup = engineStartup[k][e], slowestRead = engineRead[k][e],
        slowestWrite = engineWrite[k][e], busyChip = k;
  for (size_t e = 0; e < E; ++e)
    c.dmaEngines.push_back({plan.engines[e].cluster, plan.engines[e].pair, engineTotal[busyChip][e],
                            engineCommands[busyChip][e], engineBytes[busyChip][e]});
  // Every chip's 32 HBM channels: the requests of its engines interleave, engine by engine.
  uint64_t channel = 0;
  bool anyHbm = false;
  for (uint64_t k = 0; k < nChips; ++k) {
    std::vector<HbmRequest> merged;
    size_t longest = 0, total = 0;
    for (const auto &v : requests[k]) longest = std::max(longest, v.size()), total += v.size();
    merged.reserve(total);
    for (size_t i = 0; i < longest; ++i)
      for (const auto &v : requests[k])
        if (i < v.size()) merged.push_back(v[i]);
    if (merged.empty()) continue;
    anyHbm = true;
    ChannelLoad load = hbmChannelLoad(merged);
    uint64_t ch = ceilDiv(load.maxThirds, 3);
    // A prefix was simulated: scale by the steps of all runs over those walked.
    uint64_t num = 0, den = 0;
    for (uint64_t j = 0; j < nChips; ++j) num += scaleNum[j], den += scaleDen[j];
    if (den && num > den) ch = ceilDiv(ch * num, den);
    channel = std::max(channel, ch);
  }
  std::string readName = plan.src == DmaMedia::Dm ? "dm_read" : "hbm_read";
  std::string writeName = plan.dst == DmaMedia::Dm ? "dm_write" : "hbm_write";
  c.engines.push_back({"dma_startup", slowestStartup, 0});
  c.engines.push_back({readName, slowestRead, 0});
  c.engines.push_back({writeName, slowestWrite, 0});
  if (anyHbm) c.engines.push_back({"hbm_channel", channel, 0});
  c.cycles = std::max(slowest, anyHbm ? kStartup + channel : 0);
  // Across chips: PCIe moves 30 B/cycle "for both reads and writes": each chip sends its bytes for
  // other chips and receives theirs at that rate, the chips' links in parallel.
  if (plan.crossChip()) {
    uint64_t pcie = 0;
    for (uint64_t k = 0; k < nChips; ++k)
      pcie = std::max({pcie, ceilDiv(sent[k], chipspace::kPcieBytesPerCycle), ceilDiv(received[k], chipspace::kPcieBytesPerCycle)});
    c.engines.push_back({"pcie", pcie, 0});
    c.cycles = std::max(c.cycles, kStartup + pcie);
  }
  uint64_t bytes = plan.crossChip() ? totalBytes : totalBytes * plan.chips;
  (plan.src == DmaMedia::Dm ? c.bytes[MemTier::Dm] : c.bytes[MemTier::Hbm]).read += bytes;
  (plan.dst == DmaMedia::Dm ? c.bytes[MemTier::Dm] : c.bytes[MemTier::Hbm]).write += bytes;
  return c;
}

}  // namespace tcp
