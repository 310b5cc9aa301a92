// HostValue.cpp — printing and equality of host-runtime objects.
#include "HostValue.h"

#include <algorithm>

#include "HostLimits.h"
#include "HostTensorOps.h"

namespace tcp::interp {

std::string HostTensorObj::typeStr() const { return hostTypeStr(data); }


std::optional<uint64_t> HostTensorObj::positionOf(const Index &index) const {
  if (indexedMapping_ != data.mapping) {
    // The table holds one sorted index per element (about 200 bytes each with its axis names).
    constexpr uint64_t kTableBytesPerElement = 200;
    // Row-major pairs of whole axes need none: their positions are computed.
    positions_.reset();
    if (IndexPositions::needsTable(*data.mapping))
      chargeMemory(data.mapping->size() * kTableBytesPerElement,
                   "`.get` on host tensor " + data.mapping->str() + " (an index table of " +
                       std::to_string(data.mapping->size()) + " entries)");
    positions_.emplace(*data.mapping);
    indexedMapping_ = data.mapping;
  }
  return positions_->find(index);
}

std::string HostTensorObj::debug() const {
  constexpr size_t kShown = 16;
  std::string s = typeStr() + " [";
  for (size_t k = 0; k < data.bits.size() && k < kShown; ++k) {
    if (k) s += ", ";
    s += elementValue(data.dtype, data.bits[k]).debug();
  }
  if (data.bits.size() > kShown) s += ", ... (" + std::to_string(data.bits.size()) + " elements)";
  return s + "]";
}

bool HostTensorObj::equals(const HostObject &o) const {
  auto *t = dynamic_cast<const HostTensorObj *>(&o);
  if (!t) return false;
  try {
    return !compareExact(data, t->data);
  } catch (const HostError &) {
    return false;
  }
}

std::string HbmTensorObj::debug() const {
  std::string s = type.str();
  if (view && s.rfind("HbmTensor<", 0) == 0) s = "HbmTensorView<" + s.substr(10);
  return s + " @ " + std::to_string(address);
}

}  // namespace tcp::interp
