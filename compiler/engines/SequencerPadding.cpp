// SequencerPadding.cpp — reads concatenations and padded axes (`# l + B + # r`) as their data part with a base offset.
#include "SequencerDetail.h"

namespace tcp::seqdetail {

MappingRef rewriteConcats(const MappingRef &m, std::vector<Shift> &shifts, std::string &err, bool symbolsOnly) {
  const auto &ch = m->children();
  switch (m->kind()) {
    case Mapping::Concat: {
      if (symbolsOnly) return m;
      uint64_t left = 0, right = 0;
      MappingRef mid;
      for (const MappingRef &c : ch) {
        MappingRef r = rewriteConcats(c, shifts, err, symbolsOnly);
        if (!r) return nullptr;
        if (r->kind() == Mapping::Dummy) {
          (mid ? right : left) += r->size();
          continue;
        }
        if (mid) {
          err = "unsupported mapping: the concatenation " + q(m->body()) +
                " joins several data parts; a sequencer reads one strided range";
          return nullptr;
        }
        mid = r;
      }
      if (!mid) return m;
      if (left) shifts.push_back({mid, left, m->body()});
      return left + right ? Mapping::pad(mid, mid->size() + left + right, &err) : mid;
    }
    case Mapping::Pair: {
      MappingRef a = rewriteConcats(ch[0], shifts, err, symbolsOnly),
                 b = a ? rewriteConcats(ch[1], shifts, err, symbolsOnly) : nullptr;
      if (!a || !b) return nullptr;
      return a == ch[0] && b == ch[1] ? m : Mapping::pair(a, b, &err);
    }
    case Mapping::Pad:
    case Mapping::Resize:
    case Mapping::Stride:
    case Mapping::Modulo:
    case Mapping::Offset: {
      MappingRef c = rewriteConcats(ch[0], shifts, err, symbolsOnly);
      if (!c) return nullptr;
      if (c == ch[0]) return m;
      switch (m->kind()) {
        case Mapping::Pad: return Mapping::pad(c, m->amount(), &err);
        case Mapping::Resize: return Mapping::resize(c, m->amount(), &err);
        case Mapping::Stride: return Mapping::stride(c, m->amount(), &err);
        case Mapping::Modulo: return Mapping::modulo(c, m->amount(), &err);
        default: return Mapping::offset(c, m->amount(), &err);
      }
    }
    case Mapping::Symbol: {
      // A padded axis `B' = # l + B + # r` reads as its concatenation; every term of B' shares one
      // base offset (keyed by the axis name).
      const AxisInfo &a = m->axisInfo();
      if (a.padBase.empty()) return m;
      AxisInfo base;
      base.name = a.padBase;
      base.size = a.padBaseSize;
      MappingRef x = Mapping::symbol(base);
      if (a.padLeft) shifts.push_back({x, a.padLeft, a.name});
      return a.padLeft + a.padRight ? Mapping::pad(x, a.size, &err) : x;
    }
    default:
      return m;
  }
}

}  // namespace tcp::seqdetail
