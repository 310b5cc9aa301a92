// LaunchOverlaps.cpp — HBM tensor extents and overlap, and the launch-time rule: no HBM write of the kernel overlaps a parameter it reads at or after that write.
#include "DeviceImpl.h"

#include <algorithm>

namespace tcp::interp {

HbmExtent HbmExtent::of(const TensorType &t, uint64_t address) {
  return {address, address + t.elementBytes()};
}

std::string HbmExtent::str() const { return "[" + std::to_string(first) + ", " + std::to_string(last) + ")"; }

bool hbmOverlap(const TensorType &a, uint64_t aAddress, const TensorType &b, uint64_t bAddress) {
  const HbmExtent x = HbmExtent::of(a, aAddress), y = HbmExtent::of(b, bAddress);
  if (x.first >= y.last || y.first >= x.last) return false;
  if (!a.chip || !b.chip) return true;
  const uint64_t n = std::min<uint64_t>({a.chip->size(), b.chip->size(), uint64_t(1) << 16});
  for (uint64_t c = 0; c < n; ++c)
    if (a.chip->map(c) && b.chip->map(c)) return true;
  return false;
}

// The checker keeps tensors it placed apart ("Execution Contexts"); a parameter's address arrives with
// the launch, so a write into HBM over a parameter is found here. Reading a parameter after such a
// write (or in the same DMA) would read what the kernel wrote, not the argument.
void checkParameterOverwrites(const TypedFunction &kernel, const std::vector<uint64_t> &args) {
  const auto &ops = kernel.ops;
  for (size_t k = 0; k < kernel.tensors.size(); ++k) {
    const TypedTensor &p = kernel.tensors[k];
    if (p.param < 0 || size_t(p.param) >= args.size() || p.type.tier != Tier::Hbm) continue;
    const uint64_t address = args[size_t(p.param)];
    size_t lastRead = 0;
    bool read = false;
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].source == int(k)) lastRead = i, read = true;
    if (!read) continue;
    for (size_t i = 0; i <= lastRead; ++i) {
      const TypedOp &w = ops[i];
      if (w.out.tier != Tier::Hbm || !w.address || (w.name != "dma" && w.name != "to_hbm")) continue;
      if (!hbmOverlap(w.out, *w.address, p.type, address)) continue;
      const std::string who = p.name.empty() ? "a parameter" : "parameter `" + p.name + "`";
      throw DeviceError{"kernel `" + kernel.name + "`: the `." + w.name + "()` at line " + std::to_string(w.line) +
                        " writes HBM " + HbmExtent::of(w.out, *w.address).str() + ", over " + who + " at " +
                        HbmExtent::of(p.type, address).str() +
                        (i == lastRead ? ", which the same DMA reads"
                                       : ", which line " + std::to_string(ops[lastRead].line) + " reads afterwards") +
                        "; the kernel would read its own result, not the argument: give the write an HBM address "
                        "outside the parameter's bytes or pass the parameter at another address"};
    }
  }
}

}  // namespace tcp::interp
