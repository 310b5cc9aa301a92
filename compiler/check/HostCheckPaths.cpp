// HostCheckPaths.cpp — host paths and calls: variables, mappings (`E::SIZE`, `E::map`), constructors, user functions and closures.
#include "HostCheckInternal.h"

#include <set>

namespace tcp {

namespace {
std::string argsText(const HostApiEntry &api) {
  if (api.maxArgs == HostApiEntry::kVariadic) return "at least " + countText(api.minArgs, "argument");
  if (api.minArgs == api.maxArgs) return api.minArgs ? countText(api.minArgs, "argument") : "no arguments";
  return std::to_string(api.minArgs) + " to " + std::to_string(api.maxArgs) + " arguments";
}
}  // namespace

bool HostChecker::arity(const HostApiEntry &api, size_t argc, llvm::SMRange range) {
  if (argc >= api.minArgs && argc <= api.maxArgs) return true;
  error(range, "`" + api.usage + "` takes " + argsText(api) + ", found " + std::to_string(argc));
  return false;
}

std::vector<HostType> HostChecker::argTypes(const ast::Expr &e, size_t first) {
  std::vector<HostType> out;
  for (size_t k = first; k < e.operands.size(); ++k) out.push_back(expr(*e.operands[k]));
  return out;
}

MappingRef HostChecker::mappingPrefix(const ast::Path &p, size_t segments, llvm::SMRange range, bool *reported) {
  *reported = false;
  if (p.qualifiedSelf && segments == 0) {
    MappingRef m = resolver_.mappingOfType(*p.qualifiedSelf);
    if (!m) {
      error(p.qualifiedSelf->range, "`<...>` must name a mapping here (`<m![A, B]>::SIZE`)");
      *reported = true;
    }
    return m;
  }
  if (p.qualifiedSelf || segments != 1) return nullptr;
  const std::string &name = p.segments[0].name;
  if (syms_.aliases.count(name)) {
    // An alias chain that comes back to itself (`type X = Y; type Y = X;`) names nothing.
    std::vector<std::string> chain{name};
    for (std::string cur = name;;) {
      const AliasInfo &info = syms_.aliases.at(cur);
      const ast::Type *t = info.item ? info.item->type.get() : nullptr;
      if (!t || t->kind != ast::Type::PathT || t->path.qualifiedSelf || t->path.segments.size() != 1 ||
          !t->path.segments[0].generics.empty() || !syms_.aliases.count(t->path.segments[0].name))
        break;
      cur = t->path.segments[0].name;
      bool cycle = std::find(chain.begin(), chain.end(), cur) != chain.end();
      chain.push_back(cur);
      if (cycle) {
        std::string text;
        for (size_t k = 0; k < chain.size(); ++k) text += (k ? " → " : "") + chain[k];
        error(range, "type alias `" + name + "` is a cycle of aliases (" + text + "): it names no mapping");
        *reported = true;
        return nullptr;
      }
    }
    MappingRef m = resolver_.aliasMapping(name, range, /*report=*/false);
    if (!m) {
      error(range, "type alias `" + name + "` does not name a mapping `m![...]`");
      *reported = true;
    }
    return m;
  }
  if (syms_.axes.find(name)) {
    std::string err;
    MappingRef m = Mapping::symbol(syms_.axes, name, &err);
    if (!m) {
      error(range, err);
      *reported = true;
    }
    return m;
  }
  return nullptr;
}

HostType HostChecker::path(const ast::Expr &e) {
  const ast::Path &p = e.path;
  size_t n = p.segments.size();
  if (!p.qualifiedSelf && n == 1) {
    const std::string &name = p.segments[0].name;
    if (HostType *v = lookup(name)) return *v;
    if (name == "None") return HostType::option(HostType());
    bool reported = false;
    if (MappingRef m = mappingPrefix(p, 1, e.range, &reported)) {
      HostType t = HostType::of(HostType::Mapping);
      t.mapping = m;
      return t;
    }
    if (reported) return HostType();
    // `const N: usize = 4;`: its value's type (a constant may use earlier ones, never itself).
    auto c = syms_.consts.find(name);
    if (c != syms_.consts.end() && c->second->value) {
      static thread_local std::set<std::string> folding;
      if (!folding.insert(name).second) {
        error(e.range, "the constant `" + name + "` is defined in terms of itself");
        return HostType();
      }
      HostType t = expr(*c->second->value, c->second->type.get());
      folding.erase(name);
      return t;
    }
    if (syms_.fns.count(name)) {
      error(e.range, "`" + name + "` is a function: call it (`" + name + "(...)`); only `launch` takes a kernel by name");
      return HostType();
    }
    std::vector<std::string> names = variableNames();
    names.push_back("None");
    for (const std::string &a : syms_.aliasOrder) names.push_back(a);
    for (const AxisInfo &a : syms_.axes.all()) names.push_back(a.name);
    error(e.range, "unknown name `" + name + "`" + hint(name, names, false));
    return HostType();
  }
  const std::string &last = n ? p.segments.back().name : std::string();
  bool reported = false;
  MappingRef m = n ? mappingPrefix(p, p.qualifiedSelf ? n - 1 : n - 1, e.range, &reported) : nullptr;
  if (reported) return HostType();
  if (last == "SIZE") {
    if (m) {
      if (m->size() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) error(e.range, "size does not fit in 64 bits");
      return HostType::of(HostType::Int);
    }
    error(e.range, "`" + p.str() + "`: `" + (n > 1 ? p.segments[0].name : std::string("?")) +
                       "` is neither an axis nor a mapping alias" +
                       (n == 2 ? hint(p.segments[0].name, syms_.aliasOrder, false) : std::string()));
    return HostType();
  }
  if (m) {
    error(e.range, "mapping `" + p.segments[0].name + "` has no associated constant `" + last + "`" +
                       hint(last, {"SIZE"}));
    return HostType();
  }
  error(e.range, "`" + p.str() + "` is not a value in host code (host paths are variables, `None`, mappings and `E::SIZE`)");
  return HostType();
}

HostType HostChecker::userCall(const ast::Expr &e, const ast::Item &fn) {
  std::vector<HostType> args = argTypes(e, 1);
  if (args.size() != fn.params.size()) {
    error(e.range, "function `" + fn.name + "` takes " + countText(fn.params.size(), "argument") + " but " +
                       std::to_string(args.size()) + (args.size() == 1 ? " was given" : " were given"));
    return functionResult(fn);
  }
  if (!fn.body) {
    error(e.range, "function `" + fn.name + "` has no body");
    return HostType();
  }
  std::vector<std::string> saved = generics_;
  generics_.clear();
  for (const auto &g : fn.generics) generics_.push_back(g.name);
  for (size_t k = 0; k < args.size(); ++k) {
    const ast::Param &p = fn.params[k];
    if (!p.type) continue;
    HostType want = typeOf(*p.type, /*report=*/false);
    if (!compatible(args[k], want))
      error(e.operands[k + 1]->range, "argument " + std::to_string(k + 1) + " of `" + fn.name + "` is declared " +
                                          want.str() + ", found " + args[k].str());
  }
  generics_ = saved;
  return functionResult(fn);
}

HostType HostChecker::call(const ast::Expr &e, const ast::Type *hint) {
  const ast::Expr &callee = *e.operands[0];
  size_t argc = e.operands.size() - 1;
  if (callee.kind != ast::Expr::PathE) {
    HostType f = expr(callee);
    std::vector<HostType> args = argTypes(e, 1);
    error(callee.range, "tcpi calls functions and closures by name (`f(x)`), not " +
                            (f.known() ? f.str() : std::string("this expression")));
    return HostType();
  }
  const ast::Path &p = callee.path;
  size_t n = p.segments.size();
  if (n == 0) {
    argTypes(e, 1);
    error(callee.range, "`" + p.str() + "(...)` is not a host function");
    return HostType();
  }
  const std::string &last = p.segments.back().name;
  using K = HostApiEntry::Kind;
  // Mappings: `E::map(i)`, `<m![A, B]>::map_all(i)`.
  if (p.qualifiedSelf || n == 2) {
    bool reported = false;
    MappingRef m = mappingPrefix(p, n - 1, callee.range, &reported);
    if (reported) {
      argTypes(e, 1);
      return HostType();
    }
    if (m) {
      const HostApiEntry *api = findHostApi(K::AssocFn, "mapping", last);
      std::vector<HostType> args = argTypes(e, 1);
      if (!api) {
        error(callee.range, "mapping `" + (p.qualifiedSelf ? m->str() : p.segments[0].name) +
                                "` has no associated function `" + last + "`" +
                                HostChecker::hint(last, hostApiNames(K::AssocFn, "mapping")));
        return HostType();
      }
      if (arity(*api, argc, e.range) && args[0].known() && args[0].kind != HostType::Int && args[0].kind != HostType::Never)
        error(e.operands[1]->range, "`" + api->usage + "` takes a buffer position (an integer), found " + args[0].str());
      return last == "map" ? HostType::option(HostType::of(HostType::Index)) : HostType::vec(HostType::of(HostType::Index));
    }
  }
  if (p.qualifiedSelf) {
    argTypes(e, 1);
    error(callee.range, "`" + p.str() + "(...)` is not a host function");
    return HostType();
  }
  if (n == 1) {
    const std::string &name = last;
    if (name == "launch") return launch(e);
    if (name == "Some") {  // tcpi's `Some` comes before the program's functions
      std::vector<HostType> args = argTypes(e, 1);
      arity(*findHostApi(K::Function, "", "Some"), argc, e.range);
      return HostType::option(args.empty() ? HostType() : args[0]);
    }
    auto fn = syms_.fns.find(name);
    if (fn != syms_.fns.end()) {
      if (fn->second.isDevice) {
        argTypes(e, 1);
        error(callee.range, "`" + name + "` is a #[device] kernel: run it with `launch(" + name + ", (&mut ctx, ...))`");
        return HostType();
      }
      if (!isHostFunction(name, fn->second, types_)) {
        argTypes(e, 1);
        error(callee.range, "`" + name + "` is a stage function (it takes or returns device tensors): kernels call it, "
                            "host code cannot");
        return HostType();
      }
      return userCall(e, *fn->second.item);
    }
    if (name == "contraction") return contraction(e, p.segments[0], hint);
    if (HostType *v = lookup(name)) {
      HostType f = *v;
      std::vector<HostType> args = argTypes(e, 1);
      if (f.kind == HostType::Closure) return callClosure(f, args, e.range);
      if (f.known()) error(callee.range, "`" + name + "` is not a function: it is " + f.str());
      return HostType();
    }
    argTypes(e, 1);
    std::vector<std::string> names = hostApiNames(K::Function, "");
    for (const std::string &f : syms_.fnOrder)
      if (isHostFunction(f, syms_.fns.at(f), types_)) names.push_back(f);
    for (const std::string &v : variableNames()) names.push_back(v);
    error(callee.range, "`" + name + "` is not a function" + HostChecker::hint(name, names, false) +
                            (HostChecker::hint(name, names, false).empty()
                                 ? " (host code calls its own functions, closures, `launch`, `contraction` and `Some`)"
                                 : ""));
    return HostType();
  }
  // `Type::function(...)`: the type is the second-to-last segment (a crate prefix is allowed).
  const std::string &type = p.segments[n - 2].name;
  const HostApiEntry *api = findHostApi(K::AssocFn, type, last);
  if (api && !api->supported()) {
    argTypes(e, 1);
    error(callee.range, api->unsupported);
    return HostType();
  }
  if (api && type == "Context") {
    argTypes(e, 1);
    arity(*api, argc, e.range);
    HostType c = HostType::of(HostType::Context);
    c.chips = chips_;
    return c;
  }
  if (api && type == "SmallRng") {
    std::vector<HostType> args = argTypes(e, 1);
    if (arity(*api, argc, e.range) && args[0].known() && args[0].kind != HostType::Int && args[0].kind != HostType::Never)
      error(e.operands[1]->range, "`SmallRng::seed_from_u64` takes an integer seed, found " + args[0].str());
    return HostType::of(HostType::Rng);
  }
  if (api && type == "HostTensor") return hostTensorCtor(e, last, p, hint);
  if (api && type == "HbmTensor") return hbmFromAddr(e, p, hint);
  if (api && type == "LookupTable") return lookupTableCtor(e, last, p, hint);
  argTypes(e, 1);
  std::vector<std::string> owners = hostApiOwners();
  if (std::find(owners.begin(), owners.end(), type) != owners.end()) {
    error(callee.range, "`" + type + "` has no associated function `" + last + "`" +
                            HostChecker::hint(last, hostApiNames(K::AssocFn, type)));
    return HostType();
  }
  if (syms_.aliases.count(type) || syms_.axes.find(type)) {
    error(callee.range, "mapping `" + type + "` has no associated function `" + last + "`" +
                            HostChecker::hint(last, hostApiNames(K::AssocFn, "mapping")));
    return HostType();
  }
  error(callee.range, "unknown function `" + p.str() + "`: `" + type + "` is not a host type" +
                          HostChecker::hint(type, owners, false));
  return HostType();
}

}  // namespace tcp
