// SwitchCustom.cpp — custom topologies: the snoop bitmap of every output slice from the mappings, with the
// order-preservation and innermost-time constraints and the ring size ("Switch Engine" > Custom Topologies).
#include "SwitchMatchDetail.h"

namespace tcp::switchmatch {

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
  IndexPositions source(inS_);
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

}  // namespace tcp::switchmatch
