// DeviceMemory.cpp — element loads/stores, range checks and the sparse HBM of the CPU model.
#include "DeviceMemory.h"

#include "Device.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <sstream>

namespace tcp::interp {

namespace {
uint32_t signExtend(uint32_t v, unsigned bits) {
  if (bits >= 32) return v;
  uint32_t m = 1u << (bits - 1);
  v &= (1u << bits) - 1;
  return (v ^ m) - m;
}
}  // namespace

uint32_t loadElem(const uint8_t *base, num::DType t, uint64_t pos) {
  unsigned bits = num::storageBits(t);
  uint32_t v = 0;
  if (bits == 4) {
    v = (base[pos / 2] >> ((pos & 1) * 4)) & 0xF;
  } else {
    std::memcpy(&v, base + pos * (bits / 8), bits / 8);  // little-endian host
  }
  return num::isInteger(t) ? signExtend(v, bits) : v;
}

void storeElem(uint8_t *base, num::DType t, uint64_t pos, uint32_t bits) {
  unsigned n = num::storageBits(t);
  if (n == 4) {
    uint8_t &b = base[pos / 2];
    unsigned sh = (pos & 1) * 4;
    b = uint8_t((b & ~(0xF << sh)) | ((bits & 0xF) << sh));
  } else {
    std::memcpy(base + pos * (n / 8), &bits, n / 8);
  }
}

void checkRange(const std::string &tensor, const char *memory, uint64_t address, uint64_t bytes, uint64_t limit) {
  if (address <= limit && bytes <= limit - address) return;
  std::ostringstream os;
  os << tensor << " at " << memory << " address " << address << " spans " << bytes << " bytes, beyond the " << memory
     << " limit of " << limit << " bytes";
  throw DeviceError{os.str()};
}

void FreeDeleter::operator()(uint8_t *p) const {
  if (owned) munmap(p, bytes);
}

ZeroBuffer zeroBuffer(uint64_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return ZeroBuffer(static_cast<uint8_t *>(p), FreeDeleter{bytes});
}

ZeroBuffer alignedZeroBuffer(uint64_t bytes) {
  // Mapped with a huge page of slack, then trimmed to a 2 MiB aligned start (mmap aligns to 4 KiB only).
  void *raw = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (kHugePageBytes > aligned - start) munmap(reinterpret_cast<void *>(aligned + bytes), kHugePageBytes - (aligned - start));
  return ZeroBuffer(reinterpret_cast<uint8_t *>(aligned), FreeDeleter{bytes});
}

void adviseHugePages(uint8_t *p, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages the memory is ordinary
#else
  (void)p, (void)bytes;
#endif
}

std::vector<bool> residentPages(const uint8_t *p, uint64_t bytes) {
  const uint64_t pageBytes = uint64_t(sysconf(_SC_PAGESIZE)), pages = (bytes + pageBytes - 1) / pageBytes;
  std::vector<unsigned char> in(pages);
  if (mincore(const_cast<uint8_t *>(p), bytes, in.data()) != 0) return std::vector<bool>(pages, true);
  std::vector<bool> out(pages);
  for (uint64_t i = 0; i < pages; ++i) out[i] = in[i] & 1;
  return out;
}

uint64_t residentBytes(const ZeroBuffer &p) {
  if (!p) return 0;
  const std::vector<bool> in = residentPages(p.get(), p.get_deleter().bytes);
  return uint64_t(std::count(in.begin(), in.end(), true)) * uint64_t(sysconf(_SC_PAGESIZE));
}

uint64_t Hbm::residentBytes() const {
  uint64_t n = 0;
  for (const auto &[index, pg] : pages_) n += interp::residentBytes(pg);
  return n;
}

uint8_t *Hbm::page(uint64_t index, bool create, uint64_t writeBytes) const {
  auto it = pages_.find(index);
  if (it != pages_.end()) return it->second.get();
  if (!create) return nullptr;
  ZeroBuffer p = alignedZeroBuffer(kHbmPageBytes);
  if (8 * writeBytes >= kHbmPageBytes) adviseHugePages(p.get(), kHbmPageBytes);
  uint8_t *raw = p.get();
  pages_.emplace(index, std::move(p));
  return raw;
}

uint32_t Hbm::load(uint64_t address, num::DType t, uint64_t pos) const {
  unsigned bits = num::storageBits(t);
  uint64_t byte = address + (bits == 4 ? pos / 2 : pos * (bits / 8));
  uint8_t buf[4] = {0, 0, 0, 0};
  unsigned n = bits == 4 ? 1 : bits / 8;
  if (byte % kHbmPageBytes + n <= kHbmPageBytes) {  // one page (aligned tensors: always)
    const uint8_t *pg = page(byte / kHbmPageBytes, false);
    if (!pg) return 0;
    std::memcpy(buf, pg + byte % kHbmPageBytes, n);
    return loadElem(buf, t, bits == 4 ? (pos & 1) : 0);
  }
  for (unsigned k = 0; k < n; ++k) {
    const uint8_t *pg = page((byte + k) / kHbmPageBytes, false);
    buf[k] = pg ? pg[(byte + k) % kHbmPageBytes] : 0;
  }
  return loadElem(buf, t, bits == 4 ? (pos & 1) : 0);
}

void Hbm::store(uint64_t address, num::DType t, uint64_t pos, uint32_t value) {
  unsigned bits = num::storageBits(t);
  uint64_t byte = address + (bits == 4 ? pos / 2 : pos * (bits / 8));
  unsigned n = bits == 4 ? 1 : bits / 8;
  uint8_t buf[4] = {0, 0, 0, 0};
  if (bits == 4) {
    buf[0] = page(byte / kHbmPageBytes, true)[byte % kHbmPageBytes];
    storeElem(buf, t, pos & 1, value);
  } else {
    storeElem(buf, t, 0, value);
  }
  for (unsigned k = 0; k < n; ++k) page((byte + k) / kHbmPageBytes, true)[(byte + k) % kHbmPageBytes] = buf[k];
}

void Hbm::read(uint64_t address, uint8_t *out, uint64_t n) const {
  while (n) {
    uint64_t off = address % kHbmPageBytes, run = std::min(n, kHbmPageBytes - off);
    const uint8_t *pg = page(address / kHbmPageBytes, false);
    if (pg)
      std::memcpy(out, pg + off, run);
    else
      std::memset(out, 0, run);
    address += run, out += run, n -= run;
  }
}

const uint8_t *Hbm::span(uint64_t address, uint64_t n) const {
  if (n == 0 || address % kHbmPageBytes + n > kHbmPageBytes) return nullptr;
  const uint8_t *pg = page(address / kHbmPageBytes, false);
  return pg ? pg + address % kHbmPageBytes : nullptr;
}

void Hbm::write(uint64_t address, const uint8_t *in, uint64_t n) {
  while (n) {
    uint64_t off = address % kHbmPageBytes, run = std::min(n, kHbmPageBytes - off);
    std::memcpy(page(address / kHbmPageBytes, true, run) + off, in, run);
    address += run, in += run, n -= run;
  }
}

uint8_t *ChipSram::slice(size_t index) {
  std::call_once(mapped_, [&] {
    region_ = alignedZeroBuffer(SliceMemories::kPerChip * sliceBytes_);
    if (huge_) adviseHugePages(region_.get(), SliceMemories::kPerChip * sliceBytes_);
  });
  return region_.get() + index * sliceBytes_;
}

uint8_t *SliceMemory::view(ZeroBuffer &p, ChipSram &sram, uint64_t bytes) {
  p = ZeroBuffer(sram.slice(index), FreeDeleter{bytes, false});
  return p.get();
}

void ChipDm::reserve(uint64_t bytes) {
  assert(bytes <= kDmBytes && "a DM range past the DM is the caller's error to report");
  const uint64_t stride = strideFor(bytes);
  if (stride <= stride_) return;
  ZeroBuffer grown = alignedZeroBuffer(SliceMemories::kPerChip * stride);
  if (region_) {
    // Only the pages the slices have touched are copied, and only those holding a nonzero byte: a
    // page never written reads 0 in the new region without being touched. The copy goes in runs of
    // kPageBytes (a stride is whole runs), the OS's pages may be larger.
    const uint64_t bytesHeld = SliceMemories::kPerChip * stride_, osPage = uint64_t(sysconf(_SC_PAGESIZE));
    const std::vector<bool> in = residentPages(region_.get(), bytesHeld);
    static const uint8_t zeros[kPageBytes] = {};
    for (uint64_t at = 0; at < bytesHeld; at += kPageBytes) {
      const uint8_t *from = region_.get() + at;
      if (!in[at / osPage] || std::memcmp(from, zeros, kPageBytes) == 0) continue;
      std::memcpy(grown.get() + at / stride_ * stride + at % stride_, from, kPageBytes);
    }
  }
  region_ = std::move(grown);
  stride_ = stride;
}

void SliceMemories::reserveDm(uint64_t bytes) {
  const uint64_t stride = ChipDm::strideFor(std::max<uint64_t>(bytes, 1));  // an empty range still has an address
  if (stride <= dmStride_) return;
  dmStride_ = stride;
  for (auto &c : chipSrams_) c->dm.reserve(stride);
}

uint64_t SliceMemories::dmResidentBytes() const {
  uint64_t n = 0;
  for (const auto &c : chipSrams_) n += residentBytes(c->dm.region());
  return n;
}

void SliceMemories::reserveChips(unsigned n) {
  while (perChip_.size() < n) {
    chipSrams_.push_back(std::make_unique<ChipSrams>());
    if (dmStride_) chipSrams_.back()->dm.reserve(dmStride_);
    auto chip = std::make_unique<SliceMemory[]>(kPerChip);
    for (size_t s = 0; s < kPerChip; ++s) chip[s].chip = chipSrams_.back().get(), chip[s].index = uint32_t(s);
    perChip_.push_back(std::move(chip));
  }
}

}  // namespace tcp::interp
