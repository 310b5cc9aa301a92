// DmaChips.cpp — DMA transfers across chips: the destination's global HBM space, per-chip write bases, bytes over PCIe.
#include "DmaChips.h"

#include "MappingNormalForm.h"
#include "Sequencer.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace tcp {

std::string hbmStrideText(DmaMedia m, int64_t stride, unsigned bits, const std::string &times) {
  int64_t chip = int64_t(chipspace::kChipStride * 8 / bits);
  if (m != DmaMedia::Hbm || stride == 0 || std::abs(stride) < chip) return std::to_string(stride);
  int64_t sign = stride < 0 ? -1 : 1, a = stride * sign, k = a / chip, rest = a % chip;
  std::string s = (sign < 0 ? "-" : "") + std::string(k == 1 ? "" : std::to_string(k) + times) + "chip_stride";
  return rest ? "(" + s + " + " + std::to_string(rest) + ")" : s;
}

std::string hbmBaseText(int64_t bytes) {
  if (bytes < int64_t(chipspace::kChipStride)) return std::to_string(bytes);
  uint64_t u = uint64_t(bytes);
  return "HBM(" + std::to_string(u / chipspace::kChipStride) + ")@" + std::to_string(u % chipspace::kChipStride);
}

bool dmaCrossesChips(const TensorType &in, const TensorType &out) {
  if (!in.chip || !out.chip) return false;
  return !equivalent(normalize(in.chip), normalize(out.chip));
}

MappingRef chipBuffer(const TensorType &out) { return Mapping::pair(out.chip, out.element); }

int64_t toChipSpace(const TensorType &out, unsigned bits, int64_t stride) {
  if (stride == 0) return 0;
  int64_t e = int64_t(out.element->size()), space = int64_t(chipspace::kChipStride * 8 / bits);
  int64_t sign = stride < 0 ? -1 : 1, a = stride * sign;
  return sign * ((a / e) * space + a % e);
}

std::optional<std::vector<std::optional<int64_t>>> chipWriteOffsets(const TensorType &in, const TensorType &out,
                                                                    unsigned bits) {
  uint64_t n = in.chip->size();
  std::vector<std::optional<int64_t>> offsets(n);
  if (in.chip->axes().empty()) {  // `m![1]` or padding only: chip 0 writes from the base
    for (uint64_t c = 0; c < n; ++c)
      if (in.chip->map(c)) offsets[c] = 0;
    return offsets;
  }
  SeqOptions o;
  o.use = SeqUse::Fetch;
  o.maxEntries = 64;
  // The source's chip positions walked as a stream over the destination buffer: entry strides
  // give each chip's offset (a chip axis the destination keeps in its element or Chip mapping).
  SeqResult r = derive(chipBuffer(out), in.chip, Mapping::identity(), 8, o);
  if (!r.diagnostics.empty() || !r.config) return std::nullopt;
  uint64_t product = 1;
  for (const SeqEntry &s : r.initial) product *= s.size;
  if (product != n) return std::nullopt;
  for (uint64_t c = 0; c < n; ++c) {
    if (!in.chip->map(c)) continue;
    int64_t off = r.config->baseOffset;
    uint64_t d = c;
    for (size_t k = r.initial.size(); k-- > 0;) {
      off += int64_t(d % r.initial[k].size) * r.initial[k].stride;
      d /= r.initial[k].size;
    }
    offsets[c] = toChipSpace(out, bits, off) * int64_t(bits) / 8;
  }
  return offsets;
}

std::optional<std::string> chipPlacementProblem(const DmaPlan &plan, const TensorType &out) {
  if (!plan.crossChip || !out.chip) return std::nullopt;
  std::set<uint64_t> held, written;
  for (uint64_t p = 0; p < out.chip->size(); ++p)
    if (out.chip->map(p)) held.insert(p);
  for (const std::optional<int64_t> &base : plan.chipWrite) {
    if (!base) continue;
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) { written.insert((d + uint64_t(*base)) / chipspace::kChipStride); });
  }
  if (held == written) return std::nullopt;
  auto list = [](const std::set<uint64_t> &s) {
    std::string out;
    for (uint64_t c : s) out += (out.empty() ? "" : ", ") + std::to_string(c);
    return (s.size() == 1 ? "chip " : "chips ") + out;
  };
  return "DMA across chips: the destination's `Chip` mapping `" + out.chip->body() + "` holds the data on " + list(held) +
         ", but the transfer writes " + list(written) +
         " (each source chip writes its data once, at its place in the chip-major destination); this placement is "
         "not supported yet (\"DMA Engine\" > Inter-Chip Transfers)";
}

std::vector<std::string> broadcastChipAxes(const TensorType &in, const TensorType &out) {
  std::set<std::string> held;
  for (const MappingRef &m : {in.chip, in.element})
    if (m)
      for (const AxisInfo &a : m->axes()) held.insert(a.baseName());
  std::vector<std::string> extra;
  if (out.chip)
    for (const AxisInfo &a : out.chip->axes())
      if (!held.count(a.baseName()) && std::find(extra.begin(), extra.end(), a.name) == extra.end()) extra.push_back(a.name);
  return extra;
}

std::vector<uint64_t> pcieBytesPerChip(const DmaPlan &plan) {
  std::vector<uint64_t> bytes(plan.chipWrite.size(), 0);
  if (!plan.crossChip) return bytes;
  for (size_t c = 0; c < plan.chipWrite.size(); ++c) {
    if (!plan.chipWrite[c]) continue;
    for (const DmaEngineWork &w : plan.engines)
      for (const DmaCommand &cmd : w.commands)
        cmd.forEachStep(plan.elemBits, [&](uint64_t, uint64_t d) {
          uint64_t to = (d + uint64_t(*plan.chipWrite[c])) / chipspace::kChipStride;
          if (to != c) bytes[c] += plan.shared.stride0;
        });
  }
  return bytes;
}

}  // namespace tcp
