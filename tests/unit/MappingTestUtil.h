// MappingTestUtil.h — test/bench helpers: axis tables, a small m![...] parser, a seeded generator.
#pragma once

#include "Mapping.h"

#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tcp::testing {

// axes![A = 8, B = 512] → Axes({{"A", 8}, {"B", 512}}); skews via skew("B'", "B", "A").
struct Axes {
  AxisTable table;
  Axes(std::initializer_list<std::pair<const char *, uint64_t>> list) {
    for (const auto &[name, size] : list) table.add(AxisInfo{name, size, "", ""});
  }
  Axes &skew(const char *name, const char *base, const char *by) {
    table.add(AxisInfo{name, table.find(base)->size, base, by});
    return *this;
  }
};

// Parses the body of m![...] in the manual's notation (test-only; the real grammar is the
// front end's): `A, B`, `[A, B] / 4`, `(D # 64) / 8`, `B = 2 # 4`, `A @ 1`, `1 # 2`, `3#`, `2z`,
// `# 2 + B + # 4`, `$(N:1, F:2)`, `{ Alias }` (from `aliases`). Throws std::runtime_error.
class MappingParser {
 public:
  MappingParser(const AxisTable &axes, std::string text, const std::map<std::string, MappingRef> *aliases = nullptr)
      : axes_(axes), s_(std::move(text)), aliases_(aliases) {}

  MappingRef parse() {
    MappingRef m = pairs();
    skipWs();
    if (pos_ != s_.size()) fail("trailing text");
    return m;
  }

 private:
  const AxisTable &axes_;
  std::string s_;
  const std::map<std::string, MappingRef> *aliases_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string &why) {
    throw std::runtime_error(why + " at " + std::to_string(pos_) + " in `" + s_ + "`");
  }
  void skipWs() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char peek() {
    skipWs();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool peekNumberAfterWs(size_t at) {
    while (at < s_.size() && std::isspace(static_cast<unsigned char>(s_[at]))) ++at;
    return at < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at]));
  }
  uint64_t number() {
    skipWs();
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a number");
    uint64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) v = v * 10 + (s_[pos_++] - '0');
    return v;
  }
  MappingRef check(MappingRef m, const std::string &err) {
    if (!m) fail(err);
    return m;
  }
  MappingRef pairs() {
    std::vector<MappingRef> parts{concat()};
    while (eat(',')) parts.push_back(concat());
    MappingRef acc = parts.back();
    for (size_t i = parts.size() - 1; i-- > 0;) acc = check(Mapping::pair(parts[i], acc), "overflow");
    return acc;
  }
  MappingRef concat() {
    std::vector<MappingRef> parts{postfix()};
    while (eat('+')) parts.push_back(postfix());
    if (parts.size() == 1) return parts[0];
    std::string err;
    return check(Mapping::concat(parts, &err), err);
  }
  MappingRef postfix() {
    MappingRef m = primary();
    for (;;) {
      char c = peek();
      if (c != '/' && c != '%' && c != '#' && c != '=' && c != '@') return m;
      ++pos_;
      uint64_t n = number();
      std::string err;
      switch (c) {
        case '/': m = check(Mapping::stride(m, n, &err), err); break;
        case '%': m = check(Mapping::modulo(m, n, &err), err); break;
        case '#': m = check(Mapping::pad(m, n, &err), err); break;
        case '=': m = check(Mapping::resize(m, n, &err), err); break;
        default: m = check(Mapping::offset(m, n, &err), err); break;
      }
    }
  }
  MappingRef primary() {
    char c = peek();
    if (c == '[' || c == '(') {
      ++pos_;
      MappingRef m = pairs();
      if (!eat(c == '[' ? ']' : ')')) fail("unclosed group");
      return m;
    }
    if (c == '{') {
      ++pos_;
      std::string name = ident();
      if (!eat('}')) fail("unclosed escape");
      if (!aliases_ || !aliases_->count(name)) fail("unknown alias " + name);
      return aliases_->at(name);
    }
    if (c == '#') {  // prefix dummy `# n`
      ++pos_;
      return Mapping::dummy(number(), false);
    }
    if (c == '$') {
      ++pos_;
      if (!eat('(')) fail("expected ( after $");
      std::vector<std::pair<MappingRef, uint64_t>> terms;
      do {
        MappingRef e = concat();
        uint64_t n = eat(':') ? number() : 1;
        terms.emplace_back(e, n);
      } while (eat(','));
      if (!eat(')')) fail("unclosed linear combination");
      std::string err;
      return check(Mapping::lincomb(terms, &err), err);
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      uint64_t n = number();
      skipWs();
      if (pos_ < s_.size() && s_[pos_] == 'z') {
        ++pos_;
        return Mapping::dummy(n, true);
      }
      if (pos_ < s_.size() && s_[pos_] == '#' && !peekNumberAfterWs(pos_ + 1)) {
        ++pos_;
        return Mapping::dummy(n, false);
      }
      if (n != 1) fail("only 1 (the identity) may stand alone");
      return Mapping::identity();
    }
    std::string name = ident();
    std::string err;
    return check(Mapping::symbol(axes_, name, &err), err);
  }
  std::string ident() {
    skipWs();
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    while (pos_ < s_.size() && s_[pos_] == '\'') ++pos_;
    if (start == pos_) fail("expected an axis");
    return s_.substr(start, pos_ - start);
  }
};

inline MappingRef M(const Axes &ax, const std::string &body, const std::map<std::string, MappingRef> *aliases = nullptr) {
  return MappingParser(ax.table, body, aliases).parse();
}

// i![A: 1, B: 7] → I({{"A", 1}, {"B", 7}})
inline Index I(std::initializer_list<std::pair<const char *, int64_t>> list) {
  Index i;
  for (const auto &[axis, value] : list) i.add(axis, value);
  return i;
}

// Seeded random mappings over pairs, stride, modulo, pad, resize, offset, escapes of subtrees
// (reuse of a generated subtree), dummies and concatenations (opt-in) of the given axes.
class RandomMappings {
 public:
  struct Options {
    unsigned maxDepth = 4;
    uint64_t maxSize = 4096;
    bool offsets = true;
    bool holes = true;      // pad, resize and offset (false: pairs, strides, modulos only)
    bool concats = false;  // concatenations and dummies (opaque in the normal form)
    bool lincombs = false;
  };
  RandomMappings(const AxisTable &axes, uint64_t seed, Options opt) : axes_(axes), rng_(seed), opt_(opt) {}
  RandomMappings(const AxisTable &axes, uint64_t seed) : RandomMappings(axes, seed, Options()) {}

  MappingRef next() {
    for (;;) {
      MappingRef m = gen(opt_.maxDepth);
      if (m && m->size() <= opt_.maxSize) return m;
    }
  }
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  // A random divisor of n (n > 0).
  uint64_t divisor(uint64_t n) {
    std::vector<uint64_t> ds;
    for (uint64_t d = 1; d <= n && ds.size() < 64; ++d)
      if (n % d == 0) ds.push_back(d);
    return ds[below(ds.size())];
  }

 private:
  const AxisTable &axes_;
  std::mt19937_64 rng_;
  Options opt_;
  std::vector<MappingRef> seen_;

  MappingRef leaf() {
    const auto &all = axes_.all();
    if (below(8) == 0) return Mapping::identity();
    return Mapping::symbol(axes_, all[below(all.size())].name, nullptr);
  }
  MappingRef gen(unsigned depth) {
    if (depth == 0) return leaf();
    MappingRef r;
    switch (below(opt_.concats ? 11 : (opt_.lincombs ? 10 : 9))) {
      case 0: r = leaf(); break;
      case 1:
      case 2: {
        MappingRef a = gen(depth - 1), b = gen(depth - 1);
        r = a && b ? Mapping::pair(a, b) : nullptr;
        break;
      }
      case 3: {
        MappingRef e = gen(depth - 1);
        r = e && e->size() ? Mapping::stride(e, divisor(e->size()), nullptr) : e;
        break;
      }
      case 4: {
        MappingRef e = gen(depth - 1);
        r = e && e->size() ? Mapping::modulo(e, divisor(e->size()), nullptr) : e;
        break;
      }
      case 5: {
        MappingRef e = gen(depth - 1);
        r = e && opt_.holes ? Mapping::pad(e, e->size() + below(e->size() + 3), nullptr) : e;
        break;
      }
      case 6: {
        MappingRef e = gen(depth - 1);
        r = e && opt_.holes ? Mapping::resize(e, e->size() ? 1 + below(e->size()) : 0, nullptr) : e;
        break;
      }
      case 7: {
        MappingRef e = gen(depth - 1);
        r = e && opt_.offsets && opt_.holes && e->size() ? Mapping::offset(e, below(e->size()), nullptr) : e;
        break;
      }
      case 8:  // escape: reuse an earlier subtree
        r = seen_.empty() ? leaf() : seen_[below(seen_.size())];
        break;
      case 9:
        if (opt_.lincombs) {
          MappingRef a = gen(depth - 1), b = gen(depth - 1);
          r = a && b ? Mapping::lincomb({{a, 1 + below(3)}, {b, 1 + below(4)}}, nullptr) : nullptr;
          break;
        }
        [[fallthrough]];
      default: {
        std::vector<MappingRef> parts;
        for (unsigned k = 0, n = 2 + below(2); k < n; ++k)
          parts.push_back(below(3) == 0 ? Mapping::dummy(1 + below(3), below(2)) : gen(depth - 1));
        bool ok = true;
        for (auto &p : parts) ok = ok && p;
        r = ok ? Mapping::concat(parts, nullptr) : nullptr;
      }
    }
    if (r && r->size() <= opt_.maxSize) seen_.push_back(r);
    if (seen_.size() > 64) seen_.erase(seen_.begin());
    return r;
  }
};

// Exhaustive equivalence by the definition: same size, same map(i) for every i.
inline bool sameMap(const MappingRef &a, const MappingRef &b) {
  if (a->size() != b->size()) return false;
  for (uint64_t i = 0; i < a->size(); ++i)
    if (a->map(i) != b->map(i)) return false;
  return true;
}

}  // namespace tcp::testing
