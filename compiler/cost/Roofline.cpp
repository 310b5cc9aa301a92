// Roofline.cpp — engine-class busy shares, FLOPs, HBM bytes and peak fractions of each function and of the program.
#include "Roofline.h"

#include <algorithm>
#include <limits>

namespace tcp {

uint64_t peakMacsPerCycle(num::DType dtype) {
  // One mac_width packet per Row per cycle: 64 bytes of elements (bf16 32, i8/f8 64, i4 128).
  uint64_t perPacket = roof::kMacWidthBytes * 8 / num::storageBits(dtype);
  return roof::kSlicesPerChip * roof::kRowsPerSlice * perPacket;
}

const char *workClassName(WorkClass c) {
  switch (c) {
    case WorkClass::Hbm: return "hbm";
    case WorkClass::Pcie: return "pcie";
    case WorkClass::Tu: return "tu";
    case WorkClass::Ve: return "ve";
    case WorkClass::Other: return "other";
  }
  return "?";
}

WorkClass workClass(const OpCost &op) {
  bool hasReducer = false, hasVector = false, hasPcie = false;
  for (const EngineCost &e : op.engines) {
    hasReducer = hasReducer || e.engine == "reducer";
    hasVector = hasVector || e.engine == "vector";
    hasPcie = hasPcie || e.engine == "pcie";
  }
  if (op.resource == Resource::Dma) {
    if (hasPcie) return WorkClass::Pcie;
    auto hbm = op.bytes.find(MemTier::Hbm);
    bool touchesHbm = hbm != op.bytes.end() && hbm->second.read + hbm->second.write > 0;
    return touchesHbm ? WorkClass::Hbm : WorkClass::Other;
  }
  if (hasReducer) return WorkClass::Tu;
  return hasVector ? WorkClass::Ve : WorkClass::Other;
}

uint64_t unionCycles(std::vector<std::pair<uint64_t, uint64_t>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  uint64_t total = 0, coveredTo = 0;
  for (const auto &[begin, end] : intervals) {
    uint64_t from = std::max(begin, coveredTo);
    if (end > from) total += end - from;
    coveredTo = std::max(coveredTo, end);
  }
  return total;
}

double Roofline::share(WorkClass c) const {
  return cycles ? double(busy[static_cast<int>(c)]) / double(cycles) : 0.0;
}

double Roofline::intensity() const {
  return hbmBytes ? double(flops) / double(hbmBytes) : std::numeric_limits<double>::infinity();
}

double Roofline::ridge() const { return hbmCapacity > 0 ? flopCapacity / hbmCapacity : 0.0; }

bool Roofline::memoryBound() const { return intensity() < ridge(); }

double Roofline::flopFraction() const { return flopCapacity > 0 ? double(flops) / flopCapacity : 0.0; }

double Roofline::hbmFraction() const { return hbmCapacity > 0 ? double(hbmBytes) / hbmCapacity : 0.0; }

double Roofline::roofFraction() const {
  // Attainable FLOPs in `cycles`: min(compute roof, intensity × memory roof) (Williams et al.). Under
  // the memory roof, flops / (flops / hbmBytes × hbmCapacity) is the HBM fraction (also without FLOPs).
  if (memoryBound()) return hbmFraction();
  return flopFraction();
}

Roofline functionRoofline(const FunctionCost &f, const FunctionSchedule &s) {
  Roofline r;
  r.cycles = s.makespan;
  std::vector<std::pair<uint64_t, uint64_t>> intervals[kWorkClasses];
  uint64_t peakMacs = 0;
  for (size_t i = 0; i < f.ops.size() && i < s.ops.size(); ++i) {
    const OpCost &op = f.ops[i];
    intervals[static_cast<int>(workClass(op))].push_back({s.ops[i].start, s.ops[i].end});
    r.macs += op.macs;
    r.vectorOps += op.vectorOps;
    if (op.macs) peakMacs = std::max(peakMacs, peakMacsPerCycle(op.macType));
    auto hbm = op.bytes.find(MemTier::Hbm);
    if (hbm != op.bytes.end()) r.hbmBytes += hbm->second.read + hbm->second.write;
  }
  for (int c = 0; c < kWorkClasses; ++c) r.busy[c] = unionCycles(std::move(intervals[c]));
  if (!peakMacs) peakMacs = peakMacsPerCycle(num::DType::bf16);  // the float roof of a kernel without contraction
  r.flops = 2 * r.macs + r.vectorOps;
  r.flopCapacity = double(r.cycles) * f.chips * 2.0 * double(peakMacs);
  r.hbmCapacity = double(r.cycles) * f.chips * double(roof::kHbmBytesPerCycle);
  return r;
}

ProgramRoofline roofline(const ProgramCost &p, const ProgramSchedule &s) {
  ProgramRoofline out;
  for (size_t i = 0; i < p.functions.size() && i < s.functions.size(); ++i) {
    Roofline r = functionRoofline(p.functions[i], s.functions[i]);
    Roofline &t = out.program;
    t.cycles += r.cycles;
    for (int c = 0; c < kWorkClasses; ++c) t.busy[c] += r.busy[c];
    t.macs += r.macs;
    t.vectorOps += r.vectorOps;
    t.flops += r.flops;
    t.hbmBytes += r.hbmBytes;
    t.flopCapacity += r.flopCapacity;
    t.hbmCapacity += r.hbmCapacity;
    out.functions.push_back(r);
  }
  return out;
}

}  // namespace tcp
