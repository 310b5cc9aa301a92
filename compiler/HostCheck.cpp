// HostCheck.cpp — the host-code checker: which functions are host code, scopes, statements, patterns and host types from the AST.
#include "HostCheckInternal.h"

#include "Suggest.h"

#include <algorithm>

namespace tcp {

std::string countText(size_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

const ast::Expr &stripAwait(const ast::Expr &e) {
  const ast::Expr *x = &e;
  while ((x->kind == ast::Expr::Await || x->kind == ast::Expr::Paren || x->kind == ast::Expr::Try) &&
         !x->operands.empty() && x->operands[0])
    x = x->operands[0].get();
  return *x;
}

namespace {
// Whether a type names a tensor of the device side (anything `...Tensor` but HostTensor), even one
// tcp does not model (the manual's library documentation: `BufTensor`, `VectorBranchTensor<...>`).
bool namesDeviceTensor(const ast::Type &t) {
  if (t.kind == ast::Type::PathT && !t.path.segments.empty()) {
    llvm::StringRef n = t.path.segments.back().name;
    if ((n.endswith("Tensor") || n.endswith("TensorView")) && n != "HostTensor") return true;
    for (const auto &seg : t.path.segments)
      for (const auto &g : seg.generics)
        if (g.type && namesDeviceTensor(*g.type)) return true;
  }
  for (const auto &e : t.elems)
    if (e && namesDeviceTensor(*e)) return true;
  return t.ret && namesDeviceTensor(*t.ret);
}
bool namesHostTensor(const ast::Type &t) {
  if (t.kind == ast::Type::PathT && !t.path.segments.empty() && t.path.segments.back().name == "HostTensor") return true;
  for (const auto &e : t.elems)
    if (e && namesHostTensor(*e)) return true;
  return false;
}

// Host memory is out of a kernel's reach: a signature with a HostTensor is host code.
bool takesHostTensor(const ast::Item &fn) {
  if (fn.ret && namesHostTensor(*fn.ret)) return true;
  for (const ast::Param &p : fn.params)
    if (p.type && namesHostTensor(*p.type)) return true;
  return false;
}
}  // namespace

bool isStageFunction(const std::string &name, const FnInfo &info, TypeChecker &types) {
  if (info.isDevice || info.isTest || name == "main" || takesHostTensor(*info.item)) return false;
  auto deviceTensor = [&](const ast::Type *t) {
    if (!t) return false;
    auto tt = types.tensorTypeOf(*t, false);
    return tt && tt->tier != Tier::Host;
  };
  const ast::Item &fn = *info.item;
  if (deviceTensor(fn.ret.get())) return true;
  for (const ast::Param &p : fn.params)
    if (deviceTensor(p.type.get())) return true;
  return false;
}

bool isHostFunction(const std::string &name, const FnInfo &info, TypeChecker &types) {
  if (info.isDevice) return false;
  if (info.isTest || name == "main" || takesHostTensor(*info.item)) return true;
  if (isStageFunction(name, info, types)) return false;
  const ast::Item &fn = *info.item;
  if (fn.ret && namesDeviceTensor(*fn.ret)) return false;
  for (const ast::Param &p : fn.params)
    if (p.type && namesDeviceTensor(*p.type)) return false;
  return true;
}

HostChecker::HostChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags)
    : syms_(symbols), typed_(typed), diags_(diags), resolver_(symbols, diags), types_(symbols, diags) {
  for (const TypedFunction &f : typed_.functions)
    if (f.isDevice) chips_ = std::max(chips_, f.chips);
}

void HostChecker::error(llvm::SMRange r, const std::string &msg) {
  if (!reported_.insert({r.Start.getPointer(), msg}).second) return;
  diags_.error(r, msg);
}

std::string HostChecker::hint(const std::string &name, const std::vector<std::string> &candidates, bool listIfFar) {
  std::string near = didYouMean(name, candidates);
  if (!near.empty() || !listIfFar || candidates.empty() || candidates.size() > 12) return near;
  std::string s = " (known: ";
  for (size_t k = 0; k < candidates.size(); ++k) s += (k ? ", " : "") + candidates[k];
  return s + ")";
}

HostType *HostChecker::lookup(const std::string &name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

std::vector<std::string> HostChecker::variableNames() const {
  std::vector<std::string> out;
  for (const Scope &s : scopes_)
    for (const auto &[name, t] : s) out.push_back(name);
  return out;
}

const TypedFunction *HostChecker::typedFunction(const std::string &name) const {
  for (const TypedFunction &f : typed_.functions)
    if (f.name == name) return &f;
  return nullptr;
}

bool HostChecker::isKernel(const std::string &name) const {
  auto it = syms_.fns.find(name);
  return it != syms_.fns.end() && it->second.isDevice;
}

void HostChecker::bind(const ast::Pattern &p, const HostType &t) {
  switch (p.kind) {
    case ast::Pattern::Ident:
      if (!p.elems.empty()) {
        error(p.range, "`" + p.name + " @ pattern` bindings are not supported by tcpi's host evaluator");
        return;
      }
      scopes_.back()[p.name] = t;
      return;
    case ast::Pattern::Wildcard:
      return;
    case ast::Pattern::Tuple: {
      if (t.known() && t.kind != HostType::Never && (t.kind != HostType::Tuple || t.elems.size() != p.elems.size())) {
        error(p.range, "cannot destructure " + t.str() + " into " + countText(p.elems.size(), "name"));
        for (const auto &e : p.elems) bind(*e, HostType());
        return;
      }
      for (size_t k = 0; k < p.elems.size(); ++k)
        bind(*p.elems[k], t.kind == HostType::Tuple ? t.elems[k] : HostType());
      return;
    }
    case ast::Pattern::Ref:
      if (!p.elems.empty() && p.elems[0]) bind(*p.elems[0], t);
      return;
    default:
      error(p.range, "this pattern is not supported by tcpi's host evaluator (it binds names, `_`, tuples and `&x`)");
  }
}

HostType HostChecker::block(const ast::Block &b) {
  scopes_.emplace_back();
  HostType result = HostType::of(HostType::Unit);
  bool diverged = false;
  for (size_t k = 0; k < b.stmts.size(); ++k) {
    const ast::Stmt &s = *b.stmts[k];
    bool tail = k + 1 == b.stmts.size() && s.kind == ast::Stmt::ExprS && !s.semi && s.init;
    if (tail) {
      result = expr(*s.init);
      break;
    }
    if (s.kind == ast::Stmt::ExprS && s.init) {
      if (expr(*s.init).kind == HostType::Never) diverged = true;
      continue;
    }
    stmt(s);
  }
  scopes_.pop_back();
  return diverged ? HostType::of(HostType::Never) : result;
}

void HostChecker::stmt(const ast::Stmt &s) {
  switch (s.kind) {
    case ast::Stmt::Let: {
      if (s.elseBlock) {
        error(s.range, "`let ... else` is not supported by tcpi's host evaluator");
        if (s.init) expr(*s.init);
        return;
      }
      HostType annotated = s.type ? typeOf(*s.type) : HostType();
      HostType value = s.init ? expr(*s.init, s.type.get()) : annotated;
      if (s.init && s.type && !compatible(value, annotated))
        error(s.init->range, "the `let` annotation is " + annotated.str() + " but the value is " + value.str());
      // The value's own type is the more precise one (an HBM tensor remembers its host layout).
      HostType bound = value.known() && value.kind != HostType::Never ? value : annotated;
      if (bound.kind == HostType::HostTensor && !bound.tensorKnown() && annotated.tensorKnown()) bound = annotated;
      if (s.pattern) bind(*s.pattern, bound);
      return;
    }
    case ast::Stmt::ExprS:
      if (s.init) expr(*s.init);
      return;
    case ast::Stmt::ItemS:
      // Items are hoisted: functions are checked on their own, axes and aliases by the resolver.
      return;
    case ast::Stmt::Empty:
      return;
  }
}

void HostChecker::checkFunction(const ast::Item &fn) {
  if (checked_.count(&fn) || inProgress_.count(&fn) || !fn.body) return;
  inProgress_.insert(&fn);
  std::vector<Scope> savedScopes;
  savedScopes.swap(scopes_);
  std::vector<Loop> savedLoops;
  savedLoops.swap(loops_);
  std::vector<std::string> savedGenerics = generics_;
  generics_.clear();
  for (const auto &g : fn.generics) generics_.push_back(g.name);
  scopes_.push_back(globals_);
  scopes_.emplace_back();
  Frame frame;
  frame.fn = &fn;
  if (fn.ret) frame.declared = typeOf(*fn.ret);
  for (const ast::Param &p : fn.params) {
    if (p.isSelf) {
      error(p.range, "`self` parameters are not supported by tcpi's host evaluator");
      continue;
    }
    if (p.pattern) bind(*p.pattern, p.type ? typeOf(*p.type) : HostType());
  }
  frames_.push_back(frame);
  HostType body = block(*fn.body);
  Frame done = frames_.back();
  frames_.pop_back();
  HostType result = done.declared ? *done.declared : join(body, done.returned);
  if (done.declared) {
    auto numeric = [](const HostType &t) { return t.kind == HostType::Int || t.kind == HostType::Float; };
    if (!compatible(body, *done.declared) && !(numeric(body) && numeric(*done.declared))) {
      const ast::Stmt *tail = fn.body->stmts.empty() ? nullptr : fn.body->stmts.back().get();
      llvm::SMRange at = tail && tail->kind == ast::Stmt::ExprS && !tail->semi && tail->init ? tail->init->range : fn.body->range;
      error(at, "function `" + fn.name + "` returns " + done.declared->str() + " but its body is " + body.str());
    }
  }
  results_[&fn] = result;
  scopes_.swap(savedScopes);
  loops_.swap(savedLoops);
  generics_ = savedGenerics;
  inProgress_.erase(&fn);
  checked_.insert(&fn);
}

HostType HostChecker::functionResult(const ast::Item &fn) {
  if (fn.ret && !inProgress_.count(&fn)) {
    std::vector<std::string> saved = generics_;
    generics_.clear();
    for (const auto &g : fn.generics) generics_.push_back(g.name);
    HostType t = typeOf(*fn.ret, /*report=*/false);
    generics_ = saved;
    return t;
  }
  auto it = results_.find(&fn);
  if (it != results_.end()) return it->second;
  if (inProgress_.count(&fn)) return HostType();  // recursion without a result annotation
  checkFunction(fn);
  it = results_.find(&fn);
  return it != results_.end() ? it->second : HostType();
}

HostType HostChecker::typeOf(const ast::Type &t, bool report) {
  using T = ast::Type;
  switch (t.kind) {
    case T::Ref:
    case T::Ptr:
      return !t.elems.empty() && t.elems[0] ? typeOf(*t.elems[0], report) : HostType();
    case T::Tuple: {
      if (t.elems.empty()) return HostType::of(HostType::Unit);
      HostType out = HostType::of(HostType::Tuple);
      for (const auto &e : t.elems) out.elems.push_back(e ? typeOf(*e, report) : HostType());
      return out;
    }
    case T::Array:
    case T::Slice: {
      HostType elem = !t.elems.empty() && t.elems[0] ? typeOf(*t.elems[0], report) : HostType();
      std::optional<uint64_t> n;
      if (t.arrayLen) n = resolver_.evalConst(*t.arrayLen);
      return HostType::vec(elem, n);
    }
    case T::Infer: return HostType();
    case T::Never: return HostType::of(HostType::Never);
    case T::FnPtr: return HostType::of(HostType::Closure);
    case T::ImplTrait:
    case T::DynTrait: {
      std::string n = t.path.segments.empty() ? "" : t.path.segments.back().name;
      if (n == "Fn" || n == "FnMut" || n == "FnOnce") return HostType::of(HostType::Closure);
      if (report) error(t.range, "`" + t.path.str() + "` trait types are not host types tcpi knows (closures are `impl Fn(...)`)");
      return HostType();
    }
    case T::Mapping: {
      HostType out = HostType::of(HostType::Mapping);
      out.mapping = resolver_.mappingOfType(t);
      return out;
    }
    case T::PathT: break;
  }
  if (t.path.segments.empty()) return HostType();
  const ast::PathSegment &seg = t.path.segments.back();
  const std::string &n = seg.name;
  auto arg = [&](size_t k) -> HostType {
    std::vector<const ast::GenericArg *> gs;
    for (const auto &g : seg.generics)
      if (g.kind == ast::GenericArg::TypeArg && g.type) gs.push_back(&g);
    return k < gs.size() ? typeOf(*gs[k]->type, report) : HostType();
  };
  static const std::set<std::string> kInts = {"i4", "i8", "i16", "i32", "i64", "i128", "isize",
                                              "u8", "u16", "u32", "u64", "u128", "usize"};
  static const std::set<std::string> kFloats = {"f32", "f64", "bf16", "f16", "f8e4m3", "f8e5m2"};
  if (t.path.segments.size() == 1 && std::find(generics_.begin(), generics_.end(), n) != generics_.end()) return HostType();
  if (kInts.count(n)) return HostType::of(HostType::Int);
  if (kFloats.count(n)) return HostType::of(HostType::Float);
  if (n == "bool") return HostType::of(HostType::Bool);
  if (n == "String" || n == "str" || n == "char") return HostType::of(HostType::Str);
  if (n == "Vec") return HostType::vec(arg(0));
  if (n == "Option") return HostType::option(arg(0));
  if (n == "Context") return HostType::of(HostType::Context);
  if (n == "SmallRng") return HostType::of(HostType::Rng);
  if (n == "LookupTable") {
    std::string err;
    auto lt = lookupTableTypeOf(t, &err);
    if (!lt && !err.empty() && report) error(t.range, err);
    HostType out = HostType::of(HostType::Table);
    if (lt) {
      out.table = *lt;
      out.tableKnown = true;
    }
    return out;
  }
  if (t.path.segments.size() == 1 && seg.generics.empty() && syms_.aliases.count(n)) {
    const AliasInfo &info = syms_.aliases.at(n);
    if (info.item && info.item->type && info.item->type->kind == ast::Type::Mapping) {
      HostType out = HostType::of(HostType::Mapping);
      out.mapping = resolver_.aliasMapping(n, t.range, false);
      return out;
    }
  }
  if (auto tt = types_.tensorTypeOf(t, report)) {
    if (tt->tier == Tier::Host) return HostType::hostTensor(tt->dtype, tt->element);
    if (tt->tier == Tier::Hbm) return HostType::hbmTensor(tt->dtype, tt->chip, tt->element);
    if (report)
      error(t.range, "`" + t.path.str() + "` is a device tensor type: host code holds HostTensor and HbmTensor values "
                     "(the other tiers exist inside kernels)");
    return HostType();
  }
  if (n == "HostTensor") return HostType::of(HostType::HostTensor);
  if (n == "HbmTensor") return HostType::of(HostType::HbmTensor);
  if (t.path.segments.size() == 1 && syms_.aliases.count(n)) {
    const AliasInfo &info = syms_.aliases.at(n);
    if (info.item && info.item->type && info.item->generics.empty()) {
      if (aliasDepth_ > 32) return HostType();  // an alias cycle (reported where it is used as a mapping)
      ++aliasDepth_;
      HostType out = typeOf(*info.item->type, report);
      --aliasDepth_;
      return out;
    }
    return HostType();
  }
  if (report) {
    std::vector<std::string> names = {"i8", "i16", "i32", "i64", "u8", "u32", "u64", "usize", "f32", "f64", "bool",
                                      "String", "Vec", "Option", "Context", "SmallRng", "HostTensor", "HbmTensor",
                                      "LookupTable"};
    for (const std::string &a : syms_.aliasOrder) names.push_back(a);
    error(t.range, "unknown type `" + t.path.str() + "` in host code" + hint(n, names, false));
  }
  return HostType();
}

void HostChecker::checkProgram() {
  for (const std::string &name : syms_.fnOrder) {
    const FnInfo &info = syms_.fns.at(name);
    if (!info.item || !info.item->body || !isHostFunction(name, info, types_)) continue;
    checkFunction(*info.item);
  }
}

void HostChecker::checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &globals) {
  globals_ = globals;
  scopes_.assign(1, globals_);
  for (const ast::Stmt *s : stmts) {
    if (s->kind == ast::Stmt::ItemS) {
      if (s->item && s->item->kind == ast::Item::Fn) {
        auto it = syms_.fns.find(s->item->name);
        if (it != syms_.fns.end() && it->second.item == s->item.get() && isHostFunction(s->item->name, it->second, types_)) {
          checked_.erase(s->item.get());
          checkFunction(*s->item);
        }
      }
      continue;
    }
    if (s->kind == ast::Stmt::ExprS && s->init) expr(*s->init);
    else stmt(*s);
  }
}

void checkHostCode(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags) {
  HostChecker checker(symbols, typed, diags);
  checker.checkProgram();
}

HostSessionChecker::HostSessionChecker(Symbols &symbols, const TypedProgram &typed, Diagnostics &diags)
    : checker_(std::make_unique<HostChecker>(symbols, typed, diags)) {}

HostSessionChecker::~HostSessionChecker() = default;

bool HostSessionChecker::checkInput(const std::vector<const ast::Stmt *> &stmts, const std::map<std::string, HostType> &globals) {
  unsigned before = checker_->diags_.errorCount();
  checker_->checkInput(stmts, globals);
  return checker_->diags_.errorCount() == before;
}

}  // namespace tcp
