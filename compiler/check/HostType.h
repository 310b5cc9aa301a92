// HostType.h — the static types of host values (what the host-code checker infers for every expression).
#pragma once

#include "Ast.h"
#include "LookupTable.h"
#include "Mapping.h"
#include "Numerics.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

struct ClosureInfo;

// A host value's type. `Unknown` is the one escape: a value whose type cannot be known statically
// (docs/host-api.md lists where); calls on it are checked when tcpi runs them. `Never` is the type
// of `return`, `break`, `panic!()`...: it joins with any type.
struct HostType {
  enum Kind {
    Unknown, Never, Unit, Bool, Int, Float, Str, Vec, Tuple, Option, Range, Closure,
    Context, Dma, Rng, HostTensor, HbmTensor, HbmView, Table, Index, Mapping,
  };
  Kind kind = Unknown;
  std::vector<HostType> elems;     // Vec: [element]; Option: [inner]; Tuple: members
  std::optional<uint64_t> length;  // Vec: the length when it is a constant (`vec![1, 2]`, `vec![0; 16]`)
  // HostTensor (element), HbmTensor and HbmView (chip, element; a view's element is its tile mapping);
  // null when the tensor's type is not known.
  num::DType dtype = num::DType::i8;
  MappingRef chip, element;
  MappingRef source;               // HbmTensor written by `to_hbm`: the host layout launch may re-place
  LookupTableType table;           // Table
  bool tableKnown = false;
  MappingRef mapping;              // Mapping: the mapping value
  std::string name;                // Dma: "pdma" / "tdma"
  unsigned chips = 0;              // Context: chips of the device model
  std::shared_ptr<const ClosureInfo> closure;  // Closure (null: a closure whose body is not known)

  static HostType of(Kind k) {
    HostType t;
    t.kind = k;
    return t;
  }
  static HostType vec(HostType elem, std::optional<uint64_t> length = std::nullopt);
  static HostType option(HostType inner);
  static HostType hostTensor(num::DType d, MappingRef element);
  static HostType hbmTensor(num::DType d, MappingRef chip, MappingRef element);
  static HostType hbmView(num::DType d, MappingRef chip, MappingRef element);

  bool known() const { return kind != Unknown; }
  bool tensorKnown() const { return element != nullptr; }
  // The spelling in messages: `HostTensor<i32, m![A]>`, `Vec<i64>`, `Option<Index>`, `Context`.
  std::string str() const;
  // The owner name of the host API table for methods and fields ("HostTensor", "Vec", "String", ...).
  std::string apiOwner() const;
};

// A closure value: its expression and the types of the names it captured.
struct ClosureInfo {
  const ast::Expr *expr = nullptr;
  std::map<std::string, HostType> captured;
};

// Whether a value of type `a` may stand where `b` is expected (Unknown and Never fit everywhere;
// tensors need equal element types and equivalent mappings).
bool compatible(const HostType &a, const HostType &b);
// The type of a value that is either `a` or `b` (the branches of an `if`): Unknown when they differ.
HostType join(const HostType &a, const HostType &b);

}  // namespace tcp
