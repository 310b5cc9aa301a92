// DeviceVectorReduce.cpp — the CPU model of the Vector Engine's reductions: intra-slice (tree + accumulator) and inter-slice (across a cluster's slices).
//
// Intra-slice ("Intra-Slice Reduce" > Mechanism): each time step's (up to 4) lanes that reduce into
// one output are combined by the 2-level tree op(op(l0, l1), op(l2, l3)) (a missing lane is the op's
// identity), and the accumulator folds the per-step results in time order. Padding of the reduce
// axis is excluded (the Valid Count Generator; the checker refuses placements it cannot express),
// also where only the slice reveals it: with R split between Slice and Time/Packet, R = r_slice + r_step
// and a step is valid on a slice when that sum is below |R| (the boundary slice's V, "Implementation").
// Inter-slice ("Inter-Slice Block"): every output element is the reduction, in slice order, of the
// input elements of its cluster that share its index once the reduced slice axes are dropped; axes
// new in SliceOut broadcast.
#include "DeviceChain.h"
#include "DeviceVectorOps.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace tcp::interp {

namespace {
std::optional<Index> indexAt(const MappingRef &m, uint64_t i) {
  if (!m) return Index{};
  return m->map(i);
}
std::set<std::string> axisNames(std::initializer_list<MappingRef> ms) {
  std::set<std::string> out;
  for (const MappingRef &m : ms)
    if (m)
      for (const AxisInfo &a : m->axes()) out.insert(a.baseName());
  return out;
}
}  // namespace

void ChainBuilder::intraSliceReduce(const TypedOp &op) {
  const VeOpArgs &a = *op.ve;
  const TensorType in = stream_.type, out = op.out;
  const bool f32 = in.dtype == num::DType::f32;
  const size_t lanes = in.packet->size();
  StreamLayout next = layoutOf(out, false);
  KeyIndex outPos(next.keys);
  MappingRef pair = Mapping::pair(in.time, in.packet);
  // Per output position: its contributions (time step, lane, input position), in stream order.
  struct Contribution {
    uint32_t t, lane, pos;
    uint64_t r;  // R's coordinate from Time and Packet
  };
  // R's coordinate from the Slice at each slice position of the cluster (none: R is not in Slice).
  std::vector<int64_t> sliceR;
  uint64_t rSize = 0;
  if (in.slice)
    for (const AxisInfo &ax : in.slice->axes())
      if (ax.baseName() == a.reduceAxis) {
        if (!ax.padBase.empty() || !ax.skewBase.empty())
          throw DeviceError{where(op) + ": a padded or skewed reduce axis split over Slice is not supported yet"};
        rSize = ax.size;
      }
  if (rSize > 0) {
    sliceR.assign(kSlicesPerCluster, -1);
    for (uint64_t p = 0; p < in.slice->size() && p < kSlicesPerCluster; ++p)
      if (auto idx = in.slice->map(p)) sliceR[p] = idx->get(a.reduceAxis);
  }
  std::vector<std::vector<Contribution>> contrib(next.keys.size());
  for (size_t i = 0; i < stream_.keys.size(); ++i) {
    if (stream_.keys[i] < 0) continue;  // padding: the VCG's valid count excludes it
    auto idx = pair->map(i);
    if (!idx) continue;
    uint64_t r = uint64_t(idx->get(a.reduceAxis));
    idx->set(a.reduceAxis, 0);
    int64_t o = outPos.find(full_.key(*idx));
    if (o < 0) throw DeviceError{where(op) + ": an input element has no output position"};
    contrib[o].push_back({uint32_t(i / lanes), uint32_t(i % lanes), uint32_t(i), r});
  }
  const std::string rop = a.op;
  const uint32_t identity = veReduceIdentity(rop, f32);
  steps.push_back([contrib = std::move(contrib), sliceR = std::move(sliceR), rSize, rop, f32, identity](SliceRun &s) {
    // Steps past |R| on this slice are padding (on slices without R in Slice every step counts).
    const int64_t rs = sliceR.empty() ? -1 : sliceR[s.id % kSlicesPerCluster];
    const uint64_t valid = rs < 0 ? UINT64_MAX : rSize - std::min<uint64_t>(rSize, uint64_t(rs));
    std::vector<uint32_t> res(contrib.size(), 0);
    for (size_t o = 0; o < contrib.size(); ++o) {
      const auto &c = contrib[o];
      if (c.empty()) continue;
      bool first = true;
      uint32_t acc = identity;
      for (size_t k = 0; k < c.size();) {
        uint32_t l[4] = {identity, identity, identity, identity};
        uint32_t t = c[k].t;
        for (; k < c.size() && c[k].t == t; ++k)
          if (c[k].r < valid) l[c[k].lane % 4] = s.cur[c[k].pos];
        uint32_t tree = veReduce(rop, f32, veReduce(rop, f32, l[0], l[1]), veReduce(rop, f32, l[2], l[3]));
        acc = first ? tree : veReduce(rop, f32, acc, tree);
        first = false;
      }
      res[o] = acc;
    }
    s.cur = std::move(res);
  });
  stream_ = std::move(next);
}

void ChainBuilder::interSliceReduce(const TypedOp &op) {
  const VeOpArgs &a = *op.ve;
  const TensorType in = stream_.type, out = op.out;
  const bool f32 = in.dtype == num::DType::f32;
  const size_t lanes = in.packet->size();
  AxisSpace space = AxisSpace::of({in.slice, in.time, in.packet, out.slice, out.time});
  std::set<std::string> inAxes = axisNames({in.slice, in.time, in.packet}), outAxes = axisNames({out.slice, out.time, out.packet});
  std::vector<std::string> reduced, broadcast;
  for (const std::string &x : inAxes) if (!outAxes.count(x)) reduced.push_back(x);
  for (const std::string &x : outAxes) if (!inAxes.count(x)) broadcast.push_back(x);
  // Input elements by their index without the reduced axes.
  MappingRef inPair = Mapping::pair(in.time, in.packet), outPair = Mapping::pair(out.time, out.packet);
  std::unordered_map<int64_t, std::vector<std::pair<uint32_t, uint32_t>>> inputs;
  for (uint64_t s = 0; s < in.slice->size(); ++s) {
    auto sIdx = indexAt(in.slice, s);
    if (!sIdx) continue;
    for (size_t i = 0; i < stream_.keys.size(); ++i) {
      if (stream_.keys[i] < 0) continue;
      auto idx = inPair->map(i);
      if (!idx) continue;
      idx->add(*sIdx);
      for (const std::string &x : reduced) idx->set(x, 0);
      inputs[space.key(*idx)].push_back({uint32_t(s), uint32_t(i)});
    }
  }
  const size_t outLen = out.time->size() * lanes, outSlices = out.slice->size();
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> sources(outSlices * outLen);
  for (uint64_t s2 = 0; s2 < outSlices; ++s2) {
    auto sIdx = indexAt(out.slice, s2);
    if (!sIdx) continue;
    for (size_t j = 0; j < outLen; ++j) {
      auto idx = outPair->map(j);
      if (!idx) continue;
      idx->add(*sIdx);
      for (const std::string &x : broadcast) idx->set(x, 0);
      auto it = inputs.find(space.key(*idx));
      if (it != inputs.end()) sources[s2 * outLen + j] = it->second;
    }
  }
  TensorType group = in;
  group.slice = Mapping::identity();
  std::vector<unsigned> bases;
  for (const ActiveSlice &s : dev_.activeSlices(group, AxisSpace::of({}))) bases.push_back(s.id);
  const std::string rop = a.op;
  Exchange ex = [sources = std::move(sources), bases, outLen, outSlices, rop, f32](std::vector<SliceRun> &runs) {
    for (unsigned base : bases) {
      std::vector<std::vector<uint32_t>> next(outSlices, std::vector<uint32_t>(outLen, 0));
      for (size_t s2 = 0; s2 < outSlices; ++s2)
        for (size_t j = 0; j < outLen; ++j) {
          const auto &src = sources[s2 * outLen + j];
          bool first = true;
          uint32_t acc = 0;
          for (const auto &[s, i] : src) {
            const std::vector<uint32_t> &cur = runs[base + s].cur;
            uint32_t v = i < cur.size() ? cur[i] : 0;
            acc = first ? v : veReduce(rop, f32, acc, v);
            first = false;
          }
          next[s2][j] = acc;
        }
      for (size_t s2 = 0; s2 < outSlices; ++s2) runs[base + s2].cur = std::move(next[s2]);
    }
  };
  switches.push_back({steps.size(), std::move(ex), out});
  stream_ = layoutOf(out, false);
}

}  // namespace tcp::interp
