// TypeRules.cpp — rules shared by every op: device sizes, capacities, tensor preservation, overlaps.
#include "EngineConfig.h"
#include "MappingNormalForm.h"
#include "TensorCoverage.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
bool sameMapping(const MappingRef &a, const MappingRef &b) {
  if (!a || !b) return a == b;
  return a->str() == b->str() || equivalent(a, b);
}

std::string kb(uint64_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KB";
  return std::to_string(bytes) + " bytes";
}
}  // namespace

bool sameType(const TensorType &a, const TensorType &b) {
  if (a.tier != b.tier || a.dtype != b.dtype) return false;
  if (a.tier == Tier::Stream && a.stage != b.stage) return false;
  if (a.ctx != b.ctx && a.ctx != Ctx::Unknown && b.ctx != Ctx::Unknown) return false;
  auto da = a.dims(), db = b.dims();
  if (da.size() != db.size()) return false;
  for (size_t k = 0; k < da.size(); ++k)
    if (!sameMapping(da[k].second, db[k].second)) return false;
  return true;
}

void TypeChecker::FunctionChecker::checkDeviceDims(const TensorType &t, llvm::SMRange r, bool checkChip) {
  // A kernel is launched on whole chips: its tensors match the hardware exactly ("Size Constraint",
  // padded with `#`; the Note: "the runtime operates at chip granularity"). A stage function is a
  // fragment that is never launched on its own (the manual's engine listings show one cluster,
  // `m![1]`, or a few slices): its tensors must fit the hardware, not fill it.
  bool exact = inKernel();
  if (exact && checkChip && t.chip && out_.chips && t.chip->size() != out_.chips)
    error(r, "`Chip` of " + t.str() + " has size " + std::to_string(t.chip->size()) + " but the kernel runs on " +
                 std::to_string(out_.chips) + " chip(s) (`#[device(chip = " + std::to_string(out_.chips) +
                 ")]`); Chip::SIZE must equal the chip count (" +
                 (t.chip->size() < out_.chips ? "pad it, e.g. `m![" + t.chip->body() + " # " + std::to_string(out_.chips) + "]`"
                                              : std::string("move the extra axes to the Element, e.g. `Chip = m![1]`")) +
                 ")");
  if (t.cluster && (exact ? t.cluster->size() != 2 : t.cluster->size() > 2))
    error(r, "`Cluster` " + t.cluster->str() + " has size " + std::to_string(t.cluster->size()) +
                 "; a chip has 2 clusters and Cluster::SIZE must be " + (exact ? "2 (" : "at most 2 in a stage function (") +
                 (t.cluster->size() < 2 ? "pad it, e.g. `m![1 # 2]`)" : "move the rest to Slice or the Element)"));
  if (t.slice && (exact ? t.slice->size() != 256 : t.slice->size() > 256))
    error(r, "`Slice` " + t.slice->str() + " has size " + std::to_string(t.slice->size()) +
                 "; a cluster has 256 slices and Slice::SIZE must be " + (exact ? "256 (" : "at most 256 in a stage function (") +
                 (t.slice->size() < 256 ? "pad it, e.g. `m![X / N # 256]`)"
                  // `e # 512` over-pads e: pad it to 256 instead (its positions beyond 256 hold nothing)
                  : t.slice->kind() == Mapping::Pad && !t.slice->children().empty() && t.slice->children()[0]->size() <= 256
                      ? "pad it to 256: `m![" + t.slice->children()[0]->body() + " # 256]`)"
                      : "move the rest to the Element)"));
}

void TypeChecker::FunctionChecker::checkCapacity(const TensorType &t, llvm::SMRange r, std::optional<uint64_t> address) {
  uint64_t bytes = t.elementBytes();
  uint64_t base = address.value_or(0);
  auto over = [&](uint64_t cap, const std::string &unit, const std::string &rule) {
    if (bytes > cap)
      error(r, std::string(tierName(t.tier)) + " element " + t.element->str() + " needs " + kb(bytes) + " per " + unit +
                   " but " + unit + " capacity is " + kb(cap) + " (" + rule + ")");
    else if (address && base + bytes > cap)
      error(r, std::string(tierName(t.tier)) + " at address " + std::to_string(base) + " with " + kb(bytes) +
                   " ends at " + std::to_string(base + bytes) + ", past the " + kb(cap) + " " + unit + " capacity");
  };
  switch (t.tier) {
    case Tier::Dm: over(kDmBytesPerSlice, "slice", "DM is 512 KB per slice"); break;
    case Tier::Vrf: over(kVrfBytesPerSlice, "slice", "VRF is 8 KB per slice"); break;
    case Tier::Hbm: over(kHbmBytesPerChip, "chip", "HBM is 48 GB per chip"); break;
    case Tier::Trf: {
      uint64_t rows = t.row ? t.row->size() : 1;
      if (rows != 1 && rows != 2 && rows != 4 && rows != 8)
        error(r, "`Row` " + (t.row ? t.row->str() : std::string("?")) + " has size " + std::to_string(rows) +
                     "; the Contraction Engine uses 1, 2, 4 or 8 Rows");
      over(kTrfBytesPerRow, "Row", "TRF is 8 KB per Row");
      break;
    }
    default: break;
  }
  if (address && t.tier != Tier::Trf) {
    uint64_t align = num::naturalAlignment(t.dtype);
    if (*address % align)
      error(r, "address " + std::to_string(*address) + " is not a multiple of " + std::to_string(align) + " (the size of " +
                   num::dtypeName(t.dtype) + "); the Element dimension must be naturally aligned");
  }
}

void TypeChecker::FunctionChecker::checkPreserved(const std::vector<MappingRef> &src, const std::vector<MappingRef> &dst,
                                                 llvm::SMRange r, const std::string &op,
                                                 const std::vector<std::string> &ignore) {
  for (const auto &m : src)
    if (!m) return;
  for (const auto &m : dst)
    if (!m) return;
  if (auto problem = tensorPreserved(src, dst, ignore))
    error(r, "`." + op + "()` must keep the tensor (every op is a function on the mathematical tensor), but " + *problem);
}

int TypeChecker::FunctionChecker::place(const TensorType &t, const std::string &name, llvm::SMRange range,
                                       std::optional<uint64_t> address) {
  PlacedTensor p;
  p.type = t;
  p.name = name;
  p.range = range;
  p.created = seq_;
  p.lastUse = seq_;
  if (address) {
    p.address = *address;
    p.placed = true;
  }
  p.bytes = t.tier == Tier::Stream ? 0 : t.elementBytes();
  tensors_.push_back(p);
  int id = static_cast<int>(tensors_.size()) - 1;
  if (resultPending_ && !out_.ops.empty()) out_.ops.back().result = id;
  resultPending_ = false;
  return id;
}

void TypeChecker::FunctionChecker::checkOverlaps() {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const PlacedTensor &a = tensors_[i];
    if (!a.placed || (a.type.tier != Tier::Dm && a.type.tier != Tier::Hbm)) continue;
    for (size_t j = i + 1; j < tensors_.size(); ++j) {
      const PlacedTensor &b = tensors_[j];
      if (!b.placed || b.type.tier != a.type.tier) continue;
      auto root = [&](size_t k) { return tensors_[k].aliasOf >= 0 ? size_t(tensors_[k].aliasOf) : k; };
      if (root(i) == root(j)) continue;  // a tile view names bytes of its tensor
      if (staleReported_.count({int(i), int(j)})) continue;  // reported where the stale handle is read
      bool alive = a.created <= b.lastUse && b.created <= a.lastUse;
      bool overlap = a.address < b.address + b.bytes && b.address < a.address + a.bytes;
      if (!alive || !overlap) continue;
      const char *mem = a.type.tier == Tier::Dm ? "DM" : "HBM";
      std::string an = a.name.empty() ? "a tensor" : "`" + a.name + "`";
      std::string bn = b.name.empty() ? "the result" : "`" + b.name + "`";
      error(b.range, bn + " occupies " + mem + " [" + std::to_string(b.address) + ", " + std::to_string(b.address + b.bytes) +
                         ") which overlaps " + an + " at [" + std::to_string(a.address) + ", " +
                         std::to_string(a.address + a.bytes) + ") while both are in use; give them disjoint addresses");
      diags().note(a.range, an + " is placed here");
    }
  }
}

}  // namespace tcp
