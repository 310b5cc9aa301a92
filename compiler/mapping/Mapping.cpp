// Mapping.cpp — checked construction of mapping trees and their evaluation (size, map, mapAll).
#include "Mapping.h"

#include <algorithm>
#include <cassert>

namespace tcp {

struct MappingAccess {
  static std::shared_ptr<Mapping> make(Mapping::Kind kind, uint64_t size) {
    auto m = std::make_shared<Mapping>();
    m->kind_ = kind;
    m->size_ = size;
    return m;
  }
  // Collects the children's axes (deduplicated) and multi-valuedness into m.
  static void inherit(Mapping &m) {
    auto axes = std::make_shared<std::vector<AxisInfo>>();
    for (const MappingRef &c : m.children_) {
      m.multi_ = m.multi_ || c->multi_;
      for (const AxisInfo &a : c->axes()) {
        bool seen = false;
        for (const AxisInfo &b : *axes) seen = seen || b.name == a.name;
        if (!seen) axes->push_back(a);
      }
    }
    m.axes_ = std::move(axes);
  }
  static MappingRef unary(Mapping::Kind kind, MappingRef e, uint64_t n, uint64_t size) {
    auto m = make(kind, size);
    m->amount_ = n;
    m->children_ = {std::move(e)};
    inherit(*m);
    return m;
  }
};

namespace {

using MA = MappingAccess;

const std::vector<AxisInfo> &noAxes() {
  static const std::vector<AxisInfo> empty;
  return empty;
}

MappingRef failWith(std::string *err, std::string msg) {
  if (err) *err = std::move(msg);
  return nullptr;
}

std::string quoted(const MappingRef &e) { return "`" + e->body() + "`"; }
std::string num(uint64_t n) { return std::to_string(n); }

}  // namespace

// ---------------------------------------------------------------- construction

MappingRef Mapping::symbol(const AxisTable &axes, std::string_view name, std::string *err) {
  const AxisInfo *info = axes.find(name);
  if (!info) return failWith(err, "unknown axis `" + std::string(name) + "`");
  return symbol(*info);
}

MappingRef Mapping::symbol(const AxisInfo &info) {
  auto m = MA::make(Symbol, info.size);
  m->axis_ = info.name;
  m->info_ = info;
  m->axes_ = std::make_shared<std::vector<AxisInfo>>(std::vector<AxisInfo>{info});
  return m;
}

MappingRef Mapping::identity() {
  static const MappingRef one = [] {
    auto m = MA::make(Identity, 1);
    MA::inherit(*m);
    return MappingRef(m);
  }();
  return one;
}

MappingRef Mapping::pair(MappingRef major, MappingRef minor) { return pair(std::move(major), std::move(minor), nullptr); }

MappingRef Mapping::pair(MappingRef major, MappingRef minor, std::string *err) {
  assert(major && minor && "pair of a null mapping");
  if (!major || !minor) return nullptr;
  uint64_t size;
  if (__builtin_mul_overflow(major->size(), minor->size(), &size)) {
    std::string body = (major->kind() == Pair ? "[" + major->body() + "]" : major->body()) + ", " + minor->body();
    return failWith(err, "size of `m![" + body + "]` overflows 64 bits");
  }
  auto m = MA::make(Pair, size);
  m->children_ = {std::move(major), std::move(minor)};
  MA::inherit(*m);
  return m;
}

MappingRef Mapping::pad(MappingRef e, uint64_t n, std::string *err) {
  assert(e);
  if (n < e->size())
    return failWith(err, "padding to " + num(n) + " is smaller than the size " + num(e->size()) + " of " + quoted(e));
  return MA::unary(Pad, std::move(e), n, n);
}

MappingRef Mapping::resize(MappingRef e, uint64_t n, std::string *err) {
  assert(e);
  if (n > e->size())
    return failWith(err, "resize to " + num(n) + " exceeds the size " + num(e->size()) + " of " + quoted(e));
  return MA::unary(Resize, std::move(e), n, n);
}

MappingRef Mapping::stride(MappingRef e, uint64_t n, std::string *err) {
  assert(e);
  if (n == 0 || e->size() % n != 0)
    return failWith(err, "stride " + num(n) + " does not divide the size " + num(e->size()) + " of " + quoted(e));
  uint64_t size = e->size() / n;
  return MA::unary(Stride, std::move(e), n, size);
}

MappingRef Mapping::modulo(MappingRef e, uint64_t n, std::string *err) {
  assert(e);
  if (n == 0 || e->size() % n != 0)
    return failWith(err, "modulo " + num(n) + " does not divide the size " + num(e->size()) + " of " + quoted(e));
  return MA::unary(Modulo, std::move(e), n, n);
}

MappingRef Mapping::offset(MappingRef e, uint64_t n, std::string *err) {
  assert(e);
  if (n > e->size())
    return failWith(err, "offset " + num(n) + " exceeds the size " + num(e->size()) + " of " + quoted(e));
  uint64_t size = e->size() - n;
  return MA::unary(Offset, std::move(e), n, size);
}

MappingRef Mapping::dummy(uint64_t n, bool zero) {
  auto m = MA::make(Dummy, n);
  m->amount_ = n;
  m->zero_ = zero;
  MA::inherit(*m);
  return m;
}

MappingRef Mapping::concat(std::vector<MappingRef> parts, std::string *err) {
  if (parts.empty()) return failWith(err, "a concatenation needs at least one part");
  uint64_t size = 0;
  bool overflow = false;
  for (const MappingRef &p : parts) {
    assert(p);
    overflow = overflow || __builtin_add_overflow(size, p->size(), &size);
  }
  auto m = MA::make(Concat, size);
  m->children_ = std::move(parts);
  MA::inherit(*m);
  if (overflow) return failWith(err, "size of `m![" + m->body() + "]` overflows 64 bits");
  return m;
}

MappingRef Mapping::lincomb(std::vector<std::pair<MappingRef, uint64_t>> terms, std::string *err) {
  if (terms.empty()) return failWith(err, "a linear combination needs at least one term");
  uint64_t size = 1;
  bool overflow = false, empty = false;
  for (const auto &[e, n] : terms) {
    assert(e);
    if (n == 0) return failWith(err, "stride 0 of " + quoted(e) + " in a linear combination must be positive");
    if (e->size() == 0) {
      empty = true;
      continue;
    }
    uint64_t span;
    overflow = overflow || __builtin_mul_overflow(e->size() - 1, n, &span) || __builtin_add_overflow(size, span, &size);
  }
  auto m = MA::make(LinComb, empty ? 0 : size);
  for (auto &[e, n] : terms) {
    m->children_.push_back(std::move(e));
    m->strides_.push_back(n);
  }
  MA::inherit(*m);
  m->multi_ = true;
  if (overflow) return failWith(err, "size of `m![" + m->body() + "]` overflows 64 bits");
  return m;
}

const std::vector<AxisInfo> &Mapping::axes() const { return axes_ ? *axes_ : noAxes(); }

// ---------------------------------------------------------------- evaluation

namespace {

// Single-valued partial evaluation (no LinComb below): sums coordinates into acc.
bool partialInto(const Mapping &m, uint64_t i, Index &acc) {
  if (i >= m.size()) return false;
  const auto &ch = m.children();
  switch (m.kind()) {
    case Mapping::Symbol:
      acc.add(m.axis(), static_cast<int64_t>(i));
      return true;
    case Mapping::Identity:
      return true;
    case Mapping::Pair: {
      uint64_t minor = ch[1]->size();
      return partialInto(*ch[0], i / minor, acc) && partialInto(*ch[1], i % minor, acc);
    }
    case Mapping::Pad:
    case Mapping::Resize:
    case Mapping::Modulo:
      return partialInto(*ch[0], i, acc);
    case Mapping::Stride:
      return partialInto(*ch[0], i * m.amount(), acc);
    case Mapping::Offset:
      return partialInto(*ch[0], i + m.amount(), acc);
    case Mapping::Dummy:
      return false;
    case Mapping::Concat:
      for (const MappingRef &p : ch) {
        if (i < p->size()) return partialInto(*p, i, acc);
        i -= p->size();
      }
      return false;
    case Mapping::LinComb:
      break;
  }
  assert(false && "LinComb in single-valued evaluation");
  return false;
}

void partialAll(const Mapping &m, uint64_t i, std::vector<Index> &out);

// Decompositions i = Σ s_k n_k of a linear combination, the first term's share largest first.
void lincombFrom(const Mapping &m, size_t k, uint64_t rem, const Index &acc, std::vector<Index> &out) {
  const MappingRef &e = m.children()[k];
  uint64_t n = m.strides()[k];
  auto extend = [&](uint64_t s, auto &&next) {
    std::vector<Index> parts;
    partialAll(*e, s, parts);
    for (const Index &p : parts) {
      Index sum = acc;
      sum.add(p);
      next(sum);
    }
  };
  if (k + 1 == m.children().size()) {
    if (rem % n != 0 || rem / n >= e->size()) return;
    extend(rem / n, [&](const Index &sum) { out.push_back(sum); });
    return;
  }
  uint64_t hi = std::min(e->size() - 1, rem / n);
  for (uint64_t s = hi + 1; s-- > 0;)
    extend(s, [&](const Index &sum) { lincombFrom(m, k + 1, rem - s * n, sum, out); });
}

// Every partial index at position i (a LinComb may give several).
void partialAll(const Mapping &m, uint64_t i, std::vector<Index> &out) {
  if (i >= m.size()) return;
  if (!m.multiValued()) {
    Index acc;
    if (partialInto(m, i, acc)) out.push_back(std::move(acc));
    return;
  }
  const auto &ch = m.children();
  switch (m.kind()) {
    case Mapping::Pair: {
      uint64_t minor = ch[1]->size();
      std::vector<Index> left, right;
      partialAll(*ch[0], i / minor, left);
      if (left.empty()) return;
      partialAll(*ch[1], i % minor, right);
      for (const Index &l : left)
        for (const Index &r : right) {
          Index sum = l;
          sum.add(r);
          out.push_back(std::move(sum));
        }
      return;
    }
    case Mapping::Pad:
    case Mapping::Resize:
    case Mapping::Modulo:
      return partialAll(*ch[0], i, out);
    case Mapping::Stride:
      return partialAll(*ch[0], i * m.amount(), out);
    case Mapping::Offset:
      return partialAll(*ch[0], i + m.amount(), out);
    case Mapping::Concat:
      for (const MappingRef &p : ch) {
        if (i < p->size()) return partialAll(*p, i, out);
        i -= p->size();
      }
      return;
    case Mapping::LinComb:
      if (m.size() > 0) lincombFrom(m, 0, i, Index(), out);
      return;
    default:
      assert(false && "single-valued node flagged multi-valued");
  }
}

}  // namespace

std::optional<Index> Mapping::mapPartial(uint64_t i) const {
  if (!multi_) {
    Index acc;
    if (!partialInto(*this, i, acc)) return std::nullopt;
    return acc;
  }
  std::vector<Index> all;
  partialAll(*this, i, all);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::optional<Index> Mapping::map(uint64_t i) const {
  if (!multi_) {
    Index acc;
    if (!partialInto(*this, i, acc)) return std::nullopt;
    return finishIndex(std::move(acc), axes());
  }
  std::vector<Index> all = mapAll(i);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::vector<Index> Mapping::mapAll(uint64_t i) const {
  std::vector<Index> raw, out;
  partialAll(*this, i, raw);
  for (Index &r : raw) {
    auto done = finishIndex(std::move(r), axes());
    if (!done) continue;
    bool dup = false;
    for (const Index &o : out) dup = dup || o == *done;
    if (!dup) out.push_back(std::move(*done));
  }
  return out;
}

uint64_t activeSize(const MappingRef &m) {
  if (!m) return 1;
  if (m->kind() == Mapping::Pad && !m->children().empty()) return m->children()[0]->size();
  return m->size();
}

}  // namespace tcp
