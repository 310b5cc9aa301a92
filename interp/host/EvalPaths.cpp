// EvalPaths.cpp — paths, calls and method calls: variables, `E::SIZE`, `E::map(i)`, `Some`, user functions.
#include "Evaluator.h"

#include "HostRuntime.h"

namespace tcp::interp {

MappingRef Evaluator::mappingOfPathPrefix(const ast::Path &p, size_t segments, llvm::SMRange range) {
  if (p.qualifiedSelf && segments == 0) {
    unsigned before = diags_.errorCount();
    MappingRef m = resolver_.mappingOfType(*p.qualifiedSelf);
    if (!m) {
      if (diags_.errorCount() != before) fail(range, "invalid mapping (see the error above)");
      fail(range, "`<...>` must name a mapping here");
    }
    return m;
  }
  if (p.qualifiedSelf || segments != 1) return nullptr;
  const std::string &name = p.segments[0].name;
  if (syms_.aliases.count(name)) {
    unsigned before = diags_.errorCount();
    MappingRef m = resolver_.aliasMapping(name, range, /*report=*/true);
    if (!m && diags_.errorCount() == before) fail(range, "type alias `" + name + "` does not name a mapping");
    if (!m) fail(range, "invalid mapping alias `" + name + "` (see the error above)");
    return m;
  }
  if (syms_.axes.find(name)) {
    std::string err;
    MappingRef m = Mapping::symbol(syms_.axes, name, &err);
    if (!m) fail(range, err);
    return m;
  }
  return nullptr;
}

Value Evaluator::evalPath(const ast::Expr &e) {
  const ast::Path &p = e.path;
  size_t n = p.segments.size();
  if (!p.qualifiedSelf && n == 1) {
    const std::string &name = p.segments[0].name;
    if (Value *v = lookup(name)) return *v;
    if (name == "None") return Value::none();
    if (MappingRef m = mappingOfPathPrefix(p, 1, e.range)) {
      Value v;
      v.kind = Value::MappingV;
      v.mapping = m;
      return v;
    }
    // `const N: usize = 4;` (the checker refused a constant defined in terms of itself)
    auto c = syms_.consts.find(name);
    if (c != syms_.consts.end() && c->second->value) return eval(*c->second->value);
    fail(e.range, "unknown name `" + name + "`");
  }
  size_t prefix = p.qualifiedSelf ? n - 1 : n - 1;
  if (n >= 1 && p.segments.back().name == "SIZE") {
    if (MappingRef m = mappingOfPathPrefix(p, prefix, e.range)) {
      if (m->size() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) fail(e.range, "size does not fit in 64 bits");
      return Value::integer(static_cast<int64_t>(m->size()));
    }
    fail(e.range, "`" + p.str() + "`: `" + (n ? p.segments[0].name : std::string("?")) +
                      "` is neither an axis nor a mapping alias");
  }
  fail(e.range, "`" + p.str() + "` is not a value tcpi can evaluate yet");
}

Value Evaluator::evalCall(const ast::Expr &e) {
  const ast::Expr &callee = *e.operands[0];
  if (host_)
    if (auto v = host_->call(e)) return *v;
  std::vector<Value> args;
  for (size_t k = 1; k < e.operands.size(); ++k) args.push_back(eval(*e.operands[k]));
  if (callee.kind == ast::Expr::PathE) {
    const ast::Path &p = callee.path;
    size_t n = p.segments.size();
    if (!p.qualifiedSelf && n == 1 && p.segments[0].name == "Some") {
      if (args.size() != 1) fail(e.range, "`Some` takes exactly one argument");
      return Value::some(std::move(args[0]));
    }
    if (n >= 1 && (p.segments.back().name == "map" || p.segments.back().name == "map_all")) {
      if (MappingRef m = mappingOfPathPrefix(p, n - 1, callee.range)) {
        if (args.size() != 1) fail(e.range, "`map` takes exactly one buffer position");
        int64_t i = expectInt(args[0], *e.operands[1]);
        bool all = p.segments.back().name == "map_all";
        if (i < 0) fail(e.operands[1]->range, "buffer position " + std::to_string(i) + " is negative");
        if (all) {
          Value out;
          out.kind = Value::Array;
          for (Index ix : m->mapAll(static_cast<uint64_t>(i))) {
            ix.sortBy(syms_.axes);
            out.elems.push_back(Value::ofIndex(ix));
          }
          return out;
        }
        auto r = m->map(static_cast<uint64_t>(i));
        if (!r) return Value::none();
        r->sortBy(syms_.axes);
        return Value::some(Value::ofIndex(*r));
      }
    }
    if (!p.qualifiedSelf && n == 1) {
      auto f = syms_.fns.find(p.segments[0].name);
      if (f != syms_.fns.end()) return callFunction(*f->second.item, std::move(args), e.range);
      if (Value *v = lookup(p.segments[0].name)) {
        if (v->kind == Value::Object && std::string(v->kindName()) == "closure") return callClosure(*v, std::move(args), e.range);
        fail(callee.range, "`" + p.segments[0].name + "` is not a function");
      }
      fail(callee.range, "unknown function `" + p.segments[0].name + "`");
    }
    fail(callee.range, "`" + p.str() + "(...)` is not supported by tcpi's host evaluator yet");
  }
  fail(callee.range, "this call is not supported by tcpi's host evaluator yet");
}

Value Evaluator::evalMethodCall(const ast::Expr &e) {
  Value recv = eval(*e.operands[0]);
  if (host_)
    if (auto v = host_->methodCall(e, recv)) return *v;
  const std::string method = e.path.segments.empty() ? "" : e.path.segments[0].name;
  size_t argc = e.operands.size() - 1;
  auto noArgs = [&] {
    if (argc) fail(e.range, "`." + method + "()` takes no arguments");
  };
  if (recv.kind == Value::OptionV) {
    if (method == "unwrap") {
      noArgs();
      if (recv.isNone()) fail(e.range, "called `Option::unwrap()` on a `None` value");
      return recv.elems[0];
    }
    if (method == "is_some" || method == "is_none") {
      noArgs();
      return Value::boolean(recv.isNone() == (method == "is_none"));
    }
  }
  if ((recv.kind == Value::Array || recv.kind == Value::Str) && method == "len") {
    noArgs();
    return Value::integer(static_cast<int64_t>(recv.kind == Value::Array ? recv.elems.size() : recv.s.size()));
  }
  if (recv.kind == Value::IndexV && method == "get" && argc == 1 && e.operands[1]->kind == ast::Expr::PathE) {
    return Value::integer(recv.index.get(e.operands[1]->path.str()));
  }
  if (method == "clone") return recv;
  fail(e.range, std::string("no method `") + method + "` on " + recv.kindName() + " in tcpi's host evaluator");
}

}  // namespace tcp::interp
