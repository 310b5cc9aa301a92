// TypeCheck.cpp — runs the typed phase over every kernel and stage function, and prints its result.
#include "OpAccounting.h"
#include "TypeCheckInternal.h"

#include <llvm/Support/ErrorHandling.h>

#include <algorithm>
#include <functional>
#include <set>

namespace tcp {

namespace {
// `todo!(..)` or `unimplemented!(..)` as the whole body: a declaration, like `fn f(..) -> T;` (the
// manual's "Tensor Functions" shows `elementwise_add` this way). It is not checked; a call is refused.
bool declarationOnly(const ast::Block &body) {
  if (body.stmts.size() != 1 || body.stmts[0]->kind != ast::Stmt::ExprS || !body.stmts[0]->init) return false;
  const ast::Expr &e = *body.stmts[0]->init;
  return e.kind == ast::Expr::Macro && e.macro && (e.macro->name == "todo" || e.macro->name == "unimplemented");
}
}  // namespace

bool TypeChecker::namesEngineTensor(const ast::Type &t0) const {
  const ast::Type *t = &t0;
  while (t->kind == ast::Type::Ref && !t->elems.empty() && t->elems[0]) t = t->elems[0].get();
  if (t->kind != ast::Type::PathT || t->path.segments.empty()) return false;
  const std::string &name = t->path.segments.back().name;
  if (syms_.declaredTypes.count(name)) return false;  // the program's own type of that name
  // A type alias of a tensor type.
  if (t->path.segments.size() == 1 && t->path.segments[0].generics.empty()) {
    auto al = syms_.aliases.find(name);
    return al != syms_.aliases.end() && al->second.item && al->second.item->type && al->second.item->generics.empty() &&
           al->second.item->type.get() != t && namesEngineTensor(*al->second.item->type);
  }
  static const std::set<std::string> kHostOrHandle = {"HostTensor", "Context", "TuContext", "DmaContext", "LookupTable"};
  return catalog::findType(name) && !kHostOrHandle.count(name);
}

bool TypeChecker::isStageFunction(const std::string &name, const FnInfo &info) const {
  if (info.isDevice || info.isTest || name == "main" || !info.item->body || declarationOnly(*info.item->body))
    return false;
  const ast::Item &fn = *info.item;
  // Host memory is out of a kernel's reach: a signature with a HostTensor anywhere is host code.
  std::function<bool(const ast::Type *)> host = [&](const ast::Type *t) {
    if (!t) return false;
    if (t->kind == ast::Type::PathT && !t->path.segments.empty() && t->path.segments.back().name == "HostTensor")
      return true;
    for (const auto &e : t->elems)
      if (host(e.get())) return true;
    return false;
  };
  if (host(fn.ret.get())) return false;
  for (const ast::Param &p : fn.params)
    if (host(p.type.get())) return false;
  // A stage function takes or returns a tensor or stream of the device (any engine type of the
  // catalog, supported or not).
  if (fn.ret && namesEngineTensor(*fn.ret)) return true;
  for (const ast::Param &p : fn.params)
    if (p.type && namesEngineTensor(*p.type)) return true;
  return false;
}

TypedProgram TypeChecker::check() { return check(syms_.fnOrder); }

TypedProgram TypeChecker::check(const std::vector<std::string> &names) {
  TypedProgram program;
  // A stage function some kernel or stage function calls runs inlined at each call, on the caller's
  // values (TypeCheckInline.cpp): it is checked there, not on its own (an integer parameter that an
  // op needs as a constant is one only at a call).
  // Only a call that is itself checked counts: the calls reachable from the kernels and the stage
  // functions nobody calls (stage functions that only call each other are checked on their own, and
  // their calls then report the recursion).
  std::map<std::string, std::vector<std::string>> calls;
  std::set<std::string> hasCaller;
  for (const auto &[name, info] : syms_.fns)
    if (info.item && info.item->body && (info.isDevice || isStageFunction(name, info)))
      for (const std::string &f : calledFunctions(*info.item->body)) {
        auto g = syms_.fns.find(f);
        if (f == name || g == syms_.fns.end() || g->second.isDevice || !isStageFunction(f, g->second)) continue;
        calls[name].push_back(f);
        hasCaller.insert(f);
      }
  std::set<std::string> called;
  std::vector<std::string> worklist;
  for (const auto &[name, info] : syms_.fns)
    if (calls.count(name) && (info.isDevice || !hasCaller.count(name))) worklist.push_back(name);
  while (!worklist.empty()) {
    std::string f = worklist.back();
    worklist.pop_back();
    for (const std::string &g : calls[f])
      if (called.insert(g).second) worklist.push_back(g);
  }
  for (const std::string &name : names) {
    auto found = syms_.fns.find(name);
    if (found == syms_.fns.end()) continue;
    const FnInfo &info = found->second;
    const ast::Item &fn = *info.item;
    if (!fn.body || declarationOnly(*fn.body)) continue;
    // Kernels and stage functions are checked here; host code by HostCheck.cpp.
    if (!info.isDevice && !isStageFunction(name, info)) continue;
    if (!info.isDevice && called.count(name)) continue;
    TypedFunction tf;
    tf.isDevice = info.isDevice;
    tf.chips = info.chips;
    unsigned errorsBefore = diags_.errorCount();
    FunctionChecker checker(*this, fn, tf);
    checker.run();
    // Nothing is lost silently (internal invariant): a function that checks produced a typed op for
    // every engine-method call of its source.
    if (diags_.errorCount() == errorsBefore) {
      std::vector<std::string> typed;
      for (const TypedOp &op : tf.ops) typed.push_back(op.name);
      BodyOf bodyOf = [&](const std::string &callee) -> const ast::Block * {
        auto it = syms_.fns.find(callee);
        return it != syms_.fns.end() && isStageFunction(callee, it->second) ? it->second.item->body.get() : nullptr;
      };
      if (!opsAccountFor(*fn.body, typed, bodyOf))
        llvm::report_fatal_error("internal error: `" + llvm::Twine(name) + "` calls " +
                                 llvm::Twine(engineCalls(*fn.body, bodyOf).size()) + " engine ops but its typed program has " +
                                 llvm::Twine(typed.size()));
    }
    program.functions.push_back(std::move(tf));
  }
  return program;
}

void printTyped(const TypedProgram &program, llvm::raw_ostream &os) {
  for (const TypedFunction &f : program.functions) {
    os << (f.isDevice ? "kernel " : "stage ") << f.name;
    if (f.isDevice) os << " (chip = " << f.chips << ")";
    os << "\n";
    for (const auto &[name, t] : f.params) os << "  param " << name << ": " << t.str() << "\n";
    for (const TypedTable &t : f.tables)  // its position among the tensor and table parameters
      os << "  table " << t.name << ": " << t.type.str() << " (" << (f.isDevice ? "launch argument " : "argument ")
         << t.argIndex + 1 << (f.isDevice ? " after ctx)\n" : ")\n");
    if (f.result) os << "  returns " << f.result->str() << "\n";
    if (!f.tupleResults.empty()) {
      os << "  returns (";
      for (size_t k = 0; k < f.tupleResults.size(); ++k) os << (k ? ", " : "") << f.tupleResults[k].str();
      os << ")\n";
    }
    for (const TypedOp &op : f.ops) {
      os << "  " << op.line << ": ";
      if (op.chain >= 0) os << "[tu " << op.chain << "] ";
      os << op.name;
      if (!op.arg.empty()) os << "(" << op.arg << ")";
      if (op.imm) os << " imm " << *op.imm;
      if (op.address) os << " @ " << *op.address;
      if (op.source >= 0 && op.source < static_cast<int>(f.tensors.size()) && !f.tensors[op.source].name.empty())
        os << " reads " << f.tensors[op.source].name;
      os << "\n    -> " << op.out.str() << "\n";
      for (const TensorType &t : op.operands) os << "    with " << t.str() << "\n";
    }
  }
}

}  // namespace tcp
