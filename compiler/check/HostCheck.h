// HostCheck.h — the host-code checker: every statement, call, method, macro, path and field of host code has a rule or is an error.
#pragma once

#include "Diagnostics.h"
#include "HostType.h"
#include "Symbols.h"
#include "TypeCheck.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcp {

// A stage function (checked by the typed phase like a kernel): not `main`, not a test, not a kernel,
// it takes or returns a tensor of a device tier (HBM, DM, TRF, VRF or a stream) and no HostTensor.
bool isStageFunction(const std::string &name, const FnInfo &info, TypeChecker &types);
// Host code: `main`, `#[test]` functions, helpers whose signature names a HostTensor (host memory
// is out of a kernel's reach) and helpers whose signature names no device tensor type. A function whose signature names a device tensor type tcp
// does not model (the manual's library documentation) is neither.
bool isHostFunction(const std::string &name, const FnInfo &info, TypeChecker &types);

// Checks the host code of a program against the host API (HostApi.h) and the typed kernels (part of
// the typed phase; runs after the kernels are typed). Errors go to `diags`.
void checkHostCode(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags);

class HostChecker;

// The checker of a tcpi REPL session: checks each input against the session's definitions and the
// types of its existing bindings before the input runs.
class HostSessionChecker {
 public:
  HostSessionChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags);
  ~HostSessionChecker();
  // Checks the statements of one input (its items are declared already). `changed` are the types of
  // the session's bindings made or reassigned since the last input (the checker keeps the others).
  // Returns false after reporting an error.
  bool checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &changed);

 private:
  std::unique_ptr<HostChecker> checker_;
};

}  // namespace tcp
