// TypeCheck.h — the typed phase: kernels and stage functions checked as chains of typed ops.
#pragma once

#include "Diagnostics.h"
#include "LookupTable.h"
#include "Resolver.h"
#include "Sequencer.h"
#include "Symbols.h"
#include "TensorType.h"
#include "TypedProgram.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

class TypeChecker {
 public:
  TypeChecker(Symbols &symbols, Diagnostics &diags) : syms_(symbols), diags_(diags), resolver_(symbols, diags) {}

  // Checks every device kernel and stage function of the program.
  TypedProgram check();
  // The tensor type an AST type denotes (references stripped, aliases followed); nullopt when it is
  // not a tensor type. Reports malformed tensor types.
  std::optional<TensorType> tensorTypeOf(const ast::Type &t, bool report);

  // The RNGD-S chip: its extra Fetch Adapter casts ("Type Casting").
  void setRngdS(bool rngdS) { rngdS_ = rngdS; }
  bool rngdS() const { return rngdS_; }

  class FunctionChecker;  // checks one function (TypeCheckInternal.h)
  friend class FunctionChecker;

 private:

  Symbols &syms_;
  Diagnostics &diags_;
  Resolver resolver_;
  bool rngdS_ = false;
};

void printTyped(const TypedProgram &program, llvm::raw_ostream &os);

}  // namespace tcp
