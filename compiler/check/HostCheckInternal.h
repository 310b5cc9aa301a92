// HostCheckInternal.h — the host-code checker's class, shared by the HostCheck*.cpp rule files (not a public API).
#pragma once

#include "HostApi.h"
#include "HostCheck.h"
#include "Resolver.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tcp {

// An integer written as literal arithmetic (`3`, `1 << 20`, `48 * (1 << 30)`): its value, or nothing
// when it depends on anything else or overflows (HostCheckTensors.cpp). Reports nothing.
std::optional<uint64_t> literalAddress(const ast::Expr &e);

class HostChecker {
 public:
  HostChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags);

  // Every host function of the program.
  void checkProgram();
  // One REPL input in a scope holding `globals` (REPL functions see them too).
  void checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &changed);

  using Scope = std::map<std::string, HostType>;

  // ---- diagnostics (deduplicated: closure bodies are checked once per use)
  void error(llvm::SMRange r, const std::string &msg);
  // "; did you mean `x`?" when a candidate is close, else " (known: a, b, c)" for short lists.
  static std::string hint(const std::string &name, const std::vector<std::string> &candidates, bool listIfFar = true);

  // ---- scopes and functions (HostCheck.cpp)
  HostType *lookup(const std::string &name);
  void bind(const ast::Pattern &p, const HostType &t);
  HostType block(const ast::Block &b, const ast::Type *hint = nullptr);  // hint: the tail's expected type
  void stmt(const ast::Stmt &s);
  void checkFunction(const ast::Item &fn);
  // The result type of a user function (its annotation; without one, the body's type).
  HostType functionResult(const ast::Item &fn);
  // The host type an AST type denotes; reports names that are not types.
  HostType typeOf(const ast::Type &t, bool report = true);
  std::vector<std::string> variableNames() const;
  const TypedFunction *typedFunction(const std::string &name) const;

  // ---- expressions (HostCheckExpr.cpp). `hint` is the `let` annotation of this initializer.
  HostType expr(const ast::Expr &e, const ast::Type *hint = nullptr);
  HostType unary(const ast::Expr &e);
  HostType binary(const ast::Expr &e);
  HostType arith(const std::string &op, const HostType &l, const HostType &r, llvm::SMRange range);
  HostType cast(const ast::Expr &e);
  HostType assign(const ast::Expr &e);
  HostType field(const ast::Expr &e);
  HostType loopExpr(const ast::Expr &e);
  HostType forExpr(const ast::Expr &e);
  HostType makeClosure(const ast::Expr &e);
  // Checks a call of a closure value with argument types; returns its result type.
  HostType callClosure(const HostType &closure, const std::vector<HostType> &args, llvm::SMRange site);
  // Checks `a == b`-style comparisons of two values (tensors: element types and axes).
  void checkComparable(const HostType &l, const HostType &r, llvm::SMRange range, const std::string &what, bool sameDtype);

  // ---- paths and calls (HostCheckPaths.cpp)
  HostType path(const ast::Expr &e);
  HostType call(const ast::Expr &e, const ast::Type *hint);
  HostType userCall(const ast::Expr &e, const ast::Item &fn);
  // The mapping named by the first `segments` segments of a path (an axis, a mapping alias or
  // `<m![...]>`); nullptr if they name none. Reports alias cycles and aliases that are not mappings.
  MappingRef mappingPrefix(const ast::Path &p, size_t segments, llvm::SMRange range, bool *reported);
  std::vector<HostType> argTypes(const ast::Expr &e, size_t first);
  bool arity(const HostApiEntry &api, size_t argc, llvm::SMRange range);

  // ---- methods (HostCheckMethods.cpp)
  HostType methodCall(const ast::Expr &e, const ast::Type *hint);

  // ---- macros (HostCheckMacros.cpp)
  HostType macro(const ast::Expr &e);
  void formatArgs(const ast::Expr &site, const std::vector<ast::ExprP> &args, size_t first);

  // ---- host tensors, tables and the device (HostCheckTensors.cpp)
  HostType hbmFromAddr(const ast::Expr &e, const ast::Path &p, const ast::Type *hint);
  void checkHbmAddress(const ast::Expr &addr, num::DType dtype, const MappingRef &element);
  HostType hostTensorCtor(const ast::Expr &e, const std::string &fn, const ast::Path &p, const ast::Type *hint);
  HostType lookupTableCtor(const ast::Expr &e, const std::string &fn, const ast::Path &p, const ast::Type *hint);
  HostType hostTensorMethod(const ast::Expr &e, const std::string &method, const HostType &recv, const ast::Type *hint);
  HostType toHbm(const ast::Expr &e, const HostType &recv, const ast::Type *hint);
  // A mapping given as a type argument (`m![...]` or an alias); nullptr after reporting.
  MappingRef mappingArg(const ast::GenericArg &g);
  HostType toHost(const ast::Expr &e, const HostType &recv, const ast::Type *hint);
  // ---- views of HBM tensors (HostCheckViews.cpp)
  HostType hbmViewMethod(const ast::Expr &e, const std::string &method, const HostType &recv, const ast::Type *hint);
  HostType tileView(const ast::Expr &e, const HostType &recv);
  HostType launch(const ast::Expr &e);
  HostType contraction(const ast::Expr &e, const ast::PathSegment &seg, const ast::Type *hint);
  void assertClose(const ast::Expr &e);
  // The elements of a vector stored in a tensor or table of element type d (numbers; no floats for
  // an integer d): the vector's element type, or each element of a literal.
  void checkElements(const ast::Expr &arg, const HostType &v, num::DType d);
  // `&mut ctx.pdma` (or `&mut ctx`): the PCIe DMA engine of host transfers.
  void expectPdma(const ast::Expr &arg, const HostType &t, const std::string &call);
  // `<D, M>` of a host tensor or contraction turbofish; nullopt (after reporting) when malformed.
  std::optional<HostType> hostTensorGenerics(const ast::PathSegment &seg, llvm::SMRange range, bool *given);
  // The annotation `hint` as a host / HBM tensor type, if it is one.
  std::optional<HostType> hintedTensor(const ast::Type *hint, HostType::Kind kind);

  Symbols &syms_;
  const TypedProgram &typed_;
  Diagnostics &diags_;
  Resolver resolver_;
  TypeChecker types_;
  unsigned chips_ = 1;  // the context's chips: the largest #[device(chip = N)]

  std::vector<Scope> scopes_;
  Scope globals_;  // REPL bindings (functions see them, as in tcpi)
  struct Frame {
    const ast::Item *fn = nullptr;  // null: a closure
    std::optional<HostType> declared;  // the annotated result type
    HostType returned = HostType::of(HostType::Never);  // join of `return` values
  };
  std::vector<Frame> frames_;
  struct Loop {
    bool isLoop = false;  // `loop` (break may carry a value)
    HostType broken = HostType::of(HostType::Never);
  };
  std::vector<Loop> loops_;
  std::vector<std::string> generics_;  // generic parameters of the function being checked
  std::map<const ast::Item *, HostType> results_;
  std::set<const ast::Item *> checked_, inProgress_;
  std::set<const ast::Expr *> closuresRunning_;
  std::set<std::pair<const char *, std::string>> reported_;
  unsigned aliasDepth_ = 0;
};

// "1 argument" / "2 arguments".
std::string countText(size_t n, const char *noun);
// The expression with `.await` and parentheses removed (what a `let` annotation applies to).
const ast::Expr &stripAwait(const ast::Expr &e);

}  // namespace tcp
