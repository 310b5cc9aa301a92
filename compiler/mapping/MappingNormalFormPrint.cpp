// MappingNormalFormPrint.cpp — the canonical tree (and so the canonical spelling) of a normal form.
#include "MappingNormalFormDetail.h"

#include <algorithm>
#include <cassert>

namespace tcp {

namespace {

MappingRef must(MappingRef m) {
  assert(m && "canonical rebuilding violated a constructor precondition");
  return m;
}

bool names(const MappingRef &sub, const std::string &axis) {
  for (const AxisInfo &a : sub->axes())
    if (a.name == axis) return true;
  return false;
}

}  // namespace

// The spelling of one term: `A`, `A / 8`, `(D # 64) / 8`, `B % 32`, `B = 2 # 4`, `(A @ 3) / 2`.
MappingRef nf::termTree(const NfDim &d, uint64_t base) {
  MappingRef x = Mapping::symbol(d.axis);
  uint64_t avail = d.axis.size;
  assert(base < avail);
  if (base > 0) {
    x = must(Mapping::offset(x, base, nullptr));
    avail -= base;
  }
  uint64_t natural = avail;  // digits before the axis runs out
  if (d.stride > 1) {
    natural = nf::ceilDiv(avail, d.stride);
    if (avail % d.stride != 0) x = must(Mapping::pad(x, natural * d.stride, nullptr));
    x = must(Mapping::stride(x, d.stride, nullptr));
  }
  uint64_t valid = std::min(d.limit, natural);
  if (valid < natural) {
    // `%` reads as a split (`B / 32 % 2`), `=` as a slice (`B = 2 # 4`, `A = 3`).
    bool modulo = natural % valid == 0 && d.count == valid;
    x = must(modulo ? Mapping::modulo(x, valid, nullptr) : Mapping::resize(x, valid, nullptr));
  }
  if (d.count > x->size()) x = must(Mapping::pad(x, d.count, nullptr));
  assert(x->size() == d.count);
  return x;
}

std::vector<std::pair<AxisInfo, uint64_t>> nf::constantAxes(const NormalForm &nf) {
  // Constant coordinates of axes without a term (`A @ 3 = 1`), and skewed axes that no dimension
  // names (`B' = 1`: B still resolves from A), sorted by axis name.
  std::vector<std::pair<AxisInfo, uint64_t>> constants;
  auto hasTerm = [&](const std::string &axis) {
    for (const NfDim &d : nf.dims)
      if (d.kind == NfDim::Term && d.axis.name == axis) return true;
    return false;
  };
  for (const auto &[axis, value] : nf.bases)
    if (!hasTerm(axis.name)) constants.emplace_back(axis, value);
  for (const AxisInfo &s : nf.skews) {
    bool named = hasTerm(s.name) || nf.base(s.name) > 0;
    for (const NfDim &d : nf.dims) named = named || (d.kind == NfDim::Opaque && names(d.sub, s.name));
    if (!named) constants.emplace_back(s, 0);
  }
  std::sort(constants.begin(), constants.end(), [](const auto &a, const auto &b) { return a.first.name < b.first.name; });
  return constants;
}

MappingRef toMapping(const NormalForm &nf) {
  if (nf.none) return Mapping::dummy(nf.size, nf.zero);
  std::vector<MappingRef> parts;
  for (const auto &[axis, value] : nf::constantAxes(nf)) {
    MappingRef x = Mapping::symbol(axis);
    if (value > 0) x = must(Mapping::offset(x, value, nullptr));
    parts.push_back(must(Mapping::resize(x, 1, nullptr)));
  }

  std::vector<std::string> attached;  // axes whose base is already spelled by an earlier term
  for (const NfDim &d : nf.dims) {
    switch (d.kind) {
      case NfDim::Term: {
        bool first = std::find(attached.begin(), attached.end(), d.axis.name) == attached.end();
        if (first) attached.push_back(d.axis.name);
        parts.push_back(nf::termTree(d, first ? nf.base(d.axis.name) : 0));
        break;
      }
      case NfDim::Padding:
        parts.push_back(must(Mapping::pad(Mapping::identity(), d.count, nullptr)));
        break;
      case NfDim::Opaque:
        parts.push_back(d.sub);
        break;
    }
  }
  if (parts.empty()) return Mapping::identity();
  MappingRef acc = parts.back();
  for (size_t i = parts.size() - 1; i-- > 0;) acc = must(Mapping::pair(parts[i], acc));
  return acc;
}

}  // namespace tcp
