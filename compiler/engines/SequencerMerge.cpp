// SequencerMerge.cpp — merging contiguous sequencer entries (and naming the merged term), and the packet size of a configuration.
#include "SequencerDetail.h"

namespace tcp {

namespace seqdetail {

std::string rangeName(const AxisRange &r) {
  FactorTerm f;
  f.axis = r.axis;
  f.axisStride = r.axisStride;
  f.count = f.limit = r.count;
  return f.str();
}

namespace {
// A merged name lists its parts flat: `[A, B, C]`, not `[A, [B, C]]`.
std::string listed(const std::string &t) {
  return t.size() > 1 && t.front() == '[' && t.back() == ']' ? t.substr(1, t.size() - 2) : t;
}

}  // namespace

std::vector<Entry> mergeEntries(std::vector<Entry> v, uint64_t maxSize) {
  for (size_t i = v.size(); i-- > 1;) {  // inner v[i], outer v[i - 1]
    const Entry &o = v[i - 1], &in = v[i];
    if (o.e.stride != static_cast<int64_t>(in.e.size) * in.e.stride) continue;
    if (in.e.size != 0 && o.e.size > maxSize / in.e.size) continue;
    Entry m;
    m.e.size = o.e.size * in.e.size;
    m.e.stride = in.e.stride;
    m.e.packet = o.e.packet || in.e.packet;
    if (o.r.valid && in.r.valid && o.r.axis.name == in.r.axis.name && o.r.axisStride == in.r.axisStride * in.r.count) {
      m.r = in.r;
      m.r.count = o.r.count * in.r.count;
      m.e.term = rangeName(m.r);
    } else {
      m.e.term = "[" + listed(o.e.term) + ", " + listed(in.e.term) + "]";
    }
    v[i - 1] = m;
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return v;
}

}  // namespace seqdetail

using namespace seqdetail;

std::vector<SeqEntry> mergeContiguous(std::vector<SeqEntry> entries, uint64_t maxEntrySize) {
  std::vector<Entry> v;
  for (SeqEntry &e : entries) v.push_back({std::move(e), {}});
  std::vector<SeqEntry> out;
  for (Entry &e : mergeEntries(std::move(v), maxEntrySize)) out.push_back(std::move(e.e));
  return out;
}

uint64_t packetSizeOf(const std::vector<SeqEntry> &entries) {
  if (entries.empty()) return 1;
  const SeqEntry &in = entries.back();
  return in.packet && (in.stride == 0 || in.stride == 1) ? in.size : 1;
}

}  // namespace tcp
