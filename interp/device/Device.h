// Device.h — the CPU model of a TCP system: HBM per chip, DM/TRF/VRF per slice, and kernel execution.
#pragma once

#include "Lowering.h"
#include "TypedProgram.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcp::interp {

// A logical tensor on the host: one element per position of `mapping` (HostTensor<D, M>). Element
// bit patterns are right-aligned in 32-bit words (bf16 in the low 16 bits, i8 sign-extended, ...);
// positions that map to no element (padding) hold 0.
struct HostData {
  num::DType dtype = num::DType::f32;
  MappingRef mapping;
  std::vector<uint32_t> bits;
};

// A lookup table passed to a kernel at launch ("Table Indexing"): entry k (bits right-aligned like
// HostData) replaces a fetched value whose bit pattern is k (LookupTable.h).
struct LookupTableData {
  LookupTableType type;
  std::vector<uint32_t> entries;  // tableEntries(type.in) values of type.out
};

// An error while the model runs (out-of-range address, ...): reported as a runtime error.
struct DeviceError {
  std::string message;
};

class DeviceImpl;

// The bytes of HBM tensor `t` at `address` within each chip it occupies: [first, last).
struct HbmExtent {
  uint64_t first = 0, last = 0;
  static HbmExtent of(const TensorType &t, uint64_t address);
  std::string str() const;  // "[first, last)"
};
// Whether two HBM tensors share bytes on a chip that holds elements of both (LaunchOverlaps.cpp; the
// chips are compared among the first 65,536).
bool hbmOverlap(const TensorType &a, uint64_t aAddress, const TensorType &b, uint64_t bAddress);

// An HBM tensor a launch wrote (a `to_hbm` or `.dma()` into HBM) and the source line of its op.
struct HbmWrite {
  TensorType type;
  uint64_t address = 0;
  unsigned line = 0;
  std::string op;  // "dma", "to_hbm"
};

// Memories are real: HBM per chip and DM per slice are byte arrays written and read through the
// tensors' mappings at their addresses, so an address clash corrupts data as it would on the chip.
class Device {
 public:
  explicit Device(unsigned chips);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  unsigned chips() const;
  // Host memory the model takes per chip of a new device, and what launching `kernel` adds: the
  // slices of the chips it runs on that no launch has used yet (the host charges both to --max-memory).
  static uint64_t bytesPerChip();
  uint64_t launchBytes(const TypedFunction &kernel) const;

  // PCIe DMA: writes a host tensor into HBM as `hbmType` (Chip + Element mappings) at `address`
  // (bytes within each chip). Every element of the host tensor must have a place in hbmType.
  void toHbm(const HostData &host, const TensorType &hbmType, uint64_t address);
  // Throws DeviceError unless an HBM tensor of this type fits at `address` (chips, capacity, natural
  // alignment): the rule toHbm applies, for a handle made from a raw address.
  void checkHbmTensor(const TensorType &hbmType, uint64_t address) const;
  // PCIe DMA back: reads the HBM tensor into a host tensor with mapping `hostMapping`.
  HostData toHost(const TensorType &hbmType, uint64_t address, const MappingRef &hostMapping);

  // Runs a checked kernel. `args` are the HBM addresses of its tensor parameters, in order;
  // `tables` the contents of its lookup-table parameters (TypedFunction::tables), in order: they
  // are loaded into the Fetch Adapters for this launch only.
  // Returns the HBM address of the result (the kernel's returned HbmTensor), if any; a kernel
  // returning a tuple fills `tuple` with the HBM address of each member, in order.
  std::optional<uint64_t> launch(const TypedFunction &kernel, const FunctionConfig &config,
                                 const std::vector<uint64_t> &args, const std::vector<LookupTableData> &tables = {},
                                 std::vector<uint64_t> *tuple = nullptr);
  // The HBM tensors the last launch wrote, in program order (also when it failed part way).
  const std::vector<HbmWrite> &lastLaunchHbmWrites() const;
  // `to_dm` / `to_hbm` replay the derived DMA sequencers (default, as `.dma()` always does) or,
  // when off, move elements by tensor index (tests compare the two).
  void setReplayDma(bool on);

 private:
  std::unique_ptr<DeviceImpl> impl_;
};

}  // namespace tcp::interp
