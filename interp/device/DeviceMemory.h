// DeviceMemory.h — the model's memories: sparse HBM per chip, lazily allocated DM/TRF/VRF per slice, element access.
#pragma once

#include "Numerics.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcp::interp {

inline constexpr uint64_t kHbmBytes = 48ull << 30;     // per chip
inline constexpr uint64_t kHbmPageBytes = 2ull << 20;  // allocated on first write (a huge page where the OS has them)
inline constexpr uint64_t kDmBytes = 512ull << 10;     // per slice
inline constexpr uint64_t kTrfRowBytes = 8ull << 10;
inline constexpr uint64_t kTrfRows = 8;
inline constexpr uint64_t kTrfBytes = kTrfRowBytes * kTrfRows;
inline constexpr uint64_t kVrfBytes = 8ull << 10;
inline constexpr unsigned kClusters = 2, kSlicesPerCluster = 256;

// Element bits are right-aligned in 32 bits; integers are sign-extended on load.
uint32_t loadElem(const uint8_t *base, num::DType t, uint64_t pos);
void storeElem(uint8_t *base, num::DType t, uint64_t pos, uint32_t bits);

// loadElem/storeElem for one element type, decided once (the hot loops of the chain steps).
struct ElemCodec {
  unsigned bits = 32;
  bool sext = false;  // integers
  explicit ElemCodec(num::DType t) : bits(num::storageBits(t)), sext(num::isInteger(t)) {}
  uint32_t load(const uint8_t *base, uint64_t pos) const {
    uint32_t v;
    switch (bits) {
      case 4: v = (base[pos / 2] >> ((pos & 1) * 4)) & 0xF; break;
      case 8: v = base[pos]; break;
      case 16: { uint16_t h; std::memcpy(&h, base + 2 * pos, 2); v = h; break; }
      default: std::memcpy(&v, base + 4 * pos, 4); return v;
    }
    if (!sext) return v;
    uint32_t m = 1u << (bits - 1);
    return (v ^ m) - m;
  }
  void store(uint8_t *base, uint64_t pos, uint32_t v) const {
    switch (bits) {
      case 4: { uint8_t &b = base[pos / 2]; unsigned sh = (pos & 1) * 4; b = uint8_t((b & ~(0xF << sh)) | ((v & 0xF) << sh)); break; }
      case 8: base[pos] = uint8_t(v); break;
      case 16: { uint16_t h = uint16_t(v); std::memcpy(base + 2 * pos, &h, 2); break; }
      default: std::memcpy(base + 4 * pos, &v, 4); break;
    }
  }
};

// Throws DeviceError unless [address, address + bytes) fits in `limit` bytes of `memory`.
void checkRange(const std::string &tensor, const char *memory, uint64_t address, uint64_t bytes, uint64_t limit);

// Zeroed buffers mapped from the OS: zero pages are mapped lazily, so untouched memory costs nothing.
// `owned` is false for a part of a larger buffer (a slice's SRAM in its chip's region, ChipSram),
// which that buffer unmaps.
struct FreeDeleter {
  uint64_t bytes = 0;
  bool owned = true;
  void operator()(uint8_t *p) const;
};
using ZeroBuffer = std::unique_ptr<uint8_t[], FreeDeleter>;
ZeroBuffer zeroBuffer(uint64_t bytes);
// A zero buffer whose start is 2 MiB aligned, so that adviseHugePages can back any aligned 2 MiB of it
// with one huge page.
inline constexpr uint64_t kHugePageBytes = 2ull << 20;
ZeroBuffer alignedZeroBuffer(uint64_t bytes);
// Asks the OS to back [p, p + bytes) (2 MiB aligned) with transparent huge pages where the kernel
// offers them: one page fault and one zeroing per 2 MiB instead of per 4 KiB, which is most of the cost
// of filling fresh memory on a virtual machine. Worth it only where most of the range is written: a
// huge page is resident whole.
void adviseHugePages(uint8_t *p, uint64_t bytes);
// Which of the OS pages (sysconf(_SC_PAGESIZE) bytes each) of [p, p + bytes) are backed with memory
// (written or read so far; mincore); all of them where mincore fails.
std::vector<bool> residentPages(const uint8_t *p, uint64_t bytes);
// Bytes of a zero buffer the OS has backed with memory.
uint64_t residentBytes(const ZeroBuffer &p);

// One chip's HBM: 2 MiB pages created on first write; bytes never written read as 0.
class Hbm {
 public:
  uint32_t load(uint64_t address, num::DType t, uint64_t pos) const;
  void store(uint64_t address, num::DType t, uint64_t pos, uint32_t bits);
  // Bulk copies of n bytes, one memcpy per page touched (bytes never written read as 0).
  void read(uint64_t address, uint8_t *out, uint64_t n) const;
  void write(uint64_t address, const uint8_t *in, uint64_t n);
  // The bytes [address, address + n) in place, when they lie in one page that exists; else nullptr.
  const uint8_t *span(uint64_t address, uint64_t n) const;
  // Creates page `index` ahead of writes of `writeBytes` bytes in all, in pieces (a DMA's steps), so
  // that a page written enough is one huge page and not hundreds of 4 KiB faults.
  void preparePage(uint64_t index, uint64_t writeBytes) { page(index, true, writeBytes); }
  uint64_t residentBytes() const;  // of every page created

 private:
  // The page `index` (nullptr if absent and !create); a page created for a write of at least an eighth
  // of it is a huge page (the DMs' rule, prefaultDm: one huge page costs about what 64 fresh 4 KiB do).
  uint8_t *page(uint64_t index, bool create, uint64_t writeBytes = 0) const;
  mutable std::unordered_map<uint64_t, ZeroBuffer> pages_;
};

// One SRAM of every slice of a chip, slice after slice in one 2 MiB-aligned region mapped at its first
// use. The TRFs (64 KiB) and VRFs (8 KiB) of a chip are huge pages from the start (32 and 256 slices a
// page: their first touch, 4 KiB at a time, was a launch's fixed cost).
class ChipSram {
 public:
  ChipSram(uint64_t sliceBytes, bool huge) : sliceBytes_(sliceBytes), huge_(huge) {}
  uint8_t *slice(size_t index);  // the SRAM of slice `index` of the chip (thread-safe)

 private:
  uint64_t sliceBytes_;
  bool huge_;
  std::once_flag mapped_;
  ZeroBuffer region_;
};

// The DMs of every slice of a chip, slice after slice in one 2 MiB-aligned region, each `stride` bytes:
// the bytes the launches so far address (rounded up to 4 KiB), not the architectural 512 KiB. What
// the slices use is then dense, so the DMAs that fill it fill whole huge pages (prefaultDm): at 512³ a
// GEMM uses 32 KiB of each DM, which on a 512 KiB stride was 6 % of every huge page and stayed on 4 KiB
// pages (benchmarks/README.md, sixth round). A DM address at or past the stride is never touched:
// every range the model reads or writes is reserved first (DeviceImpl::reserveDm), between the pool's
// runs; growing copies what the slices hold.
class ChipDm {
 public:
  uint8_t *slice(size_t index) const {
    assert(stride_ > 0 && "a DM read or written before its range was reserved");
    return region_.get() + index * stride_;
  }
  uint64_t stride() const { return stride_; }
  void reserve(uint64_t bytes);  // stride() == strideFor(bytes) or more afterwards (not thread-safe)
  static constexpr uint64_t kPageBytes = 4096;  // the stride's unit (and prefaultDm's page)
  static uint64_t strideFor(uint64_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }
  const ZeroBuffer &region() const { return region_; }

 private:
  uint64_t stride_ = 0;
  ZeroBuffer region_;
};

struct ChipSrams {
  ChipDm dm;
  ChipSram trf{kTrfBytes, true}, vrf{kVrfBytes, true};
};

// One slice's SRAMs, each a view of the slice's part of its chip's region (not owned), made on first
// use (a never-used memory reads as 0). The DM is not cached: its chip's stride grows.
struct SliceMemory {
  ZeroBuffer trf, vrf;
  ChipSrams *chip = nullptr;
  uint32_t index = 0;  // in its chip
  uint8_t *dmData() { return chip->dm.slice(index); }
  uint8_t *trfData() { return trf ? trf.get() : view(trf, chip->trf, kTrfBytes); }
  uint8_t *vrfData() { return vrf ? vrf.get() : view(vrf, chip->vrf, kVrfBytes); }

 private:
  uint8_t *view(ZeroBuffer &p, ChipSram &sram, uint64_t bytes);
};

// The slices of every chip, (chip * kClusters + cluster) * kSlicesPerCluster + slice, allocated a chip at
// a time when a launch first needs the chip: a device of many chips costs nothing for the chips no launch uses.
class SliceMemories {
 public:
  static constexpr size_t kPerChip = size_t(kClusters) * kSlicesPerCluster;
  static constexpr uint64_t kBytesPerChip = kPerChip * sizeof(SliceMemory) + sizeof(ChipSrams);  // before any SRAM is touched
  // Allocates the slices of chips [0, n) (not thread-safe: before the pool runs on them).
  void reserveChips(unsigned n);
  // Every chip's DMs hold at least `bytes` (<= kDmBytes; at least 1) per slice, chips reserved later too
  // (not thread-safe).
  void reserveDm(uint64_t bytes);
  uint64_t dmStride() const { return dmStride_; }  // of every chip's DMs (ChipDm::stride)
  uint64_t dmResidentBytes() const;  // of every chip's DM region
  unsigned chipsReserved() const { return unsigned(perChip_.size()); }
  size_t size() const { return perChip_.size() * kPerChip; }  // slices allocated
  SliceMemory &operator[](size_t id) {
    assert(id / kPerChip < perChip_.size() && "a slice of a chip not reserved");
    return perChip_[id / kPerChip][id % kPerChip];
  }
  const SliceMemory &operator[](size_t id) const {
    assert(id / kPerChip < perChip_.size() && "a slice of a chip not reserved");
    return perChip_[id / kPerChip][id % kPerChip];
  }

 private:
  std::vector<std::unique_ptr<ChipSrams>> chipSrams_;  // the memory perChip_'s slices view
  uint64_t dmStride_ = 0;                               // every chip's ChipDm::stride()
  std::vector<std::unique_ptr<SliceMemory[]>> perChip_;
};

}  // namespace tcp::interp
