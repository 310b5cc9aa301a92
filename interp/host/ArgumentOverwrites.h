// ArgumentOverwrites.h — an HbmTensor passed to a kernel that wrote over its bytes is stale afterwards: its next use warns.
#pragma once

#include "HostValue.h"

#include <memory>
#include <string>
#include <vector>

namespace tcp::interp {

// After a launch of `kernel` at `line`: each argument handle whose bytes one of the launch's HBM
// writes overlaps (on a chip both hold) is marked stale, naming the write.
void markOverwrittenArguments(const std::vector<std::shared_ptr<HbmTensorObj>> &args, const std::vector<HbmWrite> &writes,
                              const std::string &kernel, unsigned line);

// The warning for the first use of a stale handle ("this HbmTensor ... was overwritten ..."); empty when
// the handle is current or has warned already (the call marks it warned).
std::string staleArgumentWarning(HbmTensorObj &h);

}  // namespace tcp::interp
