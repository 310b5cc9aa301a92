// Value.h — runtime values of tcpi's host-code evaluator, printed in the manual's notation.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcp::interp {

// A host-runtime object held by a Value of kind Object (HostTensor, HbmTensor, Context, SmallRng,
// closures...; interp/HostValue.h). Shared: copies of the Value refer to the same object.
struct HostObject {
  virtual ~HostObject() = default;
  virtual const char *kindName() const = 0;
  virtual std::string debug() const = 0;
  virtual bool equals(const HostObject &o) const { return this == &o; }
};

struct Value {
  enum Kind { Unit, Int, Float, Bool, Str, IndexV, OptionV, Tuple, Array, MappingV, Object };
  Kind kind = Unit;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  Index index;
  std::vector<Value> elems;   // Tuple/Array members; OptionV: empty = None, [x] = Some(x)
  MappingRef mapping;         // MappingV: a mapping used as a value (`m![A, B]` in expression position)
  std::shared_ptr<HostObject> obj;  // Object

  static Value unit() { return Value(); }
  static Value integer(int64_t v) { Value x; x.kind = Int; x.i = v; return x; }
  static Value floating(double v) { Value x; x.kind = Float; x.f = v; return x; }
  static Value boolean(bool v) { Value x; x.kind = Bool; x.b = v; return x; }
  static Value string(std::string v) { Value x; x.kind = Str; x.s = std::move(v); return x; }
  static Value ofIndex(Index v) { Value x; x.kind = IndexV; x.index = std::move(v); return x; }
  static Value object(std::shared_ptr<HostObject> o) { Value x; x.kind = Object; x.obj = std::move(o); return x; }
  static Value none() { Value x; x.kind = OptionV; return x; }
  static Value some(Value v) { Value x; x.kind = OptionV; x.elems.push_back(std::move(v)); return x; }

  bool isNone() const { return kind == OptionV && elems.empty(); }
  // Rust `{:?}`-style rendering: `Some(i![A: 1, B: 7])`, `None`, `4096`, `"text"`.
  std::string debug() const;
  // Rust `{}`-style rendering (strings without quotes).
  std::string display() const;
  bool operator==(const Value &o) const;
  bool operator!=(const Value &o) const { return !(*this == o); }
  const char *kindName() const;
};

}  // namespace tcp::interp
