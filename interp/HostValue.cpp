// HostValue.cpp — printing and equality of host-runtime objects.
#include "HostValue.h"

#include <algorithm>

#include "HostTensorOps.h"

namespace tcp::interp {

std::string HostTensorObj::typeStr() const { return hostTypeStr(data); }

namespace {
std::vector<std::pair<std::string, int64_t>> indexKey(const Index &index) {
  auto key = index.entries();
  std::sort(key.begin(), key.end());
  return key;
}
}  // namespace

std::optional<uint64_t> HostTensorObj::positionOf(const Index &index) const {
  if (indexedMapping_ != data.mapping) {
    positions_.clear();
    for (uint64_t p = 0; p < data.bits.size(); ++p)
      if (auto at = data.mapping->map(p)) positions_.emplace(indexKey(*at), p);  // first position wins
    indexedMapping_ = data.mapping;
  }
  auto it = positions_.find(indexKey(index));
  if (it == positions_.end()) return std::nullopt;
  return it->second;
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

std::string HbmTensorObj::debug() const { return type.str() + " @ " + std::to_string(address); }

}  // namespace tcp::interp
