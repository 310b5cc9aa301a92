// DeviceDma.cpp — slice enumeration, the thread pool and the kernel DMAs to_dm / to_hbm of the CPU model.
#include "DeviceImpl.h"

#include <llvm/Support/ThreadPool.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <exception>
#include <mutex>

namespace tcp::interp {

std::optional<uint64_t> Placements::latest(const std::vector<PlacedAt> &v, const TensorType &t) {
  std::string s = t.str();
  for (size_t i = v.size(); i-- > 0;)
    if (v[i].type == s) return v[i].address;
  return std::nullopt;
}

void Placements::add(std::vector<PlacedAt> &list, int id, const TensorType &t, uint64_t address) {
  list.push_back({t.str(), address});
  if (id >= 0) byId[id] = address;
}

std::optional<uint64_t> Placements::find(int id, const std::vector<PlacedAt> &list, const TensorType &t) const {
  if (id >= 0) {
    auto it = byId.find(id);
    if (it != byId.end()) return it->second;
  }
  return latest(list, t);
}

// The pool's threads are started with the device, not by the first launch's first loop (about 1 ms).
DeviceImpl::DeviceImpl(unsigned n) : chips(n), hbm(n) { parallelFor(llvm::hardware_concurrency().compute_thread_count(), [](size_t) {}); }

std::vector<ActiveSlice> DeviceImpl::activeSlices(const TensorType &t, const AxisSpace &space) const {
  auto need = [&](const MappingRef &m, uint64_t limit, const char *what) {
    if (m && m->size() > limit)
      throw DeviceError{t.str() + ": " + what + " mapping " + m->str() + " has " + std::to_string(m->size()) +
                        " positions but the device has " + std::to_string(limit)};
  };
  need(t.chip, chips, "Chip");
  need(t.cluster, kClusters, "Cluster");
  need(t.slice, kSlicesPerCluster, "Slice");
  auto keys = [&](const MappingRef &m) { return m ? keyTable(m, space) : std::vector<int64_t>{0}; };
  std::vector<int64_t> ck = keys(t.chip), lk = keys(t.cluster), sk = keys(t.slice);
  std::vector<ActiveSlice> out;
  for (size_t c = 0; c < ck.size(); ++c)
    for (size_t l = 0; l < lk.size(); ++l)
      for (size_t s = 0; s < sk.size(); ++s)
        if (ck[c] >= 0 && lk[l] >= 0 && sk[s] >= 0)
          out.push_back({unsigned((c * kClusters + l) * kSlicesPerCluster + s), ck[c] + lk[l] + sk[s]});
  return out;
}

namespace {
// One pool for the process: its threads start on first use and serve every later loop.
llvm::ThreadPool &devicePool() {
  static llvm::ThreadPool pool(llvm::hardware_concurrency());
  return pool;
}
}  // namespace

void DeviceImpl::parallelFor(size_t n, const std::function<void(size_t)> &fn) {
  if (n == 0) return;
  llvm::ThreadPool &pool = devicePool();
  size_t workers = std::min<size_t>(pool.getThreadCount(), n);
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
  // Each worker takes the next index until none is left; the first exception stops the loop.
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next = n;
      }
    }
  };
  if (workers <= 1) {
    work();
  } else {
    // A task group waits for its own tasks only (and may be waited on from a pool thread).
    llvm::ThreadPoolTaskGroup group(pool);
    for (size_t k = 0; k < workers; ++k) group.async(work);
    group.wait();
  }
  if (error) std::rethrow_exception(error);
}

void DeviceImpl::dmaToDm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr) {
  if (src.dtype != dst.dtype) throw DeviceError{"to_dm cannot change the element type: " + src.str() + " -> " + dst.str()};
  num::DType t = dst.dtype;
  uint64_t srcElems = src.element->size();
  checkRange(src.str(), "HBM", srcAddr, num::storageBytes(t, srcElems), kHbmBytes);
  reserveDm(dst.str(), dstAddr, dst.elementBytes());
  unaliasDm(dstAddr, dstAddr + dst.elementBytes());  // (it writes the elements, not the padding between)
  if (src.chip->size() > chips)
    throw DeviceError{src.str() + ": the Chip mapping needs " + std::to_string(src.chip->size()) + " chips, the device has " +
                      std::to_string(chips)};
  // Broadcast: the DM index is projected onto the source's axes.
  AxisSpace space = AxisSpace::of({src.chip, src.element});
  KeyIndex srcIndex(combineKeys(keyTable(src.chip, space), keyTable(src.element, space), space));
  std::vector<int64_t> elemKeys = keyTable(dst.element, space);
  std::vector<ActiveSlice> active = activeSlices(dst, space);
  ElemCodec codec(t);
  parallelFor(active.size(), [&](size_t i) {
    uint8_t *dm = slices[active[i].id].dmData() + dstAddr;
    for (size_t e = 0; e < elemKeys.size(); ++e) {
      if (elemKeys[e] < 0) continue;
      int64_t pos = srcIndex.find(active[i].key + elemKeys[e]);
      if (pos < 0) continue;
      codec.store(dm, e, hbm[pos / srcElems].load(srcAddr, t, pos % srcElems));
    }
  });
}

void DeviceImpl::dmaToHbm(const TensorType &src, uint64_t srcAddr, const TensorType &dst, uint64_t dstAddr) {
  if (src.dtype != dst.dtype) throw DeviceError{"to_hbm cannot change the element type: " + src.str() + " -> " + dst.str()};
  num::DType t = dst.dtype;
  reserveDm(src.str(), srcAddr, src.elementBytes());
  unaliasDm(srcAddr, srcAddr + src.elementBytes());  // (each slice reads its own DM below)
  checkRange(dst.str(), "HBM", dstAddr, num::storageBytes(t, dst.element->size()), kHbmBytes);
  if (dst.chip->size() > chips)
    throw DeviceError{dst.str() + ": the Chip mapping needs " + std::to_string(dst.chip->size()) + " chips, the device has " +
                      std::to_string(chips)};
  AxisSpace space = AxisSpace::of({src.chip, src.cluster, src.slice, src.element});
  std::vector<ActiveSlice> active = activeSlices(src, space);
  std::vector<int64_t> elemKeys = keyTable(src.element, space);
  std::vector<int64_t> srcKeys;
  srcKeys.reserve(active.size() * elemKeys.size());
  for (const ActiveSlice &a : active)
    for (int64_t k : elemKeys) srcKeys.push_back(k < 0 ? -1 : a.key + k);
  KeyIndex srcIndex(srcKeys);
  std::vector<int64_t> chipKeys = keyTable(dst.chip, space), dstKeys = keyTable(dst.element, space);
  size_t E = elemKeys.size();
  ElemCodec codec(t);
  for (size_t c = 0; c < chipKeys.size(); ++c) {
    if (chipKeys[c] < 0) continue;
    unaliasHbm(unsigned(c), dstAddr, dstAddr + num::storageBytes(t, dst.element->size()));
    for (size_t e = 0; e < dstKeys.size(); ++e) {
      if (dstKeys[e] < 0) continue;
      int64_t pos = srcIndex.find(chipKeys[c] + dstKeys[e]);
      if (pos < 0) continue;
      const uint8_t *dm = slices[active[pos / E].id].dmData() + srcAddr;
      hbm[c].store(dstAddr, t, e, codec.load(dm, pos % E));
    }
  }
}

}  // namespace tcp::interp
