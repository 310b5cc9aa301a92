// Evaluator.h — tcpi's evaluator for host code: statements, expressions, mapping queries, macros.
#pragma once

#include "Ast.h"
#include "Diagnostics.h"
#include "Resolver.h"
#include "Symbols.h"
#include "Value.h"

#include <map>
#include <unordered_map>
#include <set>
#include <utility>
#include <string>
#include <vector>

namespace tcp::interp {

// Raised for an error while running a program; reported as `file:line:col: runtime error: ...`.
class HostRuntime;

struct RuntimeError {
  llvm::SMRange range;
  std::string message;
};

class Evaluator {
 public:
  Evaluator(Symbols &symbols, Diagnostics &diags, llvm::raw_ostream &out)
      : syms_(symbols), diags_(diags), resolver_(symbols, diags), out_(out) {
    scopes_.emplace_back();
  }

  Resolver &resolver() { return resolver_; }
  // The outermost scope: the REPL session's bindings.
  const std::map<std::string, Value> &globals() const { return scopes_.front(); }
  // The names of the session's bindings made or assigned since the last call (a superset: an
  // assignment inside a function counts its variable's name too).
  std::set<std::string> takeChangedGlobals() { return std::exchange(changedGlobals_, {}); }

  // Runs a statement in the current (outermost, persistent) scope. Throws RuntimeError.
  void execStmt(const ast::Stmt &s);
  Value eval(const ast::Expr &e);
  // Calls a user function with argument values. Throws RuntimeError.
  Value callFunction(const ast::Item &fn, std::vector<Value> args, llvm::SMRange callRange);
  // Calls a closure value `|x, y| body` (EvalClosures.cpp). Throws RuntimeError.
  Value callClosure(const Value &f, std::vector<Value> args, llvm::SMRange callRange);
  // The host API (HostRuntime.h); without one, host calls are unknown functions.
  void setHostRuntime(HostRuntime *host) { host_ = host; }
  // The type annotation of the `let` whose initializer is `e` (`.await`/parentheses stripped), if any.
  const ast::Type *expectedType(const ast::Expr &e) const;
  // Starts a new run for the step limit (HostLimits): a file's main or test, one REPL input.
  void resetSteps() { steps_ = 0; }
  void countStep(llvm::SMRange range);  // a runtime error past HostLimits::maxSteps

 private:
  struct ControlFlow {  // break / continue / return unwinding
    enum Kind { Break, Continue, Return } kind;
    Value value;
  };

  Value evalBlock(const ast::Block &b);
  Value evalPath(const ast::Expr &e);
  Value evalCall(const ast::Expr &e);
  Value evalMethodCall(const ast::Expr &e);
  Value evalBinary(const ast::Expr &e);
  Value evalUnary(const ast::Expr &e);
  // `l op r` for arithmetic, bitwise, comparison and logical operators on evaluated values.
  Value arith(const std::string &op, const Value &l, const Value &r, llvm::SMRange range);
  Value evalMacro(const ast::Expr &e);
  Value makeClosure(const ast::Expr &e);
  Value evalFor(const ast::Expr &e);
  Value evalIndexMacro(const ast::Expr &e);
  std::string format(const ast::Expr &site, const std::vector<ast::ExprP> &args, size_t first);
  void assign(const ast::Expr &target, Value v);
  void bind(const ast::Pattern &p, Value v);
  Value *lookup(const std::string &name);
  MappingRef mappingOfPathPrefix(const ast::Path &p, size_t segments, llvm::SMRange range);
  int64_t expectInt(const Value &v, const ast::Expr &site);
  bool expectBool(const Value &v, const ast::Expr &site);
  [[noreturn]] void fail(llvm::SMRange range, const std::string &msg);

  Symbols &syms_;
  Diagnostics &diags_;
  Resolver resolver_;
  llvm::raw_ostream &out_;
  std::vector<std::map<std::string, Value>> scopes_;
  std::set<std::string> changedGlobals_;
  unsigned callDepth_ = 0;
  uint64_t steps_ = 0;  // expressions evaluated in this run
  HostRuntime *host_ = nullptr;
  const ast::Type *hintType_ = nullptr;  // the current `let` annotation and its initializer
  const ast::Expr *hintExpr_ = nullptr;
  // `i![...]` keys lowered once per macro (a host loop evaluates the same macro per element): the keys'
  // mappings, their pairing (null when the sizes overflow together) and the macro's source text, which
  // tells a live node from a freed one whose address was reused (EvalMacros.cpp).
  struct IndexKeys {
    std::string text;
    std::vector<MappingRef> keys;
    MappingRef all;
  };
  std::unordered_map<const ast::Expr *, IndexKeys> indexKeys_;
};

}  // namespace tcp::interp
