// HbmAddressMap.cpp — decodes HBM byte addresses into stack, channel, bank group, bank, slice and row.
#include "HbmAddressMap.h"

namespace tcp::hbm {

namespace {
unsigned bit(uint64_t a, unsigned b) { return unsigned((a >> b) & 1); }
}  // namespace

HbmLocation decode(uint64_t a) {
  HbmLocation l;
  l.stack = bit(a, 8);
  for (unsigned k = 0; k < 4; ++k)
    l.channel |= (bit(a, 9 + k) ^ bit(a, 13 + k) ^ bit(a, 17 + k) ^ bit(a, 21 + k) ^ bit(a, 25 + k)) << k;
  l.bankGroup = bit(a, 13) | bit(a, 19) << 1;
  l.bank = bit(a, 17) | bit(a, 18) << 1;
  l.slice = bit(a, 20) | bit(a, 34) << 1;
  l.row = ((a >> 21) & ((uint64_t(1) << 13) - 1)) | uint64_t(bit(a, 35)) << 13;
  l.column = unsigned(a & 0xff) | unsigned((a >> 14) & 7) << 8;
  return l;
}

unsigned tccd(const HbmLocation &p, const HbmLocation &n) {
  if (p.slice != n.slice) return 3;
  return p.bankGroup == n.bankGroup ? 4 : 2;
}

}  // namespace tcp::hbm
