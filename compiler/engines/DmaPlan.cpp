// DmaPlan.cpp — derives a transfer's read and write sequencers, pairs them into one DmaSequencer, checks alignment, segments engines.
#include "DmaPlan.h"

#include "DmaChips.h"
#include "DmaCoverage.h"
#include "MappingNormalForm.h"

#include <algorithm>
#include <map>

namespace tcp {

namespace {

constexpr uint64_t kMaxStride0 = 4096;  // "DMA Engine": the AXI packet limit
constexpr uint64_t kSlicesPerEngine = 64;
constexpr size_t kMaxEntries = 8;  // "Sequencer" constraints, shared by the DMA sequencers

std::string dec(uint64_t v) { return std::to_string(v); }
std::string q(const std::string &s) { return "`" + s + "`"; }

std::string compact(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

void flat(const MappingRef &m, std::vector<MappingRef> &out) {
  if (m->kind() == Mapping::Pair) {
    flat(m->children()[0], out);
    flat(m->children()[1], out);
  } else if (m->size() > 1) {
    out.push_back(m);
  }
}

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

// Offset (elements) of an engine's first position in a side's buffer.
// `chips`: an HBM side across chips, addressed in the global HBM space (DmaChips.h).
std::optional<int64_t> engineBase(const TensorType &t, const MappingRef &engine, unsigned bits, uint64_t e,
                                  bool chips = false) {
  auto conv = [&](int64_t s) { return chips ? toChipSpace(t, bits, s) : toSliceSpace(t, bits, s); };
  MappingRef buf = chips                           ? chipBuffer(t)
                   : t.tier != Tier::Dm              ? t.element
                   : t.cluster->axes().empty() ? Mapping::pair(t.slice, t.element)
                                               : Mapping::pair(t.cluster, Mapping::pair(t.slice, t.element));
  std::vector<MappingRef> comps;
  flat(engine, comps);
  SeqOptions o;
  o.use = SeqUse::Fetch;
  // Strides are in elements whatever their width: derive as bytes (an i4 packet of one element is
  // not a whole byte, which only the sequencer limits care about).
  SeqResult r = derive(buf, engine, Mapping::identity(), 8, o);
  if (!r.diagnostics.empty()) return std::nullopt;
  auto groups = byComponent(r.initial, comps);
  if (!groups) return std::nullopt;
  int64_t base = r.config ? conv(r.config->baseOffset) : 0;
  std::vector<uint64_t> digit(comps.size());
  for (size_t c = comps.size(); c-- > 0;) {
    digit[c] = e % comps[c]->size();
    e /= comps[c]->size();
  }
  for (size_t c = 0; c < comps.size(); ++c) {
    uint64_t d = digit[c];
    for (size_t k = (*groups)[c].size(); k-- > 0;) {
      const SeqEntry &s = (*groups)[c][k];
      base += int64_t(d % s.size) * conv(s.stride);
      d /= s.size;
    }
  }
  return base;
}

// A box of the Time components: [lo, hi) per component.
using Box = std::vector<std::pair<uint64_t, uint64_t>>;

// Splits a box into boxes that hold only valid positions: the fewest boxes, ties to the split of
// the innermost component ("Example 6" segments DMN #3 on `A' / 2 % 2`).
std::vector<Box> cover(const Box &box, const std::vector<uint64_t> &sizes, const std::vector<char> &valid, int depth = 0) {
  uint64_t total = 0, good = 0;
  std::vector<uint64_t> idx(box.size());
  for (size_t k = 0; k < box.size(); ++k) idx[k] = box[k].first;
  while (true) {
    uint64_t flatIdx = 0;
    for (size_t k = 0; k < box.size(); ++k) flatIdx = flatIdx * sizes[k] + idx[k];
    ++total;
    good += valid[flatIdx] ? 1 : 0;
    size_t k = box.size();
    while (k > 0 && ++idx[k - 1] == box[k - 1].second) idx[k - 1] = box[k - 1].first, --k;
    if (k == 0) break;
  }
  if (good == total) return {box};
  if (good == 0) return {};
  if (depth > 6) return {};  // give up: the caller reports it
  std::vector<Box> best;
  bool found = false;
  for (size_t d = box.size(); d-- > 0;) {
    if (box[d].second - box[d].first < 2) continue;
    std::vector<Box> parts;
    for (uint64_t v = box[d].first; v < box[d].second; ++v) {
      Box sub = box;
      sub[d] = {v, v + 1};
      for (Box &b : cover(sub, sizes, valid, depth + 1)) {
        // Merge with the previous part when it continues it along d.
        if (!parts.empty()) {
          Box &p = parts.back();
          bool same = p[d].second == b[d].first;
          for (size_t k = 0; k < b.size() && same; ++k)
            if (k != d && p[k] != b[k]) same = false;
          if (same) {
            p[d].second = b[d].second;
            continue;
          }
        }
        parts.push_back(b);
      }
    }
    if (!found || parts.size() < best.size()) best = parts, found = true;
  }
  return best;
}

}  // namespace

const char *dmaMediaName(DmaMedia m) { return m == DmaMedia::Hbm ? "HBM" : "DM"; }

bool DmaPlan::sameMemory() const { return src == dst; }

uint64_t DmaCommand::steps(unsigned elemBits) const {
  if (entries.empty()) return 0;
  uint64_t chunk = std::max<uint64_t>(stride0 * 8 / elemBits, 1);
  uint64_t n = std::max<uint64_t>(entries.back().size / chunk, 1);
  for (size_t k = 0; k + 1 < entries.size(); ++k) n *= entries[k].size;
  return n;
}

std::pair<MappingRef, MappingRef> defaultDmaStream(const TensorType &dm, int mode) {
  unsigned bits = num::storageBits(dm.dtype);
  uint64_t n = dm.element->size(), k = n;
  while (k > 1 && (k * bits > kMaxStride0 * 8 || n % k)) k /= 2;
  while (k > 1 && n % k) --k;
  std::string err;
  MappingRef outer = Mapping::identity(), inner = dm.element;
  if (k != n) {
    MappingRef o = Mapping::stride(dm.element, k, &err), i = Mapping::modulo(dm.element, k, &err);
    if (o && i) outer = normalize(o), inner = normalize(i);
  }
  MappingRef slice = dm.slice, inSlice = nullptr, dmn = nullptr;
  if (slice && slice->size() % kSlicesPerEngine == 0) {
    MappingRef within = Mapping::modulo(slice, kSlicesPerEngine, &err);
    if (within) inSlice = Mapping::modulo(within, 32, &err), dmn = within ? Mapping::stride(within, 32, &err) : nullptr;
  }
  MappingRef time = outer;
  if (mode == 2 && slice) {
    time = Mapping::pair(normalize(slice), outer);
  } else if (mode == 1 && inSlice && dmn) {
    MappingRef within = normalize(Mapping::modulo(slice, kSlicesPerEngine, &err));
    if (!within->axes().empty()) time = Mapping::pair(time, within);
  } else if (inSlice && dmn) {
    inSlice = normalize(inSlice);
    dmn = normalize(dmn);
    if (!inSlice->axes().empty()) time = Mapping::pair(time, inSlice);
    if (!dmn->axes().empty()) time = Mapping::pair(time, dmn);
  }
  return {normalize(time), inner};
}

DmaPlan planDma(const DmaRequest &req) {
  DmaPlan plan;
  const TensorType &in = req.in, &out = req.out;
  plan.src = in.tier == Tier::Dm ? DmaMedia::Dm : DmaMedia::Hbm;
  plan.dst = out.tier == Tier::Dm ? DmaMedia::Dm : DmaMedia::Hbm;
  unsigned bits = num::storageBits(in.dtype);
  plan.elemBits = bits;
  plan.chips = 1;
  auto fail = [&](const std::string &m) {
    plan.diagnostics.push_back(m);
    return plan;
  };
  if (!req.time || !req.packet) return fail("the DMA stream could not be built");
  MappingRef rbuf = sideBuffer(in, req.time, req.packet), wbuf = sideBuffer(out, req.time, req.packet);
  // Across chips ("cross-chip transfers"): each source chip writes into the global HBM space.
  plan.crossChip = dmaCrossesChips(in, out);
  if (plan.crossChip) {
    if (out.tier != Tier::Hbm)
      return fail("DMA across chips: the source Chip mapping `" + in.chip->body() + "` and the destination's `" +
                  out.chip->body() + "` differ; only transfers into HBM may cross chips here (a DM destination "
                  "on other chips is not modelled)");
    auto offsets = chipWriteOffsets(in, out, bits);
    if (!offsets)
      return fail("DMA across chips: the source Chip mapping `" + in.chip->body() +
                  "` does not place its chips at regular offsets of the destination `" +
                  Mapping::pair(out.chip, out.element)->body() + "`");
    plan.chipWrite = *offsets;
    wbuf = chipBuffer(out);
  }
  SeqOptions o;
  o.use = SeqUse::Fetch;  // DMA packets may exceed 32 bytes; padding is segmented away below
  o.maxEntries = 64;      // the pairing below merges and checks the limit
  SeqResult r = derive(rbuf, req.time, req.packet, bits, o);
  SeqResult w = derive(wbuf, req.time, req.packet, bits, o);
  for (const std::string &d : r.diagnostics) plan.diagnostics.push_back("DMA read sequencer: " + d);
  for (const std::string &d : w.diagnostics) plan.diagnostics.push_back("DMA write sequencer: " + d);
  if (!plan.ok()) return plan;
  for (SeqEntry &x : r.initial) x.stride = toSliceSpace(in, bits, x.stride);
  for (SeqEntry &x : w.initial) x.stride = plan.crossChip ? toChipSpace(out, bits, x.stride) : toSliceSpace(out, bits, x.stride);
  r.config->baseOffset = toSliceSpace(in, bits, r.config->baseOffset);
  w.config->baseOffset = plan.crossChip ? toChipSpace(out, bits, w.config->baseOffset) : toSliceSpace(out, bits, w.config->baseOffset);
  if (plan.crossChip)
    for (SeqEntry &x : w.config->entries) x.stride = toChipSpace(out, bits, x.stride);
  plan.read = *r.config;
  plan.write = *w.config;

  // Shared limits with paired strides, component by component (Time then Packet).
  std::vector<MappingRef> tcomps, pcomps;
  flat(req.time, tcomps);
  flat(req.packet, pcomps);
  std::vector<MappingRef> comps = tcomps;
  comps.insert(comps.end(), pcomps.begin(), pcomps.end());
  auto rg = byComponent(r.initial, comps), wg = byComponent(w.initial, comps);
  if (!rg || !wg) return fail("DMA sequencer: the read and write sequencers do not iterate the stream's terms alike");
  DmaCommand &cmd = plan.shared;
  for (size_t c = 0; c < comps.size(); ++c) {
    int comp = c < tcomps.size() ? int(c) : -1;
    auto p = pairUp((*rg)[c], (*wg)[c], comp);
    if (!p)
      return fail("DMA sequencer: the read and write sequencers split the stream term " + q(comps[c]->body()) +
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
  // Packet padding written to HBM (a padded axis `B'` moved into `B`): a single packet run keeps
  // only its valid positions [lo, hi), the bases step over the left pad, when the
  // destination does not hold the pads (no write outside the tensor).
  int64_t trimSrc = 0, trimDst = 0;
  bool outside = plan.write.baseOffset < 0 || out.element->size() < cmd.entries.back().size;
  if (plan.dst == DmaMedia::Hbm && outside && cmd.entries.back().component < 0 && cmd.entries.back().src == 1 &&
      cmd.entries.back().dst == 1 &&
      cmd.entries.back().size == req.packet->size() && req.packet->size() <= (uint64_t(1) << 16)) {
    DmaEntry &run = cmd.entries.back();
    uint64_t lo = run.size, hi = 0;
    for (uint64_t p = 0; p < run.size; ++p)
      if (req.packet->map(p)) lo = std::min(lo, p), hi = p + 1;
    bool inside = lo < hi;
    for (uint64_t p = lo; p < hi && inside; ++p) inside = req.packet->map(p).has_value();
    if (inside && (lo > 0 || hi < run.size)) {
      trimSrc = int64_t(lo) * int64_t(bits) / 8;
      trimDst = trimSrc;
      run.size = hi - lo;
      run.term += "[" + dec(lo) + ".." + dec(hi) + "]";
    }
  }
  // stride0: the innermost run contiguous on both sides, at most 4096 bytes (a divisor of the run).
  DmaEntry inner = cmd.entries.back();
  if (inner.component < 0 && inner.src == 1 && inner.dst == 1 && inner.size > 1) {
    uint64_t k = inner.size;
    while (k * bits > kMaxStride0 * 8 || inner.size % k != 0 || (k * bits) % 8 != 0) --k;
    if (k == 0 || (k * bits) % 8 != 0) k = std::max<uint64_t>(1, 8 / bits);
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
    return fail("DMA sequencer: a packet of " + dec(cmd.entries.back().size) + " " + num::dtypeName(in.dtype) +
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
  if (!plan.ok()) return plan;

  // Engines: the DM side's (cluster, slice / 64) positions; an HBM-to-HBM transfer runs on one.
  const TensorType *dm = in.tier == Tier::Dm ? &in : out.tier == Tier::Dm ? &out : nullptr;
  MappingRef engine = Mapping::identity();
  std::string err;
  if (dm) {
    MappingRef pairs = Mapping::stride(dm->slice, req.pairEngines ? kSlicesPerEngine : dm->slice->size(), &err);
    if (!pairs) return fail("DMA sequencer: the slice mapping " + q(dm->slice->body()) + " has no 64-slice DMN pairs");
    engine = normalize(Mapping::pair(dm->cluster, normalize(pairs)));
  }
  // The stream must visit every element of the source ("a single logical tensor move"): distinct
  // indices of the stream (per chip) against the source's (checked up to 2^20 positions).
  {
    MappingRef all = Mapping::pair(engine, Mapping::pair(req.time, req.packet));
    MappingRef source = in.tier == Tier::Dm ? Mapping::pair(in.cluster, Mapping::pair(in.slice, in.element)) : in.element;
    if (all->size() <= (uint64_t(1) << 20) && source->size() <= (uint64_t(1) << 20)) {
      Coverage c = streamCoverage(all, source);
      uint64_t missing = c.missing;
      if (missing)
        return fail("DMA sequencer: the stream misses " + dec(missing) + " of the tensor's " + dec(c.held) +
                    " elements: Time " + q(req.time->body()) + " and Packet " + q(req.packet->body()) +
                    (dm ? " with the DMN pairs " + q(engine->body()) : std::string()) + " must cover every axis");
    }
  }
  uint64_t tsize = req.time->size();
  std::vector<uint64_t> sizes;
  for (const MappingRef &c : tcomps) sizes.push_back(c->size());
  MappingRef whole = Mapping::pair(engine, req.time);
  bool enumerate = tsize * std::max<uint64_t>(engine->size(), 1) <= (uint64_t(1) << 22);
  for (uint64_t e = 0; e < std::max<uint64_t>(engine->size(), 1); ++e) {
    if (dm && !engine->map(e)) continue;
    DmaEngineWork work;
    if (dm) {
      uint64_t perCluster = std::max<uint64_t>(engine->size() / 2, 1);  // the Cluster mapping spans 2
      work.cluster = unsigned(e / perCluster);
      work.pair = unsigned(e % perCluster);
    }
    // The engine's own DM side starts at its pair's first slice; the other side at the offset of
    // the engine's coordinates in its buffer.
    auto baseOf = [&](const TensorType &t) -> std::optional<int64_t> {
      if (&t == dm) return int64_t(dmspace::address(work.cluster, work.pair * unsigned(kSlicesPerEngine), 0));
      std::optional<int64_t> b = engineBase(t, engine, bits, e, plan.crossChip && &t == &out);
      return b ? std::optional<int64_t>(*b * int64_t(bits) / 8) : std::nullopt;
    };
    std::optional<int64_t> rOff = baseOf(in), wOff = baseOf(out);
    if (!rOff || !wOff)
      return fail("DMA sequencer: the " + std::string(!rOff ? "source" : "destination") +
                  " layout does not place the DMN pairs' slices (" + q(engine->body()) + ") at regular offsets");
    int64_t rb = int64_t(req.srcAddr) + *rOff;
    int64_t wb = int64_t(req.dstAddr) + *wOff;
    rb += plan.read.baseOffset * int64_t(bits) / 8 + trimSrc;
    wb += plan.write.baseOffset * int64_t(bits) / 8 + trimDst;
    // Segmentation: positions of the stream that are padding are not moved.
    std::vector<char> valid(enumerate ? tsize : 0, 1);
    bool any = false, all = true;
    if (enumerate) {
      for (uint64_t t = 0; t < tsize; ++t) {
        valid[t] = whole->map(e * tsize + t).has_value();
        any |= valid[t] != 0;
        all &= valid[t] != 0;
      }
    } else {
      any = true;
    }
    if (!any) continue;
    Box box;
    for (uint64_t s : sizes) box.push_back({0, s});
    std::vector<Box> boxes = all ? std::vector<Box>{box} : cover(box, sizes, valid);
    if (boxes.empty()) return fail("DMA sequencer: the padding of the stream cannot be segmented into DMA commands");
    for (const Box &b : boxes) {
      DmaCommand c = cmd;
      c.srcBase = rb;
      c.dstBase = wb;
      c.entries.clear();
      std::vector<std::vector<DmaEntry>> perComp(sizes.size());
      std::vector<DmaEntry> packetEntries;
      for (const DmaEntry &x : cmd.entries) (x.component >= 0 ? perComp[size_t(x.component)] : packetEntries).push_back(x);
      for (size_t k = 0; k < sizes.size(); ++k) {
        uint64_t lo = b[k].first, hi = b[k].second;
        std::vector<DmaEntry> es = perComp[k];
        if (hi - lo == sizes[k]) {
          c.entries.insert(c.entries.end(), es.begin(), es.end());
          continue;
        }
        // A sub-range: a single position (any entries), or a range of a single entry.
        if (hi - lo != 1 && es.size() != 1)
          return fail("DMA sequencer: segmentation of the stream term " + q(tcomps[k]->body()) + " is not supported");
        uint64_t d = lo;
        for (size_t j = es.size(); j-- > 0;) {
          c.srcBase += int64_t(d % es[j].size) * es[j].src * int64_t(bits) / 8;
          c.dstBase += int64_t(d % es[j].size) * es[j].dst * int64_t(bits) / 8;
          d /= es[j].size;
        }
        if (hi - lo > 1) {
          es[0].size = hi - lo;
          c.entries.push_back(es[0]);
        } else {
          for (DmaEntry x : es) {
            x.size = 1;
            c.entries.push_back(x);
          }
        }
      }
      c.entries.insert(c.entries.end(), packetEntries.begin(), packetEntries.end());
      // Entries beyond the sequencer's 8: one command per position of the outermost ones.
      size_t peel = c.entries.size() > kMaxEntries ? c.entries.size() - kMaxEntries : 0;
      uint64_t count = 1;
      for (size_t k = 0; k < peel; ++k) count *= c.entries[k].size;
      if (count > 4096) return fail("DMA sequencer: too many entries: the transfer needs " + dec(c.entries.size()) +
                                    " entries, the sequencer has 8, and peeling the outer ones needs " + dec(count) +
                                    " commands per engine");
      for (uint64_t n = 0; n < count; ++n) {
        DmaCommand part = c;
        part.entries.erase(part.entries.begin(), part.entries.begin() + std::ptrdiff_t(peel));
        uint64_t rest = n;
        for (size_t k = peel; k-- > 0;) {
          int64_t d = int64_t(rest % c.entries[k].size);
          rest /= c.entries[k].size;
          part.srcBase += d * c.entries[k].src * int64_t(bits) / 8;
          part.dstBase += d * c.entries[k].dst * int64_t(bits) / 8;
        }
        work.commands.push_back(std::move(part));
      }
    }
    plan.engines.push_back(std::move(work));
  }
  if (!plan.engines.empty()) {
    plan.shared.srcBase = plan.engines[0].commands[0].srcBase;
    plan.shared.dstBase = plan.engines[0].commands[0].dstBase;
  }
  return plan;
}

std::string DmaCommand::str(DmaMedia srcMedia, DmaMedia dstMedia, unsigned elemBits) const {
  int64_t sliceElems = int64_t(dmspace::kSliceStride * 8 / elemBits);
  auto stride = [&](DmaMedia m, int64_t s) -> std::string {
    if (m == DmaMedia::Dm && s != 0 && s % sliceElems == 0) {
      int64_t n = s / sliceElems;
      if (n % 32 == 0) return (n == 32 ? "" : std::to_string(n / 32) + " * ") + "DMN_stride";
      return (n == 1 ? "" : std::to_string(n) + " * ") + "slice_stride";
    }
    return hbmStrideText(m, s, elemBits, " * ");
  };
  std::string s = "[";
  for (size_t k = 0; k < entries.size(); ++k) {
    const DmaEntry &e = entries[k];
    s += (k ? ", " : "") + e.term + "=" + dec(e.size) + ":(" + stride(srcMedia, e.src) + ", " + stride(dstMedia, e.dst) + ")";
  }
  auto base = [](DmaMedia m, int64_t b) -> std::string {
    if (m == DmaMedia::Hbm) return hbmBaseText(b);
    if (b < 0) return std::to_string(b);
    uint64_t u = uint64_t(b);
    uint64_t slice = u / dmspace::kSliceStride, off = u % dmspace::kSliceStride;
    return "DM(" + dec(slice / 256) + ", " + dec(slice % 256 / 32) + ", " + dec(slice % 32) + ")@" + dec(off);
  };
  s += "], base=(" + base(srcMedia, srcBase) + ", " + base(dstMedia, dstBase) + "), stride0 = " + dec(stride0);
  return s;
}

std::string describeEngines(const DmaPlan &plan) {
  std::string s;
  for (const DmaEngineWork &w : plan.engines) {
    s += "engine (cluster " + dec(w.cluster) + ", dmn pair " + dec(w.pair) + "): " + dec(w.commands.size()) +
         (w.commands.size() == 1 ? " command\n" : " commands\n");
    for (size_t k = 0; k < w.commands.size(); ++k)
      s += "  #" + dec(k) + " " + w.commands[k].str(plan.src, plan.dst, plan.elemBits) + "\n";
  }
  return s;
}

}  // namespace tcp
