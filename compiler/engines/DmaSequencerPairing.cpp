// DmaSequencerPairing.cpp — a transfer's read and write sequencers paired into one compact DmaSequencer, and the alignment rules.
#include "DmaPlanDetail.h"

#include "DmaChips.h"

#include <algorithm>

namespace tcp::dmaplan {

namespace {

std::string compact(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

}  // namespace

void flat(const MappingRef &m, std::vector<MappingRef> &out) {
  if (m->kind() == Mapping::Pair) {
    flat(m->children()[0], out);
    flat(m->children()[1], out);
  } else if (m->size() > 1) {
    out.push_back(m);
  }
}

namespace {

// The buffer a side's sequencer addresses: HBM the chip's element; DM the cluster, the slice and
// the element (rescaled to the 4 MB virtual slice space by `toSliceSpace`).
// A stream that iterates no axis of the cluster and slice mappings reads the element alone.
MappingRef sideBuffer(const TensorType &t, const MappingRef &time, const MappingRef &packet) {
  if (t.tier != Tier::Dm) return t.element;
  auto mentions = [](const MappingRef &m, const std::string &axis) {
    for (const AxisInfo &a : m->axes())
      if (a.name == axis) return true;
    return false;
  };
  bool spatial = false;
  for (const MappingRef &m : {t.cluster, t.slice})
    for (const AxisInfo &a : m->axes()) spatial |= mentions(time, a.name) || mentions(packet, a.name);
  if (!spatial) return t.element;
  // A cluster mapping with no axis (`1 # 2`) only selects cluster 0: the engines' bases add it.
  if (t.cluster->axes().empty()) return Mapping::pair(t.slice, t.element);
  return Mapping::pair(t.cluster, Mapping::pair(t.slice, t.element));
}

}  // namespace

// A DM buffer stride in element positions (slices step whole elements of E positions) as a stride
// in the virtual space where each slice owns 4 MB.
int64_t toSliceSpace(const TensorType &t, unsigned bits, int64_t stride) {
  if (t.tier != Tier::Dm || stride == 0) return stride;
  int64_t e = int64_t(t.element->size()), space = int64_t(dmspace::kSliceStride * 8 / bits);
  int64_t sign = stride < 0 ? -1 : 1, a = stride * sign;
  return sign * ((a / e) * space + a % e);
}

// Groups derived entries by the stream components they come from (sizes multiply to each
// component's size); nullopt when they do not line up.
std::optional<std::vector<std::vector<SeqEntry>>> byComponent(const std::vector<SeqEntry> &entries,
                                                               const std::vector<MappingRef> &comps) {
  std::vector<std::vector<SeqEntry>> out(comps.size());
  size_t k = 0;
  for (size_t c = 0; c < comps.size(); ++c) {
    uint64_t n = 1;
    while (n < comps[c]->size() && k < entries.size() && comps[c]->size() % (n * entries[k].size) == 0)
      n *= entries[k].size, out[c].push_back(entries[k++]);
    if (n != comps[c]->size()) return std::nullopt;
  }
  if (k != entries.size()) return std::nullopt;
  return out;
}

namespace {

// The common refinement of one component's read and write entries: shared limits, paired strides.
std::optional<std::vector<DmaEntry>> pairUp(std::vector<SeqEntry> r, std::vector<SeqEntry> w, int component) {
  std::vector<DmaEntry> out;
  while (!r.empty() && !w.empty()) {
    SeqEntry &a = r.back(), &b = w.back();
    uint64_t n = std::min(a.size, b.size);
    if (a.size % n || b.size % n) return std::nullopt;
    DmaEntry e;
    e.size = n;
    e.src = a.stride;
    e.dst = b.stride;
    e.term = compact(a.size == n ? a.term : b.term);
    e.component = component;
    out.insert(out.begin(), e);
    auto shrink = [n](std::vector<SeqEntry> &v) {
      SeqEntry &x = v.back();
      if (x.size == n) {
        v.pop_back();
      } else {
        x.size /= n;
        x.stride *= int64_t(n);
      }
    };
    shrink(r);
    shrink(w);
  }
  if (!r.empty() || !w.empty()) return std::nullopt;
  return out;
}

}  // namespace

bool pairSequencers(const DmaRequest &req, DmaPlan &plan, Draft &d) {
  const TensorType &in = req.in, &out = req.out;
  const unsigned bits = plan.elemBits;
  if (!req.time || !req.packet) return fail(plan, "the DMA stream could not be built");
  MappingRef rbuf = sideBuffer(in, req.time, req.packet), wbuf = sideBuffer(out, req.time, req.packet);
  // Across chips ("cross-chip transfers"): each source chip writes into the global HBM space.
  plan.crossChip = dmaCrossesChips(in, out);
  if (plan.crossChip) {
    plan.chipStrided = chipStreamed(out, req.time, req.packet);
    if (plan.chipStrided) {
      // The write sequencer steps chips (an all-to-all, a scatter): it addresses the destination's
      // chip-then-element buffer in the global space.
      if (out.tier != Tier::Hbm)
        return fail(plan, "DMA across chips: the stream iterates the destination's Chip axes of `" + out.chip->body() +
                    "`; a write sequencer that steps chips addresses HBM (`HBM(<ChipIndex>)`), a DM destination "
                    "spread over chips by the stream is not supported yet (\"DMA Engine\" > Inter-Chip Transfers)");
      auto routes = chipStridedRoutes(in, out, bits);
      if (!routes)
        return fail(plan, "DMA across chips: the source Chip mapping `" + in.chip->body() +
                    "` does not place its chips at regular offsets of the destination `" +
                    Mapping::pair(out.chip, out.element)->body() + "` (not supported yet: a write sequencer that "
                    "steps chips needs them at regular offsets; \"DMA Engine\" > Inter-Chip Transfers)");
      plan.routes = *routes;
      wbuf = chipBuffer(out);
    } else {
      // Each source chip writes whole chips: the per-source-chip destination table.
      ChipRoutes r = wholeChipRoutes(in, out, wbuf, bits);
      if (!r.problem.empty()) return fail(plan, r.problem);
      plan.routes = std::move(r.routes);
    }
  }
  SeqOptions o;
  o.use = SeqUse::Fetch;  // DMA packets may exceed 32 bytes; padding is segmented away below
  o.maxEntries = 64;      // the pairing below merges and checks the limit
  o.wholeBytePackets = false;  // stride0 below cuts the packet from the contiguous run and checks its bytes
  SeqResult r = derive(rbuf, req.time, req.packet, bits, o);
  SeqResult w = derive(wbuf, req.time, req.packet, bits, o);
  for (const std::string &d : r.diagnostics) plan.diagnostics.push_back("DMA read sequencer: " + d);
  for (const std::string &d : w.diagnostics) plan.diagnostics.push_back("DMA write sequencer: " + d);
  if (!plan.ok()) return false;
  // A DM side's buffer lays slices E positions apart, as if one slice's element ran on into the next;
  // in DM each slice owns its own space. An entry that steps below E but runs past E would cross
  // from one slice into the next as if they were contiguous (Time `S` over Slice `S / 4` and Element
  // `S % 4, P`): the stream must split the term where the slice digit begins.
  auto crossesSlices = [&](const TensorType &t, const MappingRef &buf, const std::vector<SeqEntry> &entries,
                           const char *side) {
    if (t.tier != Tier::Dm || buf == t.element) return false;
    int64_t e = int64_t(t.element->size());
    for (const SeqEntry &x : entries)
      if (x.stride > 0 && x.stride < e && int64_t(x.size - 1) * x.stride >= e) {
        plan.diagnostics.push_back(std::string("DMA ") + side + " sequencer: the stream term " + q(x.term) + " runs from one slice's " +
                       "Element " + q(t.element->body()) + " into the next slice's (" + dec(x.size) + " steps of " +
                       dec(uint64_t(x.stride)) + " over an Element of " + dec(uint64_t(e)) + " positions); a sequencer "
                       "loop cannot cross slices at an element stride, so split the term where its Slice digits begin " +
                       "(e.g. Time `S / 4, S % 4` for Slice `S / 4`, Element `S % 4, P`): not supported yet as one term");
        return true;
      }
    return false;
  };
  crossesSlices(in, rbuf, r.initial, "read");  // reported; the alignment rules are checked too
  crossesSlices(out, wbuf, w.initial, "write");
  for (SeqEntry &x : r.initial) x.stride = toSliceSpace(in, bits, x.stride);
  for (SeqEntry &x : w.initial) x.stride = plan.chipStrided ? toChipSpace(out, bits, x.stride) : toSliceSpace(out, bits, x.stride);
  r.config->baseOffset = toSliceSpace(in, bits, r.config->baseOffset);
  w.config->baseOffset = plan.chipStrided ? toChipSpace(out, bits, w.config->baseOffset) : toSliceSpace(out, bits, w.config->baseOffset);
  if (plan.chipStrided)
    for (SeqEntry &x : w.config->entries) x.stride = toChipSpace(out, bits, x.stride);
  plan.read = *r.config;
  plan.write = *w.config;

  // Shared limits with paired strides, component by component (Time then Packet).
  std::vector<MappingRef> &tcomps = d.timeComps, pcomps;
  flat(req.time, tcomps);
  flat(req.packet, pcomps);
  std::vector<MappingRef> comps = tcomps;
  comps.insert(comps.end(), pcomps.begin(), pcomps.end());
  auto rg = byComponent(r.initial, comps), wg = byComponent(w.initial, comps);
  if (!rg || !wg) return fail(plan, "DMA sequencer: the read and write sequencers do not iterate the stream's terms alike");
  DmaCommand &cmd = plan.shared;
  for (size_t c = 0; c < comps.size(); ++c) {
    int comp = c < tcomps.size() ? int(c) : -1;
    auto p = pairUp((*rg)[c], (*wg)[c], comp);
    if (!p)
      return fail(plan, "DMA sequencer: the read and write sequencers split the stream term " + q(comps[c]->body()) +
                  " into sizes that share no limits");
    cmd.entries.insert(cmd.entries.end(), p->begin(), p->end());
  }
  // An entry the destination does not step (stride 0: a broadcast, or padding lanes such as
  // `1 # 8`) would write the same bytes again: one pass moves them.
  for (DmaEntry &e : cmd.entries)
    if (e.dst == 0) e.size = 1;
  cmd.entries.erase(std::remove_if(cmd.entries.begin(), cmd.entries.end(), [](const DmaEntry &e) { return e.size == 1; }),
                    cmd.entries.end());
  if (cmd.entries.empty()) cmd.entries.push_back({1, 1, 1, "1", -1});
  // Packet entries contiguous on both sides merge into one run.
  while (cmd.entries.size() >= 2) {
    DmaEntry &a = cmd.entries[cmd.entries.size() - 2], &b = cmd.entries.back();
    // A Time entry joins the run too when both sides are contiguous ("stride0 is inferred from the
    // consecutive read/write volume"), unless the run already fills a 4096-byte packet.
    if (b.component >= 0 || b.src != 1 || b.dst != 1 || a.src != int64_t(b.size) || a.dst != int64_t(b.size)) break;
    if (a.component >= 0 && b.size * bits >= kMaxStride0 * 8) break;
    a.component = -1;
    a.size *= b.size;
    a.src = a.dst = 1;
    a.term = "[" + a.term + ", " + b.term + "]";
    cmd.entries.pop_back();
  }
  // Packet padding written to HBM: the pads of the packet carry no data. When they would land on
  // the destination's elements or outside the tensor (a padded axis `B'` moved into `B`, an Element
  // `m![C, P # 8]` moved into `m![S, C, P]`), the packet entries shrink to the box of digits that
  // hold elements and the bases step over its leading pads; pads between elements are refused.
  int64_t &trimSrc = d.trimSrc, &trimDst = d.trimDst;
  if (plan.dst == DmaMedia::Hbm && !plan.chipStrided && req.packet->size() <= (uint64_t(1) << 16)) {
    size_t first = cmd.entries.size();
    uint64_t span = 1;
    while (first > 0 && cmd.entries[first - 1].component < 0) span *= cmd.entries[--first].size;
    const size_t n = cmd.entries.size() - first;
    if (n > 0 && span == req.packet->size()) {
      std::vector<uint64_t> lo(n, UINT64_MAX), hi(n, 0), digit(n);
      uint64_t held = 0;
      bool spill = false;
      for (uint64_t p = 0; p < span; ++p) {
        uint64_t x = p;
        int64_t at = plan.write.baseOffset;  // the first step's destination position of p
        for (size_t j = n; j-- > 0;) {
          digit[j] = x % cmd.entries[first + j].size;
          x /= cmd.entries[first + j].size;
          at += int64_t(digit[j]) * cmd.entries[first + j].dst;
        }
        if (req.packet->map(p)) {
          ++held;
          for (size_t j = 0; j < n; ++j) lo[j] = std::min(lo[j], digit[j]), hi[j] = std::max(hi[j], digit[j] + 1);
        } else {
          spill |= at < 0 || uint64_t(at) >= out.element->size() || out.element->map(uint64_t(at)).has_value();
        }
      }
      uint64_t box = held ? 1 : 0;
      for (size_t j = 0; j < n && held; ++j) box *= hi[j] - lo[j];
      if (!held) spill = false;  // a packet of padding alone: nothing to keep
      if (spill && box != held)
        return fail(plan, "DMA to HBM: the packet " + q(req.packet->body()) + " holds padding between its elements that "
                    "the destination " + q(out.element->body()) + " lays out as other elements; writing it would "
                    "overwrite them (not supported yet: a stream whose packet holds only elements)");
      for (size_t j = 0; spill && j < n; ++j) {
        DmaEntry &e = cmd.entries[first + j];
        if (hi[j] - lo[j] == e.size) continue;
        trimSrc += int64_t(lo[j]) * e.src * int64_t(bits) / 8;
        trimDst += int64_t(lo[j]) * e.dst * int64_t(bits) / 8;
        e.term += "[" + dec(lo[j]) + ".." + dec(hi[j]) + "]";
        e.size = hi[j] - lo[j];
      }
    }
  }
  // stride0: the innermost run contiguous on both sides, at most 4096 bytes (a divisor of the run).
  DmaEntry &inner = d.inner;
  inner = cmd.entries.back();
  if (inner.component < 0 && inner.src == 1 && inner.dst == 1 && inner.size > 1) {
    // The packet is the largest divisor of the run of at most 4096 bytes in whole bytes, and in whole
    // 8-byte units when the run is whole 8-byte units: DM sides need 8-byte aligned packets ("DMA
    // Engine" > Alignment Constraints), and 4104 bytes cut at 2052 would break a transfer that 8 x 513
    // keeps legal.
    const uint64_t unitBits = (inner.size * bits) % 64 == 0 ? 64 : 8;
    uint64_t k = 0;
    for (uint64_t a = std::min<uint64_t>(inner.size, kMaxStride0 * 8 / bits); a >= 1 && k == 0; --a)
      if (inner.size % a == 0 && (a * bits) % unitBits == 0) k = a;
    if (k == 0) k = std::max<uint64_t>(1, 8 / bits);
    if (k < inner.size) {
      DmaEntry outer = inner;
      outer.size = inner.size / k;
      outer.src = outer.dst = int64_t(k);
      cmd.entries.back().size = k;
      cmd.entries.insert(cmd.entries.end() - 1, outer);
    }
    cmd.stride0 = k * bits / 8;
  } else {
    cmd.stride0 = bits / 8;
  }
  if (bits < 8 && (cmd.entries.back().size * bits) % 8 != 0)
    return fail(plan, "DMA sequencer: a packet of " + dec(cmd.entries.back().size) + " " + num::dtypeName(in.dtype) +
                " elements is not a whole number of bytes");
  if (cmd.stride0 == 0) {  // a step of one sub-byte element: the DMA moves whole bytes
    cmd.stride0 = 1;
    plan.byteExact = false;
  }
  // More than 8 entries: merge pairs contiguous on both sides ("Merging"); what remains beyond 8 is
  // peeled into separate commands per engine (below).
  if (cmd.entries.size() > kMaxEntries)
    for (size_t i = cmd.entries.size() - 1; i-- > 0 && cmd.entries.size() > kMaxEntries;) {
      DmaEntry &a = cmd.entries[i], &b = cmd.entries[i + 1];
      if (i + 1 == cmd.entries.size() - 1) continue;  // keep the stride0 entry
      if (a.src != int64_t(b.size) * b.src || a.dst != int64_t(b.size) * b.dst || a.size * b.size > 65536) continue;
      if (a.component != b.component) continue;
      b.size *= a.size;
      b.term = "[" + a.term + ", " + b.term + "]";
      cmd.entries.erase(cmd.entries.begin() + std::ptrdiff_t(i));
    }
  for (const DmaEntry &e : cmd.entries)
    if (e.size > 65536)
      plan.diagnostics.push_back("DMA sequencer: entry too large: " + q(e.term) + " iterates " + dec(e.size) +
                                 " times, the limit is 65,536 per entry");
  return true;  // entries over 65,536 are reported above; the alignment is checked too
}

void checkAlignment(const DmaRequest &req, DmaPlan &plan, const Draft &d) {
  const unsigned bits = plan.elemBits;
  const DmaCommand &cmd = plan.shared;
  const DmaEntry &inner = d.inner;
  // Alignment ("DMA Engine" > Alignment Constraints): DM writes 8-byte aligned addresses and
  // packet sizes; HBM-to-DM transfers 8-byte aligned on both sides.
  auto checkSide = [&](bool write, DmaMedia media, uint64_t addr) {
    bool hbmToDm = plan.src == DmaMedia::Hbm && plan.dst == DmaMedia::Dm;
    if (!(write && media == DmaMedia::Dm) && !hbmToDm) return;
    std::string rule = hbmToDm ? "HBM-to-DM transfers need 8-byte aligned read and write addresses and packet sizes"
                               : "DM writes need 8-byte aligned addresses and packet sizes";
    std::string side = write ? "write" : "read";
    if (addr % 8)
      plan.diagnostics.push_back("DMA " + side + " sequencer: the " + side + " base address " + dec(addr) +
                                 " is not a multiple of 8 bytes (\"DMA Engine\" > Alignment Constraints: " + rule + ")");
    for (size_t k = 0; k + 1 < cmd.entries.size(); ++k) {
      const DmaEntry &e = cmd.entries[k];
      int64_t s = write ? e.dst : e.src;
      uint64_t bytes = uint64_t(std::abs(s)) * bits / 8;
      if (e.size > 1 && bytes % 8)
        plan.diagnostics.push_back("DMA " + side + " sequencer: entry " + q(e.term) + " steps " + dec(bytes) +
                                   (bytes == 1 ? " byte" : " bytes") + ", not a multiple of 8 (\"DMA Engine\" > Alignment Constraints: " + rule + ")");
    }
  };
  if (cmd.stride0 % 8 && plan.dst == DmaMedia::Dm)
    plan.diagnostics.push_back("DMA sequencer: the packet " + q(inner.term) + " is " + dec(cmd.stride0) +
                               (cmd.stride0 == 1 ? " byte" : " bytes") + " (stride0), not a multiple of 8 (\"DMA Engine\" > Alignment Constraints: " +
                               (plan.src == DmaMedia::Hbm ? "HBM-to-DM transfers need 8-byte aligned packet sizes"
                                                          : "DM writes need 8-byte aligned packet sizes") + ")");
  checkSide(false, plan.src, req.srcAddr);
  checkSide(true, plan.dst, req.dstAddr);
}

}  // namespace tcp::dmaplan
