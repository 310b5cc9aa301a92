// LaunchOverlaps.cpp — at launch, when parameter addresses are known: no HBM write of the kernel overlaps a parameter it reads at or after that write.
#include "DeviceImpl.h"

#include <algorithm>

namespace tcp::interp {

namespace {
// Whether some chip position holds elements of both HBM tensors (looked for among the first 65,536).
bool shareChip(const TensorType &a, const TensorType &b) {
  if (!a.chip || !b.chip) return true;
  const uint64_t n = std::min<uint64_t>({a.chip->size(), b.chip->size(), uint64_t(1) << 16});
  for (uint64_t c = 0; c < n; ++c)
    if (a.chip->map(c) && b.chip->map(c)) return true;
  return false;
}
uint64_t hbmBytes(const TensorType &t) { return t.element ? num::storageBytes(t.dtype, t.element->size()) : 0; }
std::string range(uint64_t first, uint64_t last) { return "[" + std::to_string(first) + ", " + std::to_string(last) + ")"; }
}  // namespace

// The checker keeps tensors it placed apart ("Execution Contexts"); a parameter's address arrives with
// the launch, so a write into HBM over a parameter is found here. Reading a parameter after such a
// write (or in the same DMA) would read what the kernel wrote, not the argument.
void checkParameterOverwrites(const TypedFunction &kernel, const std::vector<uint64_t> &args) {
  const auto &ops = kernel.ops;
  for (size_t k = 0; k < kernel.tensors.size(); ++k) {
    const TypedTensor &p = kernel.tensors[k];
    if (p.param < 0 || size_t(p.param) >= args.size() || p.type.tier != Tier::Hbm) continue;
    const uint64_t first = args[size_t(p.param)], last = first + hbmBytes(p.type);
    size_t lastRead = 0;
    bool read = false;
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].source == int(k)) lastRead = i, read = true;
    if (!read) continue;
    for (size_t i = 0; i <= lastRead; ++i) {
      const TypedOp &w = ops[i];
      if (w.out.tier != Tier::Hbm || !w.address || (w.name != "dma" && w.name != "to_hbm")) continue;
      const uint64_t wFirst = *w.address, wLast = wFirst + hbmBytes(w.out);
      if (wFirst >= last || first >= wLast || !shareChip(w.out, p.type)) continue;
      const std::string who = p.name.empty() ? "a parameter" : "parameter `" + p.name + "`";
      throw DeviceError{"kernel `" + kernel.name + "`: the `." + w.name + "()` at line " + std::to_string(w.line) +
                        " writes HBM " + range(wFirst, wLast) + ", over " + who + " at " + range(first, last) +
                        (i == lastRead ? ", which the same DMA reads"
                                       : ", which line " + std::to_string(ops[lastRead].line) + " reads afterwards") +
                        "; the kernel would read its own result, not the argument: give the write an HBM address "
                        "outside the parameter's bytes or pass the parameter at another address"};
    }
  }
}

}  // namespace tcp::interp
