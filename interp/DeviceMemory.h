// DeviceMemory.h — the model's memories: sparse HBM per chip, lazily allocated DM/TRF/VRF per slice, element access.
#pragma once

#include "Numerics.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcp::interp {

inline constexpr uint64_t kHbmBytes = 48ull << 30;     // per chip
inline constexpr uint64_t kHbmPageBytes = 1ull << 20;  // allocated on first write
inline constexpr uint64_t kDmBytes = 512ull << 10;     // per slice
inline constexpr uint64_t kTrfRowBytes = 8ull << 10;
inline constexpr uint64_t kTrfRows = 8;
inline constexpr uint64_t kTrfBytes = kTrfRowBytes * kTrfRows;
inline constexpr uint64_t kVrfBytes = 8ull << 10;
inline constexpr unsigned kClusters = 2, kSlicesPerCluster = 256;

// Element bits are right-aligned in 32 bits; integers are sign-extended on load.
uint32_t loadElem(const uint8_t *base, num::DType t, uint64_t pos);
void storeElem(uint8_t *base, num::DType t, uint64_t pos, uint32_t bits);

// Throws DeviceError unless [address, address + bytes) fits in `limit` bytes of `memory`.
void checkRange(const std::string &tensor, const char *memory, uint64_t address, uint64_t bytes, uint64_t limit);

// One chip's HBM: 1 MiB pages created on first write; bytes never written read as 0.
class Hbm {
 public:
  uint32_t load(uint64_t address, num::DType t, uint64_t pos) const;
  void store(uint64_t address, num::DType t, uint64_t pos, uint32_t bits);

 private:
  uint8_t *page(uint64_t index, bool create) const;
  mutable std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

// One slice's SRAMs, allocated on first use (a never-allocated memory reads as 0).
struct SliceMemory {
  std::unique_ptr<uint8_t[]> dm, trf, vrf;
  static uint8_t *get(std::unique_ptr<uint8_t[]> &p, uint64_t bytes);  // allocates zeroed
};

}  // namespace tcp::interp
