// DeviceChainRun.cpp — runs a compiled chain on every active slice: DM and TRF ranges resolved first (broadcasts held once), a TRF tensor many slices compute alike computed once.
#include "DeviceChain.h"

#include <algorithm>
#include <map>

namespace tcp::interp {

namespace {
// The grouping of a to_trf chain whose every step is a function of the DM bytes it reads: slices that
// read the same bytes (the same owner of each range) compute the same TRF tensor, so the first of each
// group computes it and the others read it from there. nullopt when no two slices share.
std::optional<TrfAlias> sharedTrf(DeviceImpl &dev, const ChainBuilder &b, const std::vector<ActiveSlice> &active) {
  if (!b.trfWrite || !b.trfWriteWhole || !b.onlyReadsDm || !b.switches.empty()) return std::nullopt;
  TrfAlias a;
  a.region = *b.trfWrite;
  a.owner.resize(dev.slices.size());
  for (uint32_t id = 0; id < a.owner.size(); ++id) a.owner[id] = id;
  std::map<std::pair<const uint8_t *, const uint8_t *>, uint32_t> first;
  bool shared = false;
  for (const ActiveSlice &s : active) {
    auto source = [&](int k) -> const uint8_t * {  // where the range is read (nullptr: no range read)
      return b.reads[k].first < b.reads[k].second ? dev.dmReadBase(s.id, b.reads[k].first, b.reads[k].second) : nullptr;
    };
    auto [it, fresh] = first.emplace(std::pair{source(0), source(1)}, s.id);
    a.owner[s.id] = it->second;
    shared |= !fresh;
  }
  if (!shared) return std::nullopt;
  return a;
}
}  // namespace

void DeviceImpl::runChain(const std::vector<const TypedOp *> &ops, Placements &placed) {
  ChainBuilder b(*this, placed, ops);
  for (const TypedOp *op : ops) b.add(*op);
  AxisSpace none = AxisSpace::of({});
  std::vector<ActiveSlice> active = activeSlices(b.sliceType, none);
  for (const auto &[lo, hi] : b.writes) prefaultDmRange(active, lo, hi);
  // TRF: a write copies out the aliases it overlaps (not into slices that rewrite the region whole,
  // unless the chain also reads it); then a read resolves to the slice holding its tensor.
  std::optional<TrfAlias> trfAlias = sharedTrf(*this, b, active);
  if (b.trfWrite) {
    std::vector<uint8_t> rewritten(slices.size(), 0);
    if (b.trfWriteWhole && !(b.trfRead && b.trfRead->overlaps(*b.trfWrite)))
      for (const ActiveSlice &s : active) rewritten[s.id] = 1;
    unaliasTrf(*b.trfWrite, false, &rewritten);
  }
  if (b.trfRead) unaliasTrf(*b.trfRead, true);
  if (trfAlias)
    active.erase(std::remove_if(active.begin(), active.end(), [&](const ActiveSlice &s) { return trfAlias->owner[s.id] != s.id; }),
                 active.end());
  std::vector<SliceRun> runs(slices.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i].mem = &slices[i], runs[i].id = unsigned(i);
    for (int k = 0; k < 2; ++k) runs[i].dmIn[k] = dmReadBase(i, b.reads[k].first, b.reads[k].second);
    if (b.trfRead) runs[i].trfIn = slices[trfReadSlice(i, *b.trfRead)].trfData();
  }
  size_t at = 0;
  auto runSteps = [&](size_t end) {
    bool last = end == b.steps.size();
    parallelFor(active.size(), [&](size_t i) {
      SliceRun &run = runs[active[i].id];
      for (size_t k = at; k < end; ++k) b.steps[k](run);
      if (last) giveLanes(std::move(run.cur));  // the chain is done with this slice's stream
    });
    at = end;
  };
  for (const ChainBuilder::Switch &sw : b.switches) {
    runSteps(sw.at);
    sw.exchange(runs);
    active = activeSlices(sw.slices, none);
  }
  runSteps(b.steps.size());
  if (trfAlias) trfAliases.push_back(std::move(*trfAlias));
}

}  // namespace tcp::interp
