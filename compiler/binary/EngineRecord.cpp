// EngineRecord.cpp — writes, reads (checking every field's range) and documents engine records through the field walks of EngineFields.h.
#include "EngineRecord.h"

#include "EngineFields.h"

#include <algorithm>

namespace tcp {

namespace {

using namespace binio;
std::string dec(uint64_t v) { return std::to_string(v); }

constexpr unsigned kBitmapBytes = kSlicesPerCluster / 8;

// ---- writing

class FieldWriter {
 public:
  explicit FieldWriter(Out &o) : o_(o) {}
  template <class T> void u(const char *, T &x, uint64_t, uint64_t hi) { o_.uint(wireBytes(hi), uint64_t(x)); }
  template <class T> void s(const char *, T &x, int64_t lo, int64_t hi) { o_.uint(wireBytesSigned(lo, hi), uint64_t(int64_t(x))); }
  template <class T> void oneOf(const char *, T &x, std::initializer_list<uint64_t> set) {
    o_.uint(wireBytes(*std::max_element(set.begin(), set.end())), uint64_t(x));
  }
  template <class E> void e(const char *, E &x) { o_.u8(uint8_t(x)); }
  void flag(const char *, bool &x) { o_.u8(x ? 1 : 0); }
  void str(const char *, std::string &x) { o_.str(x); }
  void bitmap(const char *, SliceBitmap &x) {
    o_.uint(2, kSlicesPerCluster);
    for (unsigned b = 0; b < kBitmapBytes; ++b) {
      uint8_t v = 0;
      for (unsigned k = 0; k < 8; ++k) v |= uint8_t(x[b * 8 + k]) << k;
      o_.u8(v);
    }
  }
  template <class F> void sub(const char *, F fn) { fn(); }
  template <class T, class F> void opt(const char *, std::optional<T> &x, F fn) {
    o_.u8(x ? 1 : 0);
    if (x) fn(*x);
  }
  template <class T, class F> void list(const char *, std::vector<T> &x, size_t, F fn) {
    o_.u32(uint32_t(x.size()));
    for (T &v : x) fn(v);
  }
  template <class F> void when(const char *, bool present, F fn) {
    if (present) fn();
  }

 private:
  Out &o_;
};

// ---- reading

class FieldReader : FieldPaths {
 public:
  FieldReader(Cursor &c, std::string where, std::vector<FieldLocation> *layout, const uint8_t *fileStart,
              size_t engine, EngineKind kind)
      : c_(c), where_(std::move(where)), layout_(layout), fileStart_(fileStart), engine_(engine), kind_(kind) {}

  bool failed() const { return failed_; }

  template <class T> void u(const char *n, T &x, uint64_t lo, uint64_t hi) {
    uint64_t v;
    if (!scalar(n, wireBytes(hi), v)) return;
    if (v < lo || v > hi) return bad(n, "is " + dec(v) + " (expected " + rangeText(lo, hi) + ")");
    x = T(v);
  }
  template <class T> void s(const char *n, T &x, int64_t lo, int64_t hi) {
    unsigned w = wireBytesSigned(lo, hi);
    uint64_t raw;
    if (!scalar(n, w, raw)) return;
    int64_t v = w == 8 ? int64_t(raw) : int64_t(raw << (64 - 8 * w)) >> (64 - 8 * w);  // sign-extend
    if (v < lo || v > hi) return bad(n, "is " + std::to_string(v) + " (expected " + rangeTextSigned(lo, hi) + ")");
    x = T(v);
  }
  template <class T> void oneOf(const char *n, T &x, std::initializer_list<uint64_t> set) {
    uint64_t v;
    if (!scalar(n, wireBytes(*std::max_element(set.begin(), set.end())), v)) return;
    if (std::find(set.begin(), set.end(), v) == set.end()) return bad(n, "is " + dec(v) + " (expected " + setText(set) + ")");
    x = T(v);
  }
  template <class E> void e(const char *n, E &x) {
    uint64_t v;
    if (!scalar(n, 1, v)) return;
    const auto &names = enumNames(x);
    if (v >= names.size()) return bad(n, "is " + dec(v) + " (expected " + enumText(names) + ")");
    x = E(v);
  }
  void flag(const char *n, bool &x) {
    uint64_t v;
    if (!scalar(n, 1, v)) return;
    if (v > 1) return bad(n, "is " + dec(v) + " (expected 0 or 1)");
    x = v == 1;
  }
  void str(const char *n, std::string &x) {
    if (!failed_ && !c_.str(x, what(n))) failed_ = true;
  }
  void bitmap(const char *n, SliceBitmap &x) {
    uint64_t width;
    std::string at = path(n);
    if (!scalar((at + ".width").c_str(), 2, width, true)) return;
    if (width != kSlicesPerCluster)
      return bad(n, "has width " + dec(width) + " (expected 256: one bit per slice of a cluster)");
    for (unsigned b = 0; b < kBitmapBytes; ++b) {
      uint64_t v;
      if (!scalar(n, 1, v)) return;
      for (unsigned k = 0; k < 8; ++k) x[b * 8 + k] = (v >> k) & 1;
    }
  }
  template <class F> void sub(const char *n, F fn) {
    if (!failed_) nested(path(n), fn);
  }
  template <class T, class F> void opt(const char *n, std::optional<T> &x, F fn) {
    bool present = false;
    flag((std::string(n) + "?").c_str(), present);
    if (failed_) return;
    x.reset();
    if (present) {
      x.emplace();
      nested(path(n), [&] { fn(*x); });
    }
  }
  // The count is checked against the list's maximum and the bytes left (every element takes at
  // least one) before anything is reserved.
  template <class T, class F> void list(const char *n, std::vector<T> &x, size_t max, F fn) {
    uint64_t count;
    if (!scalar(n, 4, count)) return;
    if (count > max) return bad(n, "has " + dec(count) + " elements (expected at most " + dec(max) + ")");
    if (!c_.need(count, what(n))) {
      failed_ = true;
      return;
    }
    x.assign(size_t(count), T{});
    for (size_t i = 0; i < x.size() && !failed_; ++i) nested(path(n) + "[" + dec(i) + "]", [&] { fn(x[i]); });
  }
  template <class F> void when(const char *, bool present, F fn) {
    if (present && !failed_) fn();
  }

 private:
  std::string what(const char *n) const { return "the field " + path(n) + " of " + where_; }
  // Reads a scalar of `width` bytes and records where it was (`exact`: n is already a full path).
  bool scalar(const char *n, unsigned width, uint64_t &v, bool exact = false) {
    if (failed_) return false;
    auto at = [&] { return exact ? std::string(n) : path(n); };
    size_t offset = fileStart_ ? size_t(c_.pos() - fileStart_) : 0;
    if (!c_.uintNamed(width, v, [&] { return "the field " + at() + " of " + where_; })) {
      failed_ = true;
      return false;
    }
    if (layout_) layout_->push_back({engine_, kind_, at(), offset, width});
    return true;
  }
  void bad(const char *n, const std::string &problem) {
    failed_ = true;
    c_.corrupt("the field " + path(n) + " of " + where_ + " " + problem);
  }

  Cursor &c_;
  std::string where_;
  std::vector<FieldLocation> *layout_;
  const uint8_t *fileStart_;
  size_t engine_;
  EngineKind kind_;
  bool failed_ = false;
};

// ---- the documented layout

// A bound as the table shows it: large powers of two as 2^n.
std::string bound(uint64_t v) {
  if (v >= (uint64_t(1) << 32) && !(v & (v - 1))) return "2^" + dec(uint64_t(__builtin_ctzll(v)));
  return dec(v);
}
std::string bound(int64_t v) { return v < 0 ? "-" + bound(uint64_t(-(v + 1)) + 1) : bound(uint64_t(v)); }

class LayoutTable : FieldPaths {
 public:
  std::string rows;
  template <class T> void u(const char *n, T &, uint64_t lo, uint64_t hi) {
    row(n, "u" + dec(8 * wireBytes(hi)), bound(lo) + " to " + bound(hi));
  }
  template <class T> void s(const char *n, T &, int64_t lo, int64_t hi) {
    row(n, "i" + dec(8 * wireBytesSigned(lo, hi)), bound(lo) + " to " + bound(hi));
  }
  template <class T> void oneOf(const char *n, T &, std::initializer_list<uint64_t> set) {
    row(n, "u" + dec(8 * wireBytes(*std::max_element(set.begin(), set.end()))), setText(set));
  }
  template <class E> void e(const char *n, E &x) { row(n, "u8", enumText(enumNames(x))); }
  void flag(const char *n, bool &) { row(n, "flag", "0 or 1"); }
  void str(const char *n, std::string &) { row(n, "string", "no control bytes"); }
  void bitmap(const char *n, SliceBitmap &) { row(n, "bitmap", "u16 width 256, then 32 bytes (slice 0 the lowest bit)"); }
  template <class F> void sub(const char *n, F fn) { nested(path(n), fn); }
  template <class T, class F> void opt(const char *n, std::optional<T> &, F fn) {
    row((std::string(n) + "?").c_str(), "flag", "1: " + (*n ? "`" + path(n) + "`" : std::string("the value")) + " follows");
    T value{};
    nested(path(n), [&] { fn(value); });
  }
  template <class T, class F> void list(const char *n, std::vector<T> &, size_t max, F fn) {
    row(n, "u32 count", "0 to " + dec(max) + " elements, each:");
    T value{};
    nested(path(n) + "[]", [&] { fn(value); });
  }
  template <class F> void when(const char *cond, bool, F fn) {
    std::string saved = condition_;
    condition_ = std::string(" (when ") + cond + ")";
    fn();
    condition_ = saved;
  }

 private:
  void row(const char *n, const std::string &type, const std::string &legal) {
    rows += "| `" + path(n) + "` | " + type + " | " + legal + condition_ + " |\n";
  }
  std::string condition_;
};

}  // namespace

void writeEngineRecord(Out &o, const EngineConfig &e) {
  Out body;
  FieldWriter w(body);
  visitEngineFields(w, const_cast<EngineConfig &>(e));
  o.u8(uint8_t(engineKind(e)));
  o.u32(uint32_t(body.bytes.size()));
  o.bytes += body.bytes;
}

bool readEngineRecord(Cursor &c, EngineConfig &e, size_t index, const std::string &tu, Ctx ctx, bool stage,
                      std::vector<FieldLocation> *layout, const uint8_t *fileStart, size_t engineIndex) {
  std::string where = "engine " + dec(index) + " of " + tu;
  uint8_t kind;
  if (!c.u8(kind, "the kind of " + where)) return false;
  if (kind >= kEngineKinds)
    return c.corrupt("the kind of " + where + " is " + dec(kind) + " (expected " + enumText(enumNames(EngineKind{})) + ")");
  std::string named = "engine " + dec(index) + " (" + engineName(EngineKind(kind)) + ") of " + tu;
  uint32_t size;
  if (!c.u32(size, "the size of " + named) || !c.need(size, named)) return false;
  std::string error;
  Cursor body(c.pos(), size, c.name(), error);
  e = makeEngineConfig(EngineKind(kind));
  FieldReader r(body, named, layout, fileStart, engineIndex, EngineKind(kind));
  visitEngineFields(r, e);
  if (error.empty() && body.left() != 0)
    body.corrupt(unexpected(body.left()) + " after the fields of " + named);
  if (error.empty())
    if (auto bad = checkEngineConfig(e, ctx, stage)) body.corrupt("the field " + bad->field + " of " + named + " " + bad->problem);
  if (!error.empty()) return c.fail(error);
  return c.skip(size, named);
}

std::string engineLayoutTable(EngineKind k) {
  EngineConfig e = makeEngineConfig(k);
  LayoutTable t;
  visitEngineFields(t, e);
  return "| Field | Type | Legal values |\n|---|---|---|\n" + t.rows;
}

}  // namespace tcp
