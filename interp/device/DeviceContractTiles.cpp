// DeviceContractTiles.cpp — the contraction's blocked plan: packets grouped into tasks of kTileLanes that share a broadcast operand packet over a tile of the other side's packets.
#include "DeviceContract.h"
#include "RowIds.h"

#include <algorithm>
#include <cstring>

namespace tcp::interp {

namespace {

constexpr size_t kV = num::kTileLanes, kMinLanes = 8;

// Packets grouped by their broadcast packet (in packet order within a group), each group cut into
// full runs of kV; a run's other-side packets are its tile (equal runs share one tile).
TilePlan plan(const std::vector<uint32_t> &bid, size_t nb, const std::vector<uint32_t> &oid, bool weightTiles) {
  TilePlan p;
  p.weightTiles = weightTiles;
  const size_t packets = bid.size();
  std::vector<uint32_t> start(nb + 1, 0), order(packets);
  for (uint32_t b : bid) ++start[b + 1];
  for (size_t b = 0; b < nb; ++b) start[b + 1] += start[b];
  {
    std::vector<uint32_t> at(start.begin(), start.end() - 1);
    for (size_t k = 0; k < packets; ++k) order[at[bid[k]]++] = uint32_t(k);
  }
  // Tiles deduplicated by their packets and their count: a tile that repeats a packet may equal a
  // partial tile's padded packets, and tasks on one tile share its count.
  RowIds<uint32_t> ids(kV + 1);
  std::vector<num::TileTask> tasks;
  for (size_t b = 0; b < nb; ++b) {
    size_t i = start[b], end = start[b + 1];
    for (; i + kV <= end; i += kV) {
      const uint32_t *ks = &order[i];
      uint32_t tile[kV + 1];
      for (size_t v = 0; v < kV; ++v) tile[v] = oid[ks[v]];
      tile[kV] = uint32_t(kV);
      auto [id, fresh] = ids.insert(tile);
      if (fresh) p.tileIds.insert(p.tileIds.end(), tile, tile + kV);
      num::TileTask t{id, uint32_t(b), ks[0], int32_t(ks[1] - ks[0])};
      for (size_t v = 2; v < kV && t.step != 0; ++v)
        if (ks[v] - ks[v - 1] != ks[1] - ks[0]) t.step = 0;
      if (t.step == 0) {
        t.out0 = uint32_t(p.outIdx.size());
        p.outIdx.insert(p.outIdx.end(), ks, ks + kV);
      }
      tasks.push_back(t);
    }
    // At least kMinLanes left: a partial tile, its other lanes repeating the last packet (through
    // outIdx; not written). Fewer go to the rest.
    if (end - i >= kMinLanes) {
      const uint32_t n = uint32_t(end - i);
      uint32_t ks[kV], tile[kV + 1];
      for (size_t v = 0; v < kV; ++v) {
        ks[v] = order[i + std::min<size_t>(v, n - 1)];
        tile[v] = oid[ks[v]];
      }
      tile[kV] = n;
      auto [id, fresh] = ids.insert(tile);
      if (fresh) p.tileIds.insert(p.tileIds.end(), tile, tile + kV);
      tasks.push_back(num::TileTask{id, uint32_t(b), uint32_t(p.outIdx.size()), 0, n});
      p.outIdx.insert(p.outIdx.end(), ks, ks + kV);
      i = end;
    }
    p.rest.insert(p.rest.end(), order.begin() + long(i), order.begin() + long(end));
  }
  // Tasks in runs of kRun on one tile (their tile loads shared), the runs ordered (run index within
  // its tile, tile): consecutive runs sweep the tiles, so a task's outputs land next to the previous
  // run's (in a GEMM: the same Rows and I, the next K packet) instead of a tile's worth apart.
  constexpr size_t kRun = 4;
  std::vector<uint32_t> rank(tasks.size()), seen(p.tiles(), 0);
  size_t runs = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    rank[i] = seen[tasks[i].tile]++;
    runs = std::max<size_t>(runs, rank[i] / kRun + 1);
  }
  const bool sweep = runs * p.tiles() <= 4 * tasks.size() + 4096;  // else (few tiles, skewed) by tile alone
  if (!sweep) runs = 1;
  std::vector<uint32_t> first(runs * p.tiles() + 1, 0);  // bucket (run, tile), stable
  auto bucket = [&](size_t i) { return (sweep ? size_t(rank[i] / kRun) : 0) * p.tiles() + tasks[i].tile; };
  for (size_t i = 0; i < tasks.size(); ++i) ++first[bucket(i) + 1];
  for (size_t b = 0; b + 1 < first.size(); ++b) first[b + 1] += first[b];
  p.tasks.resize(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) p.tasks[first[bucket(i)]++] = tasks[i];
  return p;
}

}  // namespace

TilePlan TilePlan::of(const std::vector<uint32_t> &xid, size_t xs, const std::vector<uint32_t> &wid, size_t ws) {
  TilePlan byX = plan(xid, xs, wid, true), byW = plan(wid, ws, xid, false);
  // The side that covers more packets; on a tie the one with fewer tiles to fill per slice.
  bool x = byX.tasks.size() > byW.tasks.size() || (byX.tasks.size() == byW.tasks.size() && byX.tiles() <= byW.tiles());
  TilePlan p = std::move(x ? byX : byW);
  for (uint32_t k : p.rest) {
    p.restX.push_back(xid[k]);
    p.restW.push_back(wid[k]);
  }
  return p;
}

}  // namespace tcp::interp
