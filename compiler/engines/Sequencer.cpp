// Sequencer.cpp — term-by-term derivation of a sequencer configuration from Buf, Time and Packet mappings.
#include "Sequencer.h"

#include "SequencerDetail.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace tcp {

using namespace seqdetail;

namespace {

void flatten(const MappingRef &m, std::vector<MappingRef> &out) {
  if (m->kind() == Mapping::Pair) {
    flatten(m->children()[0], out);
    flatten(m->children()[1], out);
  } else {
    out.push_back(m);
  }
}

enum class Role { Time, Packet };
const char *roleName(Role r) { return r == Role::Time ? "Time" : "Packet"; }

class Deriver {
 public:
  unsigned elemBits = 8;
  // A buffer over a padded axis (`m![A' / 4, ...]` with A' = A + 1#) is read as its base axis: B' is
  // `B # n` from l positions before B, so B's elements sit l × stride(B) further than in `B # n`.
  Deriver(const MappingRef &buf, const SeqOptions &opt)
      : bufText_(buf->str()), buf_(factorization(basedBuffer(buf, bufShifts_))), opt_(opt) {}

  // The buffer's left pads, for the axes the stream reads (a stream that does not read B, e.g. the
  // DMA engine's slice selection, keeps the buffer's first position as its origin).
  void applyBufferShifts() {
    for (const Shift &s : bufShifts_) {
      if (std::find(read_.begin(), read_.end(), s.x->axis()) == read_.end()) continue;
      std::optional<uint64_t> at0 = bufferOffset(s.x->axis(), 0, buf_.terms);
      std::optional<uint64_t> at1 = bufferOffset(s.x->axis(), 1, buf_.terms);
      if (at0 && at1) base += static_cast<int64_t>(s.left * (*at1 - *at0));
    }
  }

  std::vector<std::string> diags;
  std::vector<Entry> entries;
  int64_t base = 0;
  bool truncated = false;
  uint64_t truncatedFrom = 1, truncatedTo = 1;
  std::vector<FactorTerm> packetTerms_;  // the major Packet term's factors (truncate)

  bool bufferEmpty() const { return buf_.none; }
  uint64_t bufferSize() const { return buf_.size; }

  // Appends the entries of one top-level term of Time or Packet.
  void component(const MappingRef &original, Role role, bool majorPacketTerm) {
    std::vector<Shift> shifts;
    std::string err;
    MappingRef comp = rewriteConcats(original, shifts, err);
    if (!comp) {
      diags.push_back(err.empty() ? "unsupported mapping: " + q(original->body()) : err);
      return;
    }
    const std::string name = original->body();
    if (comp->size() == 1 && role == Role::Time && opt_.keepUnitTerms) {
      Entry e;
      e.e = {1, 0, name, false};
      entries.push_back(e);
    }
    std::vector<Entry> out;
    if (!place(comp, name, role, majorPacketTerm, out)) return;
    for (const Shift &s : shifts)
      if (!shift(s, name, role)) return;
    out = mergeEntries(std::move(out), opt_.maxEntrySize);  // one term read contiguously is one entry
    if (out.size() == 1) out[0].e.term = name;
    if (truncated && majorPacketTerm && out.size() == 1) out[0].e.term = truncName_;
    entries.insert(entries.end(), out.begin(), out.end());
  }

 private:
  std::vector<Shift> bufShifts_;
  std::vector<std::string> read_;  // axes some stream term iterates or offsets
  std::string bufText_;
  Factorization buf_;

  static MappingRef basedBuffer(const MappingRef &buf, std::vector<Shift> &shifts) {
    std::string err;
    MappingRef r = rewriteConcats(buf, shifts, err, true);
    if (r) return r;
    shifts.clear();
    return buf;
  }
  const SeqOptions &opt_;
  std::string truncName_;
  std::vector<std::string> shifted_;  // concatenations whose left padding is in `base`

  std::string heldTerms(const std::string &axis) const {
    std::string s;
    for (const FactorTerm &u : buf_.terms)
      if (u.kind == FactorTerm::Axis && u.axis.name == axis && u.count > 1) s += (s.empty() ? "" : ", ") + u.str();
    return s.empty() ? "nothing of it" : s;
  }
  bool holdsAxis(const std::string &axis) const {
    for (const FactorTerm &u : buf_.terms)
      if (u.kind == FactorTerm::Axis && u.axis.name == axis) return true;
    return false;
  }

  bool place(const MappingRef &comp, const std::string &name, Role role, bool major, std::vector<Entry> &out) {
    Factorization f = factorization(comp);
    if (major) packetTerms_ = f.terms;
    if (f.none) {
      diags.push_back("empty stream term: `" + std::string(roleName(role)) + "` term " + q(name) + " holds no element");
      return false;
    }
    bool opaque = std::any_of(f.terms.begin(), f.terms.end(), [](const FactorTerm &t) { return t.kind == FactorTerm::Opaque; });
    if (opaque && comp->kind() == Mapping::Pad) return placePadded(comp, name, role, out);
    std::vector<std::string> seenAxes;
    bool first = true;
    for (FactorTerm t : f.terms) {
      if (t.kind == FactorTerm::Axis && std::find(read_.begin(), read_.end(), t.axis.name) == read_.end())
        read_.push_back(t.axis.name);
      if (t.kind == FactorTerm::Axis && std::find(seenAxes.begin(), seenAxes.end(), t.axis.name) == seenAxes.end()) {
        seenAxes.push_back(t.axis.name);
        if (!offsetOf(t, name, role)) return false;
      }
      if (t.count == 1) continue;
      bool cut = false;
      if (major && first && t.kind == FactorTerm::Axis && opt_.use == SeqUse::Commit) cut = truncate(t);
      if (major && first && t.kind == FactorTerm::Padding && opt_.use == SeqUse::Commit) cut = truncatePadding(t, f);
      first = false;
      if (!placeTerm(t, t.kind == FactorTerm::Axis && f.terms.size() == 1 && !cut ? name : t.str(), role, out))
        return false;
    }
    return true;
  }

  // `E # n` whose padding does not factor (`[A, B, C] # 32` with 30 elements): E's entries, merged
  // where contiguous, with the outermost stretched over the padding (reads beyond the data).
  bool placePadded(const MappingRef &comp, const std::string &name, Role role, std::vector<Entry> &out) {
    std::vector<Entry> inner;
    std::vector<MappingRef> parts;
    flatten(comp->children()[0], parts);
    for (const MappingRef &p : parts)
      if (!place(p, p->body(), role, false, inner)) return false;
    inner = mergeEntries(inner, UINT64_MAX);
    uint64_t below = 1;
    for (size_t k = 1; k < inner.size(); ++k) below *= inner[k].e.size;
    if (inner.empty() || comp->size() % below != 0) {
      diags.push_back("unsupported mapping: the padding of `" + std::string(roleName(role)) + "` term " + q(name) +
                      " does not follow the buffer's layout of " + q(comp->children()[0]->body()));
      return false;
    }
    inner[0].e.size = comp->size() / below;
    inner[0].r.valid = false;
    if (opt_.use == SeqUse::Commit) {
      diags.push_back("commit writes padding beyond the data: `" + std::string(roleName(role)) + "` term " + q(name) +
                      " pads " + q(comp->children()[0]->body()) + " past what the buffer lays out");
      return false;
    }
    out.insert(out.end(), inner.begin(), inner.end());
    return true;
  }

  // The buffer offset of a term's constant coordinate (`A @ 3`), or a failure if the buffer starts
  // its axis later.
  bool offsetOf(const FactorTerm &t, const std::string &name, Role role) {
    if (!holdsAxis(t.axis.name)) return true;
    std::optional<uint64_t> off = bufferOffset(t.axis.name, t.base, buf_.terms);
    if (!off) {
      diags.push_back("insufficient input: `" + std::string(roleName(role)) + "` reads " + q(name) + " from coordinate " +
                      num(t.base) + " of axis " + q(t.axis.name) + " but the buffer " + q(bufText_) + " holds only " +
                      q(heldTerms(t.axis.name)));
      return false;
    }
    base += static_cast<int64_t>(*off);
    return true;
  }

  // Commit truncation: the major Packet term keeps what the buffer holds (its leading elements).
  // A buffer term that pads the same digit (`C # 8` of an element `m![B, A, C # 8]`) owns its padding:
  // the packet keeps that footprint, like a padded packet into `1 # 8` (truncatePadding), so the
  // commit writes whole 8-byte units of the tensor ("Fetch and Commit Engine" Example 1: `C # 8`
  // commits 8 bytes) and never past it.
  bool truncate(FactorTerm &t) {
    FactorTerm c = t;
    uint64_t keep = std::max<uint64_t>(t.valid(), 1);
    std::vector<uint64_t> footprints;
    for (const FactorTerm &u : buf_.terms)
      if (u.kind == FactorTerm::Axis && u.axis.name == t.axis.name && u.count > keep && u.count <= t.count &&
          u.axisStride == t.axisStride && u.valid() == keep)  // the same digit, padded (not more of the axis' data)
        footprints.push_back(u.count);
    std::sort(footprints.rbegin(), footprints.rend());
    // The elements each position of the term spans (the packet's terms below it).
    uint64_t below = 1;
    bool after = false;
    for (const FactorTerm &u : packetTerms_) {
      if (after) below *= std::max<uint64_t>(u.count, 1);
      if (u.kind == t.kind && u.axis.name == t.axis.name && u.count == t.count) after = true;
    }
    for (uint64_t n : footprints) {
      if ((n * below * elemBits) % 64 != 0) continue;  // commit_in_size is whole 8-byte units
      FactorTerm f = t;
      f.count = n;
      f.limit = std::min(t.limit, n);
      if (locate(f, buf_.terms).status == Placement::Located) {
        if (n == t.count) return false;  // the packet is the buffer's footprint (`[B, C] # 32` into `[B, C] # 32`)
        truncated = true;
        truncatedFrom = t.count;
        truncatedTo = n;
        truncName_ = f.str();
        t = f;
        return true;
      }
    }
    c.count = c.limit = keep;
    while (keep > 1 && locate(c, buf_.terms).status == Placement::Insufficient) c.count = c.limit = --keep;
    if (keep == t.count) return false;
    truncated = true;
    truncatedFrom = t.count;
    truncatedTo = keep;
    truncName_ = c.str();  // only padding dropped: `W # 32` → `W`
    if (keep < t.valid()) {  // data dropped on purpose: the leading elements, `N = 8` as the Element says
      FactorTerm whole = t;
      whole.count = whole.limit = t.valid();
      truncName_ = whole.str() + " = " + std::to_string(keep);
    }
    t = c;
    return true;
  }

  // Commit truncation of a padded packet (`1 # 16` into an element `1 # 8`): the packet keeps no more
  // lanes than the buffer has positions, so the commit never writes past the tensor.
  bool truncatePadding(FactorTerm &t, const Factorization &packet) {
    uint64_t inner = 1;
    bool below = false;
    for (const FactorTerm &u : packet.terms) {
      if (&u == &t || (u.kind == t.kind && u.count == t.count && !below)) {
        below = true;
        continue;
      }
      if (below) inner *= std::max<uint64_t>(u.count, 1);
    }
    uint64_t keep = std::max<uint64_t>(buf_.size / std::max<uint64_t>(inner, 1), 1);
    if (keep >= t.count) return false;
    truncated = true;
    truncatedFrom = t.count;
    truncatedTo = keep;
    t.count = keep;
    t.limit = std::min(t.limit, keep);
    truncName_ = t.str();
    return true;
  }

  bool placeTerm(const FactorTerm &t, const std::string &name, Role role, std::vector<Entry> &out) {
    Placement p = locate(t, buf_.terms);
    std::string who = "`" + std::string(roleName(role)) + "` iterates " + q(name);
    switch (p.status) {
      case Placement::Insufficient:
        diags.push_back("insufficient input: " + who + " but the buffer " + q(bufText_) + " holds only " +
                        q(heldTerms(t.axis.name)));
        return false;
      case Placement::Incompatible:
        diags.push_back("incompatible shapes: " + who + " but the buffer " + q(bufText_) + " splits axis " +
                        q(t.axis.name) + " as " + q(heldTerms(t.axis.name)) + "; no single configuration reads one as the other");
        return false;
      case Placement::Unsupported:
        diags.push_back("unsupported mapping: " + who + ": " + p.message);
        return false;
      case Placement::Located:
      case Placement::Broadcast:
        break;
    }
    bool exact = t.kind == FactorTerm::Axis && t.count == t.valid();
    for (const Piece &piece : p.pieces) {
      Entry e;
      e.e.size = piece.count;
      e.e.stride = p.status == Placement::Broadcast ? 0 : static_cast<int64_t>(piece.bufStride);
      e.e.packet = role == Role::Packet;
      e.e.term = name;
      if (exact && p.status == Placement::Broadcast) {
        e.r = {true, t.axis, t.axisStride, t.count};
      } else if (exact) {
        const FactorTerm &u = buf_.terms[piece.bufTerm];
        assert(piece.bufStride % u.bufStride == 0 && "a piece steps whole digits of its buffer term");
        e.r = {true, u.axis, u.axisStride * (piece.bufStride / u.bufStride), piece.count};
        if (p.pieces.size() > 1) e.e.term = rangeName(e.r);
      }
      if (opt_.use == SeqUse::Commit && p.status == Placement::Located && !exact && p.pieces.size() == 1) {
        const FactorTerm &u = buf_.terms[piece.bufTerm];
        uint64_t step = piece.bufStride / u.bufStride;
        if (step * (piece.count - 1) >= u.count) {
          diags.push_back("commit writes padding beyond the data: " + who + " (" + num(piece.count) +
                          " positions) past the buffer's " + q(u.str()));
          return false;
        }
      }
      out.push_back(e);
    }
    return true;
  }

  // The left padding of a concatenation starts `left` positions of X before X's first element.
  bool shift(const Shift &s, const std::string &name, Role role) {
    if (std::find(shifted_.begin(), shifted_.end(), s.concat) != shifted_.end()) return true;
    shifted_.push_back(s.concat);
    Factorization fx = factorization(s.x);
    std::vector<const FactorTerm *> data;
    for (const FactorTerm &t : fx.terms)
      if (t.count > 1) data.push_back(&t);
    if (data.size() != 1 || data[0]->kind != FactorTerm::Axis) {
      diags.push_back("unsupported mapping: `" + std::string(roleName(role)) + "` term " + q(name) + " pads " +
                      q(s.x->body()) + " on the left, which is not a single strided axis range");
      return false;
    }
    const FactorTerm &t = *data[0];
    if (!holdsAxis(t.axis.name)) return true;
    std::optional<uint64_t> at0 = bufferOffset(t.axis.name, t.base, buf_.terms);
    std::optional<uint64_t> at1 = bufferOffset(t.axis.name, t.base + t.axisStride, buf_.terms);
    if (!at0 || !at1) {
      diags.push_back("insufficient input: `" + std::string(roleName(role)) + "` term " + q(name) + " needs axis " +
                      q(t.axis.name) + " that the buffer " + q(bufText_) + " does not lay out");
      return false;
    }
    base -= static_cast<int64_t>(s.left * (*at1 - *at0));
    return true;
  }
};

}  // namespace

SeqResult derive(const MappingRef &buf, const MappingRef &time, const MappingRef &packet, unsigned elemBits,
                 const SeqOptions &opt) {
  assert(buf && time && packet && elemBits > 0);
  SeqResult r;
  r.timeSize = time->size();
  r.packetElems = packet->size();
  Deriver d(buf, opt);
  d.elemBits = elemBits;
  if (d.bufferEmpty()) {
    r.diagnostics.push_back("the buffer " + q(buf->str()) + " holds no element");
    return r;
  }
  // A skewed axis (`B' = B - A`) rotates each row of its layout by the other axis: a sequencer steps
  // every axis by one stride, so a buffer and a stream must agree on which skewed axes they use (both
  // iterate `B'`, and it is then an axis like any other); a stream of `B` over a buffer of `B'` would
  // need a stride per row ("Skewed Axis").
  {
    auto skewed = [](std::initializer_list<const MappingRef *> ms) {
      std::map<std::string, const AxisInfo *> out;
      for (const MappingRef *m : ms)
        for (const AxisInfo &a : (*m)->axes())
          if (!a.skewBase.empty()) out.emplace(a.name, &a);
      return out;
    };
    const auto inBuf = skewed({&buf}), inStream = skewed({&time, &packet});
    for (const auto *side : {&inBuf, &inStream}) {
      const auto &other = side == &inBuf ? inStream : inBuf;
      for (const auto &[name, a] : *side) {
        if (other.count(name)) continue;
        const std::string ours = side == &inBuf ? "buffer " + q(buf->str()) + " lays out" : "stream iterates";
        const std::string theirs = side == &inBuf ? "the stream does not iterate it" : "the buffer " + q(buf->str()) +
                                                                                          " does not lay it out";
        r.diagnostics.push_back("unsupported mapping: the " + ours + " the skewed axis " + q(name) + " (" + name + " = " +
                                a->skewBase + " - " + a->skewBy + ") and " + theirs + ": the skew rotates each row by " +
                                q(a->skewBy) + ", which no sequencer stride expresses (\"Skewed Axis\"): moving data into or out of "
                                "a skewed layout is not supported yet");
        return r;
      }
    }
  }
  // A buffer or stream holding one digit of an axis twice (`m![A / 8 % 64, A / 256]`, or Time
  // `m![S / 2]` with Packet `m![S % 4]`) puts a coordinate at two strides; a loop steps it by one.
  if (std::optional<std::string> shared = sharedDigit(factorization(buf).terms)) {
    r.diagnostics.push_back("unsupported mapping: in the buffer " + q(buf->body()) + ", " + *shared +
                            "; a sequencer loop steps each digit by one stride, so such a buffer is not supported yet");
    return r;
  }
  std::vector<FactorTerm> streamTerms = factorization(time).terms, packetTerms = factorization(packet).terms;
  streamTerms.insert(streamTerms.end(), packetTerms.begin(), packetTerms.end());
  if (std::optional<std::string> shared = sharedDigit(streamTerms)) {
    r.diagnostics.push_back("unsupported mapping: in the stream (Time " + q(time->body()) + ", Packet " + q(packet->body()) +
                            "), " + *shared + "; a sequencer loop steps each digit by one stride, so such a stream is not "
                            "supported yet");
    return r;
  }
  std::vector<MappingRef> tc, pc;
  flatten(time, tc);
  flatten(packet, pc);
  for (const MappingRef &c : tc) d.component(c, Role::Time, false);
  bool major = true;
  for (const MappingRef &c : pc) {
    d.component(c, Role::Packet, major && c->size() > 1);
    if (c->size() > 1) major = false;
  }
  d.applyBufferShifts();
  if (d.diags.empty() && opt.use == SeqUse::Commit && d.base < 0)  // "Commit Engine": never write beyond the tensor
    d.diags.push_back("commit writes padding before the data: the stream's left padding starts the commit " +
                      std::to_string(-d.base) + " elements before the buffer " + q(buf->str()) +
                      " (commit into a buffer laid out over the padded axis instead)");
  if (d.diags.empty() && opt.use == SeqUse::Commit) {  // nor past its end ("Why dummy=23 Cannot Use 32-byte Commits")
    int64_t last = d.base;
    std::string loops;
    for (const Entry &e : d.entries) {
      if (e.e.stride > 0) last += static_cast<int64_t>(e.e.size - 1) * e.e.stride;
      loops += (loops.empty() ? "" : ", ") + std::to_string(e.e.size) + " : " + std::to_string(e.e.stride);
    }
    if (last >= static_cast<int64_t>(d.bufferSize()))
      d.diags.push_back("commit writes past the tensor: the sequencer [" + loops + "] writes element " +
                        std::to_string(last) + " but the buffer " + q(buf->str()) + " holds " +
                        std::to_string(d.bufferSize()) + " (write sequencers never write beyond the tensor boundary; "
                        "commit packets that tile the buffer, e.g. smaller ones)");
  }
  r.diagnostics = d.diags;
  for (const Entry &e : d.entries) r.initial.push_back(e.e);
  if (d.truncated) {
    r.truncated = true;
    r.packetElems = r.packetElems / d.truncatedFrom * d.truncatedTo;
  }
  if (!r.diagnostics.empty()) return r;

  std::vector<Entry> entries = d.entries;
  if (entries.size() > opt.maxEntries) entries = mergeEntries(std::move(entries), opt.maxEntrySize);
  SeqConfig c;
  for (Entry &e : entries) c.entries.push_back(std::move(e.e));
  c.packetSize = packetSizeOf(c.entries);
  c.baseOffset = d.base;
  r.diagnostics = checkLimits(c, elemBits, opt);
  if (r.diagnostics.empty()) r.config = std::move(c);
  return r;
}

}  // namespace tcp
