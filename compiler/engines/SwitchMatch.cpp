// SwitchMatch.cpp — matches a SwitchConfig against the input and output Slice/Time mappings ("Switch Engine":
// Broadcast01, Broadcast1, Transpose, InterTranspose, custom bitmaps and their constraints).
#include "SwitchTopology.h"

#include "MappingFactor.h"
#include "MappingNormalForm.h"

#include <algorithm>
#include <map>
#include <set>

namespace tcp {

namespace {

constexpr uint64_t kSlices = 256;

std::string num(uint64_t v) { return std::to_string(v); }
std::string show(const MappingRef &m) { return m ? normalize(m)->str() : std::string("?"); }

// The parts of m for the radices (major → minor): part i = m / (radices minor to i) % radix_i.
// The radices multiply to m's size (checked by the caller).
std::vector<MappingRef> split(const MappingRef &m, const std::vector<uint64_t> &radices) {
  std::vector<MappingRef> parts;
  std::string err;
  for (size_t i = 0; i < radices.size(); ++i) {
    uint64_t minor = 1;
    for (size_t j = i + 1; j < radices.size(); ++j) minor *= radices[j];
    MappingRef x = minor > 1 ? Mapping::stride(m, minor, &err) : m;
    if (x && i > 0 && x->size() != radices[i]) x = Mapping::modulo(x, radices[i], &err);
    parts.push_back(x ? normalize(x) : nullptr);
  }
  return parts;
}

MappingRef join(const std::vector<MappingRef> &parts) {
  MappingRef m;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!*it) return nullptr;
    m = m ? Mapping::pair(*it, m) : *it;
  }
  return m ? normalize(m) : Mapping::identity();
}

bool same(const MappingRef &a, const MappingRef &b) { return a && b && a->size() == b->size() && equivalent(a, b); }

std::set<std::string> axisNames(const std::vector<MappingRef> &ms) {
  std::set<std::string> out;
  for (const MappingRef &m : ms)
    if (m)
      for (const AxisInfo &a : m->axes()) out.insert(a.name);
  return out;
}

class Matcher {
 public:
  Matcher(const SwitchConfigArgs &cfg, MappingRef inSlice, MappingRef inTime, MappingRef outSlice, MappingRef outTime)
      : cfg_(cfg), inS_(std::move(inSlice)), inT_(std::move(inTime)), outS_(std::move(outSlice)), outT_(std::move(outTime)) {}

  SwitchMatch run();

 private:
  void error(const std::string &m) { errors_.push_back(title_ + ": " + m); }
  bool readParams(const std::vector<const char *> &names);
  uint64_t p(const char *n) const { return given_.count(n) ? given_.at(n) : 0; }
  // Compares the output mapping `what` ("Slice"/"Time") part by part with the pattern's parts.
  bool expect(const char *what, const MappingRef &out, const std::vector<std::pair<std::string, MappingRef>> &pattern);
  // The output Slice's tile of `size` positions (broadcast) must hold no coordinate of the input.
  bool expectTile(const MappingRef &tile, const std::string &where);
  bool regular(SwitchPlan &plan);
  bool custom(SwitchPlan &plan);

  const SwitchConfigArgs &cfg_;
  MappingRef inS_, inT_, outS_, outT_;
  std::string title_;
  std::map<std::string, uint64_t> given_;
  std::vector<std::string> errors_;
};

bool Matcher::readParams(const std::vector<const char *> &names) {
  bool ok = true;
  std::string list;
  for (const char *n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  for (const auto &[k, v] : cfg_.fields) {
    if (std::find_if(names.begin(), names.end(), [&](const char *n) { return k == n; }) == names.end()) {
      error("no field `" + k + "` (its fields: " + (list.empty() ? "none" : list) + ")");
      ok = false;
    } else if (v == 0) {
      error("`" + k + "` must be at least 1");
      ok = false;
    } else {
      given_[k] = v;
    }
  }
  for (const char *n : names)
    if (!given_.count(n) && ok) {
      bool present = std::any_of(cfg_.fields.begin(), cfg_.fields.end(), [&](const auto &f) { return f.first == n; });
      if (!present) {
        error(std::string("missing field `") + n + "` (its fields: " + list + ")");
        ok = false;
      }
    }
  return ok;
}

bool Matcher::expect(const char *what, const MappingRef &out, const std::vector<std::pair<std::string, MappingRef>> &pattern) {
  std::vector<uint64_t> radices;
  std::vector<MappingRef> want;
  std::string layout;
  for (const auto &[name, m] : pattern) {
    radices.push_back(m ? m->size() : 1);
    want.push_back(m);
    layout += (layout.empty() ? "" : ", ") + name;
  }
  MappingRef whole = join(want);
  std::vector<MappingRef> have = split(out, radices);
  if (pattern.size() == 1) {
    if (same(out, want[0])) return true;
    error(std::string("the output ") + what + " must be the input " + what + " " + show(want[0]) +
          " (topology pattern matching: the topology keeps it), but it is " + show(out));
    return false;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (same(have[i], want[i])) continue;
    uint64_t minor = 1;
    for (size_t j = i + 1; j < radices.size(); ++j) minor *= radices[j];
    error(std::string("the output ") + what + " must be [" + layout + "] = " + show(whole) + " (topology pattern matching), but its " +
          pattern[i].first + " part (" + num(radices[i]) + " positions" + (minor > 1 ? " of stride " + num(minor) : "") +
          ") is " + show(have[i]) + ", not " + show(want[i]));
    return false;
  }
  return true;
}

bool Matcher::expectTile(const MappingRef &tile, const std::string &where) {
  std::set<std::string> input = axisNames({inS_, inT_});
  for (const AxisInfo &a : tile ? tile->axes() : std::vector<AxisInfo>{})
    if (input.count(a.name)) {
      error("the output Slice's " + where + " (" + num(tile->size()) +
            " positions) is the broadcast tile: every slice of a ring group receives the same data there, so it holds a new axis or padding (e.g. `X` with `axes![X = " +
            num(tile->size()) + "]`), not " + show(tile) + " of the input");
      return false;
    }
  return true;
}

bool Matcher::regular(SwitchPlan &plan) {
  const uint64_t S = inS_->size(), T = inT_->size();
  SwitchTopology t = plan.topology;
  const uint64_t s1 = t == SwitchTopology::Forwarding ? 1 : p("slice1"), s0 = t == SwitchTopology::Forwarding ? 1 : p("slice0");
  if (s1 > S || s0 > S || S % (s1 * s0) != 0) {
    error("slice1 × slice0 = " + num(s1) + " × " + num(s0) + (s1 <= S && s0 <= S ? " = " + num(s1 * s0) : "") +
          " must divide InSlice::SIZE = " + num(S));
    return false;
  }
  const uint64_t s2 = S / (s1 * s0);
  std::vector<MappingRef> sp = split(inS_, {s2, s1, s0});
  MappingRef slice2 = sp[0], slice1 = sp[1], slice0 = sp[2];
  plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}};
  std::vector<std::vector<uint32_t>> &bm = plan.bitmaps;
  bm.assign(kSlices, {});
  auto block = [&](uint64_t o) { return uint32_t(o / (s1 * s0) * (s1 * s0)); };
  switch (t) {
    case SwitchTopology::Forwarding:
      plan.params.clear();
      if (!expect("Slice", outS_, {{"Slice", inS_}}) || !expect("Time", outT_, {{"Time", inT_}})) return false;
      for (uint64_t o = 0; o < kSlices; ++o) bm[o] = {uint32_t(o)};
      plan.ringSize = 1;
      return true;
    case SwitchTopology::Broadcast01: {
      const uint64_t t0 = p("time0");
      if (t0 > T || T % t0 != 0) {
        error("time0 = " + num(t0) + " must divide InTime::SIZE = " + num(T) + " (time1 = InTime::SIZE / time0)");
        return false;
      }
      std::vector<MappingRef> tp = split(inT_, {T / t0, t0});
      plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}, {"time1", T / t0}, {"time0", t0}};
      if (outT_->size() != T * s1 * s0) {
        error("OutTime::SIZE must be InTime::SIZE × slice1 × slice0 = " + num(T * s1 * s0) + " (slice1 and slice0 move into Time), not " +
              num(outT_->size()));
        return false;
      }
      std::vector<MappingRef> os = split(outS_, {s2, s1 * s0});
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"tile", os[1]}}) || !expectTile(os[1], "inner part [tile, tile]") ||
          !expect("Time", outT_, {{"time1", tp[0]}, {"slice1", slice1}, {"time0", tp[1]}, {"slice0", slice0}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1 * s0; ++k) bm[o].push_back(block(o) + uint32_t(k));
      break;
    }
    case SwitchTopology::Broadcast1: {
      if (outT_->size() != T * s1) {
        error("OutTime::SIZE must be InTime::SIZE × slice1 = " + num(T * s1) + " (slice1 moves into Time), not " + num(outT_->size()));
        return false;
      }
      std::vector<MappingRef> os = split(outS_, {s2, s1, s0});
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"tile", os[1]}, {"slice0", slice0}}) ||
          !expectTile(os[1], "middle part (tile)") || !expect("Time", outT_, {{"time0", inT_}, {"slice1", slice1}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1; ++k) bm[o].push_back(block(o) + uint32_t(k * s0 + o % s0));
      break;
    }
    case SwitchTopology::Transpose:
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"slice0", slice0}, {"slice1", slice1}}) ||
          !expect("Time", outT_, {{"Time", inT_}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o) bm[o] = {uint32_t(block(o) + (o % s1) * s0 + (o / s1) % s0)};
      break;
    case SwitchTopology::InterTranspose: {
      const uint64_t t0 = p("time0"), t1 = s1;
      uint64_t t10 = 0;
      bool overflow = __builtin_mul_overflow(t1, t0, &t10);
      if (overflow || t0 > T || T % t10 != 0) {
        error("time1 × time0 = " + num(t1) + " × " + num(t0) + (overflow ? "" : " = " + num(t10)) + " must divide InTime::SIZE = " + num(T) +
              " (time1 = slice1, so that OutSlice::SIZE stays 256; time2 = InTime::SIZE / (time1 × time0))");
        return false;
      }
      if (outT_->size() != T) {
        error("OutTime::SIZE must be InTime::SIZE = " + num(T) + " (time1 and slice1 trade places), not " + num(outT_->size()));
        return false;
      }
      const uint64_t t2 = T / (t1 * t0);
      std::vector<MappingRef> tp = split(inT_, {t2, t1, t0});
      plan.params = {{"slice2", s2}, {"slice1", s1}, {"slice0", s0}, {"time2", t2}, {"time1", t1}, {"time0", t0}};
      if (!expect("Slice", outS_, {{"slice2", slice2}, {"time1", tp[1]}, {"slice0", slice0}}) ||
          !expect("Time", outT_, {{"time2", tp[0]}, {"time0", tp[2]}, {"slice1", slice1}}))
        return false;
      for (uint64_t o = 0; o < kSlices; ++o)
        for (uint64_t k = 0; k < s1; ++k) bm[o].push_back(block(o) + uint32_t(k * s0 + o % s0));
      break;
    }
    case SwitchTopology::CustomBroadcast: return false;
  }
  plan.ringSize = s1 * s0;
  return true;
}

// Where a term of an output mapping comes from: the input Slice, the input Time, or neither (a new axis).
enum class Origin { Slice, Time, New, Mixed };

bool Matcher::custom(SwitchPlan &plan) {
  const uint64_t ring = p("ring_size");
  plan.params = {{"ring_size", ring}};
  if (ring > kSlices || (ring & (ring - 1)) != 0) {
    error("ring_size " + num(ring) + " must be a power of two of at most 256 (the ring size must be a power of 2)");
    return false;
  }
  const uint64_t T = inT_->size();
  if (outT_->size() % T != 0) {
    error("OutTime::SIZE = " + num(outT_->size()) + " must be InTime::SIZE = " + num(T) +
          " times the number of slices each slice snoops (the axes that move from Slice to Time)");
    return false;
  }
  const uint64_t moved = outT_->size() / T;
  std::vector<FactorTerm> sliceTerms = factorize(inS_), timeTerms = factorize(inT_);
  auto origin = [&](const FactorTerm &t, Placement *where) {
    if (t.kind != FactorTerm::Axis) return Origin::New;
    Placement s = locate(t, sliceTerms), u = locate(t, timeTerms);
    if (s.status == Placement::Located && u.status == Placement::Broadcast) {
      *where = s;
      return Origin::Slice;
    }
    if (u.status == Placement::Located && s.status == Placement::Broadcast) return Origin::Time;
    if (s.status == Placement::Broadcast && u.status == Placement::Broadcast) return Origin::New;
    return Origin::Mixed;
  };
  // Constraints 1 and 2 on the output Time, term by term.
  std::vector<FactorTerm> outTime = factorize(outT_);
  const FactorTerm *firstMoved = nullptr, *prevMoved = nullptr;
  Placement prevAt;
  for (const FactorTerm &t : outTime) {
    Placement at;
    Origin o = origin(t, &at);
    if (o == Origin::Mixed) {
      error("the output Time's `" + t.str() + "` does not come from one input term of the Slice " + show(inS_) + " or the Time " +
            show(inT_));
      return false;
    }
    if (o == Origin::New && t.kind == FactorTerm::Axis) {
      error("the output Time's `" + t.str() + "` is not in the input; a slice outputs each packet it snoops once, so only the Slice can broadcast (a new axis belongs in the output Slice)");
      return false;
    }
    if (o == Origin::Time && firstMoved) {
      error("`" + firstMoved->str() + "` moves from Slice to Time, but `" + t.str() + "` of the input Time comes after it in " +
            show(outT_) + "; axes moving from Slice to Time must take the innermost Time positions (Constraint 2: Innermost Time Position; only Broadcast01's time0 can place them elsewhere)");
      return false;
    }
    if (o != Origin::Slice) continue;
    if (prevMoved && !(prevAt.pieces.back().bufStride > at.pieces.front().bufStride)) {
      error("`" + prevMoved->str() + "` and `" + t.str() + "` move from Slice to Time in an order other than in the input Slice " +
            show(inS_) + "; axes moving from Slice to Time must keep their relative order (Constraint 1: Order Preservation; the routers cannot reorder packets)");
      return false;
    }
    if (!firstMoved) firstMoved = &t;
    prevMoved = &t;
    prevAt = at;
  }
  std::vector<MappingRef> tp = split(outT_, {T, moved});
  if (!same(tp[0], inT_)) {
    error("the output Time must be [InTime, moved] with InTime = " + show(inT_) + " (a custom bitmap keeps the time order and appends the slices each slice snoops), but its outer " +
          num(T) + " positions are " + show(tp[0]));
    return false;
  }
  const MappingRef movedPart = tp[1];
  for (const FactorTerm &t : factorize(outS_)) {
    Placement at;
    Origin o = origin(t, &at);
    if (o == Origin::Time || o == Origin::Mixed) {
      error("the output Slice's `" + t.str() + "` is not a part of the input Slice " + show(inS_) +
            " (only InterTranspose moves Time into Slice)");
      return false;
    }
  }
  // The bitmap of every output slice: the input slices holding its coordinates, one per moved position.
  std::set<std::string> sliceAxes;
  for (const AxisInfo &a : inS_->axes()) sliceAxes.insert(a.name);
  auto restrict = [&](const Index &i) {
    Index r;
    for (const auto &[axis, v] : i.entries())
      if (sliceAxes.count(axis)) r.set(axis, v);
    return r;
  };
  IndexPositions source(*inS_);
  plan.bitmaps.assign(kSlices, {});
  for (uint64_t o = 0; o < kSlices; ++o) {
    auto so = outS_->map(o);
    if (!so) continue;
    for (uint64_t k = 0; k < moved; ++k) {
      auto mk = movedPart->map(k);
      if (!mk) {
        error("the moved Time part " + show(movedPart) + " has padding at position " + num(k) +
              "; a slice outputs only the packets its bitmap snoops, so every moved position must hold data");
        return false;
      }
      Index want = restrict(*so);
      want.add(restrict(*mk));
      std::optional<uint64_t> from = source.find(want);
      if (!from) {
        error("output slice " + num(o) + " at moved position " + num(k) + " needs " + want.str() +
              ", which no input slice holds (the output Slice and the moved Time axes must split the input Slice " + show(inS_) + ")");
        return false;
      }
      std::vector<uint32_t> &b = plan.bitmaps[o];
      if (!b.empty() && b.back() >= *from) {
        error("output slice " + num(o) + " snoops input slice " + num(*from) + " after slice " + num(b.back()) +
              "; axes moving from Slice to Time must keep their relative order (Constraint 1: Order Preservation)");
        return false;
      }
      b.push_back(uint32_t(*from));
    }
  }
  uint64_t need = requiredRingSize(plan.bitmaps);
  if (ring < need) {
    for (uint64_t o = 0; o < kSlices; ++o)
      for (uint32_t s : plan.bitmaps[o])
        if (s / ring != o / ring) {
          std::string set;
          for (uint32_t x : plan.bitmaps[o]) set += (set.empty() ? "" : ", ") + num(x);
          error("ring_size " + num(ring) + " is too small: output slice " + num(o) + " snoops input slice " + num(s) +
                " (bitmap[" + num(o) + "] = {" + set + "}), outside its ring of slices [" + num(o / ring * ring) + ", " +
                num(o / ring * ring + ring) + "); this bitmap needs ring_size " + num(need));
          return false;
        }
  }
  plan.ringSize = ring;
  return true;
}

SwitchMatch Matcher::run() {
  SwitchMatch r;
  static const std::vector<std::pair<SwitchTopology, std::vector<const char *>>> kinds = {
      {SwitchTopology::Forwarding, {}},
      {SwitchTopology::Broadcast01, {"slice1", "slice0", "time0"}},
      {SwitchTopology::Broadcast1, {"slice1", "slice0"}},
      {SwitchTopology::Transpose, {"slice1", "slice0"}},
      {SwitchTopology::InterTranspose, {"slice1", "slice0", "time0"}},
      {SwitchTopology::CustomBroadcast, {"ring_size"}},
  };
  auto plan = std::make_shared<SwitchPlan>();
  const std::vector<const char *> *fields = nullptr;
  for (const auto &[k, f] : kinds)
    if (cfg_.name == topologyName(k)) {
      plan->topology = k;
      fields = &f;
    }
  title_ = "switch `SwitchConfig::" + cfg_.name + "`";
  if (!fields) {
    r.errors.push_back("unknown switch topology `SwitchConfig::" + cfg_.name +
                       "`; the Switch Engine has Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose and CustomBroadcast");
    return r;
  }
  if (!readParams(*fields)) {
    r.errors = errors_;
    return r;
  }
  if (inS_->size() != kSlices || outS_->size() != kSlices) {
    const MappingRef &bad = inS_->size() != kSlices ? inS_ : outS_;
    error(std::string(inS_->size() != kSlices ? "InSlice" : "OutSlice") + "::SIZE is " + num(bad->size()) + " (" + bad->str() +
          "); the switch runs on a full cluster: InSlice::SIZE = OutSlice::SIZE = 256 (full cluster operation; pad the Slice, e.g. m![" +
          bad->body() + " # 256])");
    r.errors = errors_;
    return r;
  }
  plan->inTime = inT_->size();
  plan->outTime = outT_->size();
  bool ok = plan->topology == SwitchTopology::CustomBroadcast ? custom(*plan) : regular(*plan);
  r.errors = errors_;
  if (ok && errors_.empty()) r.plan = std::move(plan);
  return r;
}

}  // namespace

SwitchMatch matchSwitch(const SwitchConfigArgs &cfg, const MappingRef &inSlice, const MappingRef &inTime,
                        const MappingRef &outSlice, const MappingRef &outTime) {
  if (!inSlice || !inTime || !outSlice || !outTime) return {};
  return Matcher(cfg, inSlice, inTime, outSlice, outTime).run();
}

}  // namespace tcp
