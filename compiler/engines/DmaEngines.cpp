// DmaEngines.cpp — the DMA Engines of a transfer: their bases, the stream's coverage of the source, segmentation of padding, peeling into commands.
#include "DmaPlanDetail.h"

#include "DmaChips.h"
#include "DmaBroadcastCoverage.h"
#include "DmaCoverage.h"
#include "MappingEval.h"
#include "MappingNormalForm.h"

#include <algorithm>

namespace tcp::dmaplan {

namespace {

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
    if (good && good != total) break;  // mixed: only whether all or none are valid matters
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


// The DMN share of a stream whose Time also walks the engines' (cluster, slice / 64) axes: each
// engine runs only the Time positions whose digits on those axes are its own, as the per-DMN
// stream shapes fix them (`(B / 128) @ j % 1`, "DMA Engine" > Heterogeneous Aggregate Operation).
struct EngineShare {
  // Coordinates [lo, hi) of `axis` (digit (v / lo) % (hi / lo)) that an engine dimension and the
  // Time both walk.
  struct Field {
    std::string axis;
    uint64_t lo, hi;
    size_t dim;  // the engine's normal-form dimension
  };
  NormalForm eng, time;
  std::vector<Field> fields;

  static std::vector<uint64_t> digits(const NormalForm &nf, uint64_t i) {
    std::vector<uint64_t> d(nf.dims.size());
    for (size_t k = nf.dims.size(); k-- > 0;) d[k] = i % nf.dims[k].count, i /= nf.dims[k].count;
    return d;
  }
  uint64_t engineDigit(const std::vector<uint64_t> &de, const Field &f) const {
    return de[f.dim] * eng.dims[f.dim].stride / f.lo % (f.hi / f.lo);
  }
  // e with the shared digits zeroed: the Time's position supplies them.
  uint64_t rest(uint64_t e) const {
    std::vector<uint64_t> de = digits(eng, e), d = de;
    for (const Field &f : fields) d[f.dim] -= engineDigit(de, f) * (f.lo / eng.dims[f.dim].stride);
    uint64_t r = 0;
    for (size_t k = 0; k < d.size(); ++k) r = r * eng.dims[k].count + d[k];
    return r;
  }
  // Time position t is engine e's: its coordinates on every shared field are the engine's.
  bool owns(uint64_t e, uint64_t t) const {
    std::vector<uint64_t> de = digits(eng, e), dt = digits(time, t);
    for (const Field &f : fields) {
      uint64_t v = time.base(f.axis);
      for (size_t k = 0; k < time.dims.size(); ++k)
        if (time.dims[k].kind == NfDim::Term && time.dims[k].axis.name == f.axis) v += dt[k] * time.dims[k].stride;
      if (v / f.lo % (f.hi / f.lo) != engineDigit(de, f)) return false;
    }
    return true;
  }
};

// The coordinates the engines and the Time share; an error (not supported yet) when they overlap
// unaligned, or the Time walks an engine axis inside a dimension that does not decompose.
std::optional<EngineShare> engineShare(const MappingRef &engine, const MappingRef &time, std::string &err) {
  EngineShare s;
  s.eng = normalForm(engine);
  s.time = normalForm(time);
  bool opaque = false;
  for (const NfDim &t : s.time.dims) opaque |= t.kind == NfDim::Opaque;
  auto refuse = [&](const std::string &axis) {
    err = "DMA sequencer: the Time " + q(time->body()) + " walks the DMN pairs' axis " + q(axis) + " (" +
          q(engine->body()) + ") in a way that does not split into per-engine ranges: not supported yet";
    return std::nullopt;
  };
  for (size_t k = 0; k < s.eng.dims.size(); ++k) {
    const NfDim &e = s.eng.dims[k];
    if (e.kind == NfDim::Opaque && !s.time.dims.empty()) {
      for (const AxisInfo &a : e.sub->axes())
        for (const AxisInfo &b : time->axes())
          if (a.name == b.name) return refuse(a.name);
    }
    if (e.kind != NfDim::Term) continue;
    if (opaque)
      for (const AxisInfo &a : time->axes())
        if (a.name == e.axis.name) return refuse(a.name);
    // The coordinates the dimension's elements reach: digits from `limit` on are padding (`1 # 2, B`).
    uint64_t lo = e.stride, hi = e.stride * e.limit;
    for (const NfDim &t : s.time.dims) {
      if (t.kind != NfDim::Term || t.axis.name != e.axis.name) continue;
      uint64_t a = std::max(lo, t.stride), b = std::min(hi, t.stride * t.limit);
      if (a >= b) continue;
      if (a % lo || a % t.stride || b % a || hi % b) return refuse(e.axis.name);
      s.fields.push_back({e.axis.name, a, b, k});
    }
  }
  return s;
}

}  // namespace

bool planEngines(const DmaRequest &req, DmaPlan &plan, const Draft &d) {
  const TensorType &in = req.in, &out = req.out;
  const unsigned bits = plan.elemBits;
  const DmaCommand &cmd = plan.shared;
  const std::vector<MappingRef> &tcomps = d.timeComps;
  const int64_t trimSrc = d.trimSrc, trimDst = d.trimDst;
  // Engines: the DM side's (cluster, slice / 64) positions; an HBM-to-HBM transfer runs on one.
  const TensorType *dm = in.tier == Tier::Dm ? &in : out.tier == Tier::Dm ? &out : nullptr;
  MappingRef engine = Mapping::identity();
  std::string err;
  if (dm) {
    MappingRef pairs = Mapping::stride(dm->slice, req.pairEngines ? kSlicesPerEngine : dm->slice->size(), &err);
    if (!pairs) return fail(plan, "DMA sequencer: the slice mapping " + q(dm->slice->body()) + " has no 64-slice DMN pairs");
    engine = normalize(Mapping::pair(dm->cluster, normalize(pairs)));
  }
  // The stream must visit every element of the source ("a single logical tensor move"): distinct
  // indices of the stream (per chip) against the source's (checked up to 2^20 positions).
  {
    MappingRef all = Mapping::pair(engine, Mapping::pair(req.time, req.packet));
    MappingRef source = in.tier == Tier::Dm ? Mapping::pair(in.cluster, Mapping::pair(in.slice, in.element)) : in.element;
    if (all->size() <= (uint64_t(1) << 20) && source->size() <= (uint64_t(1) << 20)) {
      StreamCoverage c = streamCoverage(all, source);
      uint64_t missing = c.missing;
      if (missing)
        return fail(plan, "DMA sequencer: the stream misses " + dec(missing) + " of the tensor's " + dec(c.held) +
                    " elements: Time " + q(req.time->body()) + " and Packet " + q(req.packet->body()) +
                    (dm ? " with the DMN pairs " + q(engine->body()) : std::string()) + " must cover every axis");
    }
    // ... and write every copy of a broadcast (an axis the destination has and the source lacks).
    if (auto problem = broadcastCoverageProblem(in, out, engine, req.time, req.packet, dm != nullptr))
      return fail(plan, *problem);
  }
  uint64_t tsize = req.time->size();
  std::vector<uint64_t> sizes;
  for (const MappingRef &c : tcomps) sizes.push_back(c->size());
  MappingRef whole = Mapping::pair(engine, req.time);
  bool enumerate = tsize * std::max<uint64_t>(engine->size(), 1) <= (uint64_t(1) << 22);
  std::optional<EngineShare> share;
  if (dm) {
    share = engineShare(engine, req.time, err);
    if (!share) return fail(plan, err);
    // A Packet walking the engines' axes would move other engines' data in each of its steps.
    std::optional<EngineShare> inPacket = engineShare(engine, req.packet, err);
    if (!inPacket || !inPacket->fields.empty())
      return fail(plan, "DMA sequencer: the Packet " + q(req.packet->body()) + " walks the DMN pairs' axes (" +
                  q(engine->body()) + "): a packet split among DMA Engines is not supported yet");
    if (share->fields.empty()) share.reset();
    else if (!enumerate)
      return fail(plan, "DMA sequencer: the Time " + q(req.time->body()) + " walks the DMN pairs' axes and the stream (" +
                  dec(tsize) + " steps) is too long to split among the DMA Engines: not supported yet");
  }
  std::optional<MappingEval> wholeEval = enumerate ? MappingEval::of(whole) : std::nullopt;
  const std::vector<int64_t> noWeight(wholeEval ? wholeEval->axes().size() : 0, 0);
  std::vector<int64_t> held(wholeEval ? tsize : 0);  // -1: the position holds no element
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
    // A Time that walks the engines' axes: the bases hold the engine's other coordinates, the start
    // of its segment of the Time the shared ones.
    const uint64_t eRest = share ? share->rest(e) : e;
    auto baseOf = [&](const TensorType &t) -> std::optional<int64_t> {
      if (&t == dm) {
        uint64_t perCluster = std::max<uint64_t>(engine->size() / 2, 1);
        unsigned cluster = unsigned(eRest / perCluster), pair = unsigned(eRest % perCluster);
        return int64_t(dmspace::address(cluster, pair * unsigned(kSlicesPerEngine), 0));
      }
      std::optional<int64_t> b = engineBase(t, engine, bits, eRest, plan.chipStrided && &t == &out);
      return b ? std::optional<int64_t>(*b * int64_t(bits) / 8) : std::nullopt;
    };
    std::optional<int64_t> rOff = baseOf(in), wOff = baseOf(out);
    if (!rOff || !wOff)
      return fail(plan, "DMA sequencer: the " + std::string(!rOff ? "source" : "destination") +
                  " layout does not place the DMN pairs' slices (" + q(engine->body()) + ") at regular offsets");
    int64_t rb = int64_t(req.srcAddr) + *rOff;
    int64_t wb = int64_t(req.dstAddr) + *wOff;
    rb += plan.read.baseOffset * int64_t(bits) / 8 + trimSrc;
    wb += plan.write.baseOffset * int64_t(bits) / 8 + trimDst;
    // Segmentation: positions of the stream that are padding, or another engine's, are not moved.
    std::vector<char> valid(enumerate ? tsize : 0, 1);
    bool any = false, all = true;
    if (enumerate) {
      // Which of the engine's Time positions hold elements: by integer digits when `whole` has them.
      const uint64_t first = (share ? eRest : e) * tsize;
      if (wholeEval) wholeEval->linearRange(noWeight, first, first + tsize, held.data());
      for (uint64_t t = 0; t < tsize; ++t) {
        const bool element = wholeEval ? held[t] >= 0 : whole->map(first + t).has_value();
        valid[t] = element && (!share || share->owns(e, t));
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
    if (boxes.empty()) return fail(plan, "DMA sequencer: the padding of the stream cannot be segmented into DMA commands");
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
          return fail(plan, "DMA sequencer: segmentation of the stream term " + q(tcomps[k]->body()) + " is not supported");
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
      if (count > 4096) return fail(plan, "DMA sequencer: too many entries: the transfer needs " + dec(c.entries.size()) +
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
  return true;
}

}  // namespace tcp::dmaplan
