// HostValue.h — host-runtime objects held by Values: HostTensor, HbmTensor, LookupTable, Context, ctx.pdma, SmallRng, closures.
#pragma once

#include "Ast.h"
#include "Device.h"
#include "Rng.h"
#include "Value.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp::interp {

// `HostTensor<D, M>`: one element per position of M (HostData).
struct HostTensorObj : HostObject {
  HostData data;
  const char *kindName() const override { return "HostTensor"; }
  std::string debug() const override;
  bool equals(const HostObject &o) const override;
  std::string typeStr() const;  // "HostTensor<i32, m![A]>"
  // The position holding a tensor index (nullopt: not an element). The first call builds an
  // index → position table for the mapping, so `.get` in a loop stays linear.
  std::optional<uint64_t> positionOf(const Index &index) const;

 private:
  mutable std::optional<IndexPositions> positions_;
  mutable MappingRef indexedMapping_;  // the mapping positions_ inverts
};

// The Context of `Context::acquire()`: the device model and the chip count it was created with.
struct ContextObj : HostObject {
  std::unique_ptr<Device> device;
  unsigned chips = 1;
  const char *kindName() const override { return "Context"; }
  std::string debug() const override { return "Context { chips: " + std::to_string(chips) + " }"; }
};

// `ctx.pdma` (PCIe DMA) and `ctx.tdma`: an engine handle of a context.
struct DmaObj : HostObject {
  std::shared_ptr<ContextObj> ctx;
  std::string name;  // "pdma", "tdma"
  const char *kindName() const override { return "DMA engine"; }
  std::string debug() const override { return "ctx." + name; }
};

// An `HbmTensor` handle: its type, HBM address, the context whose HBM holds it, and the host data
// it was written from (so a launch can re-place it as the kernel's parameter type).
struct HbmTensorObj : HostObject {
  TensorType type;
  uint64_t address = 0;
  std::shared_ptr<ContextObj> ctx;
  std::optional<HostData> source;
  // Why the handle no longer reads the tensor it was made for (empty while it does): a kernel it was
  // passed to wrote over its bytes (ArgumentOverwrites.cpp). Its first use after that warns once.
  std::string stale;
  bool warned = false;
  bool view = false;  // `h.view()` / `.tile()`: metadata over the tensor's bytes (type.element: the tile mapping)
  const char *kindName() const override { return view ? "HbmTensorView" : "HbmTensor"; }
  std::string debug() const override;
};

// `LookupTable<In, Out>` of "Table Indexing": one Out entry per In bit pattern (LookupTable.h).
struct LookupTableObj : HostObject {
  LookupTableData data;
  const char *kindName() const override { return "LookupTable"; }
  std::string debug() const override;  // "LookupTable<i8, i8> [0, 2, 4, ... (256 entries)]"
  bool equals(const HostObject &o) const override;
};

struct RngObj : HostObject {
  SmallRng rng;
  const char *kindName() const override { return "SmallRng"; }
  std::string debug() const override { return "SmallRng { .. }"; }
};

// A closure `|x, y| body`: the AST and the scopes it was created in (swapped in while it runs).
struct ClosureObj : HostObject {
  const ast::Expr *expr = nullptr;
  std::vector<std::map<std::string, Value>> env;
  bool running = false;
  const char *kindName() const override { return "closure"; }
  std::string debug() const override { return "<closure>"; }
};

// A function named as a value (`launch(kernel, ...)`).
struct FnRefObj : HostObject {
  std::string name;
  const char *kindName() const override { return "function"; }
  std::string debug() const override { return "fn " + name; }
};

template <class T> std::shared_ptr<T> objectAs(const Value &v) {
  return v.kind == Value::Object ? std::dynamic_pointer_cast<T>(v.obj) : nullptr;
}

}  // namespace tcp::interp
