// TrfSequencer.cpp — the TRF Sequencer's read plan (reg_read_size, packet broadcast, Time entries in bytes).
#include "TrfSequencer.h"

#include "MappingFactor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tcp {

int trfRegType(num::DType d) {
  using num::DType;
  switch (d) {
    case DType::i4: return 0;  // 5-bit slot (i4 extended)
    case DType::i8: return 1;  // 10-bit (i4 → i8)
    case DType::f8e4m3:
    case DType::f8e5m2: return 2;  // 10-bit (i8 → f8)
    case DType::bf16: return 3;    // 20-bit
    default: return -1;
  }
}

uint64_t trfElementsPerRow(num::DType d, bool half) {
  static const uint64_t slots[] = {1, 2, 2, 4};  // 5-bit slots per element, by reg_types
  int rt = trfRegType(d);
  if (rt < 0) return 0;
  uint64_t perLine = 64 / slots[rt];           // a 320-bit bank row holds 64 five-bit slots
  uint64_t lines = (half ? 64 : 128) * 2;      // rows in bank × 2 bank columns
  return perLine * lines;
}

namespace {

// Looks up the TRF Element position holding a tensor index (projected onto the Element's axes).
// Without skewed or padded axes (whose indices name their base axes) the Element's own indices are
// already projected: IndexPositions keys them by integers; else a table of projected Index keys.
class ElementIndex {
 public:
  explicit ElementIndex(const MappingRef &element) {
    bool derived = false;
    for (const AxisInfo &a : element->axes()) {
      names_.insert(a.name);
      derived |= !a.skewBase.empty() || !a.padBase.empty();
    }
    if (!derived) {
      ints_.emplace(element);
      return;
    }
    for (uint64_t e = 0; e < element->size(); ++e)
      if (auto idx = element->map(e)) pos_.emplace(project(*idx).key(), e);
  }
  std::optional<uint64_t> find(const Index &idx) const {  // the first position of the index
    if (ints_) return ints_->find(project(idx));
    auto it = pos_.find(project(idx).key());
    if (it == pos_.end()) return std::nullopt;
    return it->second;
  }

 private:
  Index project(const Index &idx) const {  // the index restricted to the Element's axes
    Index r;
    for (const auto &[axis, v] : idx.entries())
      if (names_.count(axis)) r.set(axis, v);
    return r;
  }
  std::set<std::string> names_;
  std::optional<IndexPositions> ints_;
  std::map<Index::Key, uint64_t> pos_;  // first position of each index
};

}  // namespace

TrfReadPlan planTrfRead(const TensorType &trf, const MappingRef &time, const MappingRef &packet) {
  TrfReadPlan plan;
  if (!trf.element || !time || !packet) return plan;
  const unsigned bits = num::storageBits(trf.dtype);
  ElementIndex elems(trf.element);
  // TRF element position of computation position (t, p); nullopt for stream padding or a weight the
  // TRF lacks.
  auto offsetOf = [&](uint64_t t, uint64_t p) -> std::optional<uint64_t> {
    auto ti = time->map(t);
    auto pi = packet->map(p);
    if (!ti || !pi) return std::nullopt;
    Index idx = *ti;
    idx.add(*pi);
    return elems.find(idx);
  };

  // ---- reg_read_size: the packet is one contiguous TRF run of r elements, repeated.
  const uint64_t P = packet->size();
  uint64_t t0 = 0;
  while (t0 < time->size() && !time->map(t0)) ++t0;
  std::vector<std::optional<uint64_t>> off(P);
  int64_t lastData = -1;
  for (uint64_t p = 0; p < P; ++p) {
    if (!packet->map(p)) continue;
    lastData = int64_t(p);
    off[p] = offsetOf(t0, p);
    if (!off[p]) {
      plan.diagnostics.push_back("the TRF tensor holds no weight for lane " + std::to_string(p) + " of OutPacket " +
                                 packet->str() + " (TRF Element " + trf.element->str() + ")");
      return plan;
    }
  }
  if (lastData < 0) return plan;  // an all-padding packet reads nothing
  uint64_t dataSpan = 1;
  while (dataSpan < uint64_t(lastData) + 1) dataSpan *= 2;
  // A read is at least one byte: sub-byte weights read a whole byte even when fewer lanes hold data
  // (one i4 weight: reg_read_size 1 byte, its second nibble in a padding lane of the packet).
  while (bits > 0 && dataSpan * bits < 8) dataSpan *= 2;
  std::optional<uint64_t> base;
  uint64_t r = 0;
  for (uint64_t cand = dataSpan; cand >= 1; cand /= 2) {
    uint64_t candBits = cand * bits;
    if (candBits < 8 || candBits > kMacWidthBytes * 8 || P % cand) continue;
    std::optional<uint64_t> b;
    bool good = true;
    for (uint64_t p = 0; p < P && good; ++p) {
      if (!off[p]) continue;
      uint64_t lane = p % cand;
      if (*off[p] < lane) good = false;
      else if (!b) b = *off[p] - lane;
      else good = *b == *off[p] - lane;
    }
    if (good) {
      r = cand;
      base = b;
      break;
    }
  }
  if (!r) {
    plan.diagnostics.push_back(
        "the TRF Sequencer reads reg_read_size contiguous bytes (a power of two up to 64) and repeats them across the "
        "64-byte computation packet, but OutPacket " + packet->str() + " is not one contiguous run of the TRF Element " +
        trf.element->str() + " repeated (\"TRF Sequencer\": TRF Read Mechanism)");
    return plan;
  }
  plan.regReadBytes = r * bits / 8;
  plan.broadcast = kMacWidthBytes / plan.regReadBytes;

  // ---- Time entries: each Time term steps the TRF address by a constant number of bytes.
  auto toBytes = [&](int64_t elemsDelta, bool *whole) -> int64_t {
    int64_t b = elemsDelta * int64_t(bits);
    if (b % 8) *whole = false;
    return b / 8;
  };
  uint64_t pAny = 0;
  while (pAny < P && !off[pAny]) ++pAny;
  for (const FactorTerm &term : factorize(time)) {
    if (term.count <= 1) continue;
    SeqEntry e;
    e.size = term.count;
    e.term = term.str();
    e.stride = 0;
    if (term.kind != FactorTerm::Padding) {
      std::optional<int64_t> stride;
      bool linear = true, whole = true;
      std::optional<uint64_t> o0 = offsetOf(t0, pAny);
      for (uint64_t d = 1; d < term.count && linear; ++d) {
        uint64_t t = t0 + d * term.bufStride;
        if (t >= time->size()) break;
        auto od = offsetOf(t, pAny);
        if (!od || !o0) continue;
        int64_t delta = int64_t(*od) - int64_t(*o0);
        if (!stride) stride = delta / int64_t(d);
        if (int64_t(d) * *stride != delta) linear = false;
      }
      if (!linear) {
        plan.diagnostics.push_back("the TRF Sequencer steps each Time axis by a constant stride, but OutTime term `" +
                                   term.str() + "` does not walk the TRF Element " + trf.element->str() +
                                   " linearly");
        continue;
      }
      e.stride = toBytes(stride.value_or(0), &whole);
      if (!whole)
        plan.diagnostics.push_back("OutTime term `" + term.str() + "` steps the TRF by " +
                                   std::to_string(stride.value_or(0)) + " elements of " + num::dtypeName(trf.dtype) +
                                   ", not a whole number of bytes");
    }
    plan.entries.push_back(e);
  }
  if (plan.entries.size() > 8) plan.entries = mergeContiguous(plan.entries);
  // A Time term of more than 65,536 steps (the normal form joins `M / 65536, M % 65536` into `M`) is
  // two entries when its size splits into two factors of at most 65,536: the outer steps k inner ones.
  for (size_t k = 0; k < plan.entries.size(); ++k) {
    const SeqEntry e = plan.entries[k];
    if (e.size <= 65536) continue;
    uint64_t inner = 0;
    for (uint64_t d = 65536; d >= 2 && !inner; --d)
      if (e.size % d == 0 && e.size / d <= 65536) inner = d;
    if (!inner) continue;  // reported below
    SeqEntry outer = e, in = e;
    outer.size = e.size / inner;
    outer.stride = e.stride * int64_t(inner);
    outer.term = e.term + " / " + std::to_string(inner);
    in.size = inner;
    in.term = e.term + " % " + std::to_string(inner);
    plan.entries[k] = outer;
    plan.entries.insert(plan.entries.begin() + k + 1, in);
  }
  if (plan.entries.size() > 8)
    plan.diagnostics.push_back("the TRF Sequencer has at most 8 entries, but OutTime " + time->str() + " needs " +
                               std::to_string(plan.entries.size()));
  for (const SeqEntry &e : plan.entries)
    if (e.size > 65536)
      plan.diagnostics.push_back("TRF Sequencer entry `" + e.term + "` has size " + std::to_string(e.size) +
                                 "; an entry iterates at most 65,536 times");

  // ---- 64-byte alignment: a 64-byte read spans both bank columns.
  if (plan.regReadBytes == kMacWidthBytes) {
    bool whole = true;
    int64_t baseBytes = toBytes(int64_t(base.value_or(0)), &whole);
    if (baseBytes % 64)
      plan.diagnostics.push_back("reg_read_size = 64 reads both bank columns, so the read must start 64-byte aligned, "
                                 "but OutPacket " + packet->str() + " starts at byte " + std::to_string(baseBytes) +
                                 " of the TRF Element (\"TRF Sequencer\": 64-byte alignment constraint)");
    for (const SeqEntry &e : plan.entries)
      if (e.stride % 64)
        plan.diagnostics.push_back("reg_read_size = 64 reads both bank columns, so every sequencer stride must be a "
                                   "multiple of 64 bytes, but OutTime term `" + e.term + "` strides " +
                                   std::to_string(e.stride) + " bytes (\"TRF Sequencer\": 64-byte alignment constraint)");
  }
  return plan;
}

}  // namespace tcp
