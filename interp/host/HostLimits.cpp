// HostLimits.cpp — the step and memory budgets of host code, and the resident-memory probe they use.
#include "HostLimits.h"

#include "HostTensorOps.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <unistd.h>

namespace tcp::interp {

uint64_t defaultMaxMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t physical = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(8) << 30;
  return std::min<uint64_t>(physical / 2, uint64_t(16) << 30);
}

HostLimits &HostLimits::get() {
  static HostLimits limits{kDefaultMaxSteps, defaultMaxMemory()};
  return limits;
}

uint64_t residentBytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return n == 2 && page > 0 ? resident * uint64_t(page) : 0;
}

std::string byteText(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

void chargeMemory(uint64_t bytes, const std::string &what) {
  uint64_t limit = HostLimits::get().maxMemory;
  if (bytes > limit)
    throw HostError{what + " needs " + byteText(bytes) + " of host memory, more than tcpi's limit of " +
                    byteText(limit) + " (--max-memory)"};
  uint64_t held = residentBytes();
  if (held <= limit - bytes) return;
  throw HostError{what + " needs " + byteText(bytes) + " of host memory; with the " + byteText(held) +
                  " held already that exceeds tcpi's limit of " + byteText(limit) + " (--max-memory)"};
}

bool parseByteCount(const std::string &text, uint64_t &bytes) {
  size_t k = 0;
  uint64_t v = 0;
  for (; k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])); ++k) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + uint64_t(text[k] - '0');
  }
  if (k == 0) return false;
  unsigned shift = 0;
  if (k < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[k]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      default: return false;
    }
    ++k;
    if (k < text.size() && (text[k] == 'i' || text[k] == 'I')) ++k;
    if (k < text.size() && (text[k] == 'b' || text[k] == 'B')) ++k;
  }
  if (k != text.size() || (shift && v > (UINT64_MAX >> shift))) return false;
  bytes = v << shift;
  return true;
}

}  // namespace tcp::interp
