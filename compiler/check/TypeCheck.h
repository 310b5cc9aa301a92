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
  // Checks the kernels and stage functions among `names` (others are skipped), in that order: the
  // REPL checks what one input defines.
  TypedProgram check(const std::vector<std::string> &names);
  // The tensor type an AST type denotes (references stripped, aliases followed); nullopt when it is
  // not a tensor type. Reports malformed tensor types.
  std::optional<TensorType> tensorTypeOf(const ast::Type &t, bool report);
  // The tensor type a path segment names with its generics (`HbmTensor::<bf16, m![1], m![A]>` of a
  // constructor path); errors are reported at `range`.
  std::optional<TensorType> tensorTypeOfSegment(const ast::PathSegment &seg, llvm::SMRange range, bool report);
  // Whether a type (references stripped, aliases followed) names a device tensor or stream type of
  // the op catalog, supported or not (HostTensor and handles excluded): what makes a function a
  // stage function.
  bool namesEngineTensor(const ast::Type &t) const;
  // Whether `name` is a stage function: not a kernel, test or `main`, with a body that is not a
  // bare declaration (`todo!()`), no HostTensor in its signature, and a device tensor or stream of
  // the catalog in it. The one rule shared by the typed phase and the host-code checker.
  bool isStageFunction(const std::string &name, const FnInfo &info) const;

  // The RNGD-S chip: its extra Fetch Adapter casts ("Type Casting").
  void setRngdS(bool rngdS) { rngdS_ = rngdS; }
  bool rngdS() const { return rngdS_; }

  class FunctionChecker;  // checks one function (TypeCheckInternal.h)
  friend class FunctionChecker;

 private:
  // The `StashD, Stash, { VeOrder }` arguments of VectorBranchTensor and VectorFxpTensor from args[k].
  bool vectorState(const std::vector<const ast::GenericArg *> &args, size_t k, const std::string &type, bool report,
                   bool &interFirst);  // sets interFirst for `{ VeOrder::InterFirst }`

  Symbols &syms_;
  Diagnostics &diags_;
  Resolver resolver_;
  bool rngdS_ = false;
};

void printTyped(const TypedProgram &program, llvm::raw_ostream &os);

}  // namespace tcp
