// ArgumentOverwrites.cpp — stale argument handles: a kernel takes `&HbmTensor` (a shared borrow), so the handle must not change under the host.
#include "ArgumentOverwrites.h"

namespace tcp::interp {

void markOverwrittenArguments(const std::vector<std::shared_ptr<HbmTensorObj>> &args, const std::vector<HbmWrite> &writes,
                              const std::string &kernel, unsigned line) {
  for (const std::shared_ptr<HbmTensorObj> &h : args) {
    if (!h || !h->stale.empty()) continue;
    for (const HbmWrite &w : writes) {
      if (!hbmOverlap(w.type, w.address, h->type, h->address)) continue;
      h->stale = "`" + kernel + "`, launched with it at line " + std::to_string(line) + ", wrote HBM " +
                 HbmExtent::of(w.type, w.address).str() + " over its bytes " + HbmExtent::of(h->type, h->address).str() +
                 " (the `." + w.op + "()` at line " + std::to_string(w.line) + ")";
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
