// ArgumentOverwrites.cpp — stale argument handles: a kernel takes `&HbmTensor` (a shared borrow), so the handle must not change under the host.
#include "ArgumentOverwrites.h"

#include <algorithm>

namespace tcp::interp {

namespace {
uint64_t hbmBytes(const TensorType &t) { return t.element ? num::storageBytes(t.dtype, t.element->size()) : 0; }
// Whether some chip position holds elements of both (looked for among the first 65,536).
bool shareChip(const TensorType &a, const TensorType &b) {
  if (!a.chip || !b.chip) return true;
  const uint64_t n = std::min<uint64_t>({a.chip->size(), b.chip->size(), uint64_t(1) << 16});
  for (uint64_t c = 0; c < n; ++c)
    if (a.chip->map(c) && b.chip->map(c)) return true;
  return false;
}
std::string range(uint64_t first, uint64_t last) { return "[" + std::to_string(first) + ", " + std::to_string(last) + ")"; }
}  // namespace

void markOverwrittenArguments(const std::vector<std::shared_ptr<HbmTensorObj>> &args, const std::vector<HbmWrite> &writes,
                              const std::string &kernel, unsigned line) {
  for (const std::shared_ptr<HbmTensorObj> &h : args) {
    if (!h || !h->stale.empty()) continue;
    const uint64_t first = h->address, last = first + hbmBytes(h->type);
    for (const HbmWrite &w : writes) {
      const uint64_t wFirst = w.address, wLast = wFirst + hbmBytes(w.type);
      if (wFirst >= last || first >= wLast || !shareChip(w.type, h->type)) continue;
      h->stale = "`" + kernel + "`, launched with it at line " + std::to_string(line) + ", wrote HBM " + range(wFirst, wLast) +
                 " over its bytes " + range(first, last) + " (the `." + w.op + "()` at line " + std::to_string(w.line) + ")";
      break;
    }
  }
}

std::string staleArgumentWarning(HbmTensorObj &h) {
  if (h.stale.empty() || h.warned) return {};
  h.warned = true;
  return "this HbmTensor (" + h.type.str() + " at HBM address " + std::to_string(h.address) + ") was overwritten: " + h.stale +
         ", so it reads what the kernel wrote; a kernel borrows its arguments (`&HbmTensor`): use the tensor it returned, "
         "or give its result an HBM address outside its arguments";
}

}  // namespace tcp::interp
