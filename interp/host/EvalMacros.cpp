// EvalMacros.cpp — host macros: assert_eq!/assert!, println!/format!, i![...], m![...], vec!, todo!.
#include "Evaluator.h"

#include "HostRuntime.h"

namespace tcp::interp {

namespace {
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

// Rust-style formatting: `{}`, `{:?}`, `{name}`, `{name:?}`, `{{`, `}}`.
std::string Evaluator::format(const ast::Expr &site, const std::vector<ast::ExprP> &args, size_t first) {
  if (first >= args.size()) return "";
  const ast::Expr &fmtExpr = *args[first];
  if (fmtExpr.kind != ast::Expr::StrLit) fail(fmtExpr.range, "format string must be a string literal");
  const std::string &fmt = fmtExpr.text;
  std::string out;
  size_t next = first + 1;
  for (size_t k = 0; k < fmt.size(); ++k) {
    char c = fmt[k];
    if (c == '{' && k + 1 < fmt.size() && fmt[k + 1] == '{') { out += '{'; ++k; continue; }
    if (c == '}' && k + 1 < fmt.size() && fmt[k + 1] == '}') { out += '}'; ++k; continue; }
    if (c != '{') { out += c; continue; }
    size_t close = fmt.find('}', k);
    if (close == std::string::npos) fail(fmtExpr.range, "unterminated `{` in format string");
    std::string spec = fmt.substr(k + 1, close - k - 1);
    k = close;
    std::string name = spec.substr(0, spec.find(':'));
    bool debug = spec.find(":?") != std::string::npos;
    Value v;
    if (name.empty()) {
      if (next >= args.size()) fail(fmtExpr.range, "format string needs more arguments than were given");
      v = eval(*args[next++]);
    } else if (std::all_of(name.begin(), name.end(), isIdentChar)) {
      Value *var = lookup(name);
      if (!var) fail(fmtExpr.range, "unknown variable `" + name + "` in format string");
      v = *var;
    } else {
      fail(fmtExpr.range, "unsupported format spec `{" + spec + "}`");
    }
    out += debug ? v.debug() : v.display();
  }
  (void)site;
  return out;
}

Value Evaluator::evalIndexMacro(const ast::Expr &e) {
  // `i![k1: v1, k2: v2]` is the index at position (v1, v2) of `m![k1, k2]`: the keys' coordinates are
  // summed before a skewed or padded axis is resolved (`i![A: 1, B': 3]` is B = 0; `i![P' / 5: 1,
  // P' % 5: 1]` is P = P' - 2 = 4), as map() does.
  const llvm::StringRef text(e.range.Start.getPointer(), size_t(e.range.End.getPointer() - e.range.Start.getPointer()));
  auto cached = indexKeys_.find(&e);
  if (cached == indexKeys_.end() || cached->second.text != text) {
    IndexKeys lowered;
    lowered.text = text.str();
    for (const auto &entry : e.macro->indexEntries) {
      const ast::MapExprP &key = entry.first;
      unsigned before = diags_.errorCount();
      MappingRef m = key ? resolver_.lowerMapping(*key) : nullptr;
      if (!m) fail(key ? key->range : e.range, diags_.errorCount() != before ? "invalid index key (see the error above)"
                                                                            : "invalid index key");
      lowered.keys.push_back(m);
    }
    lowered.all = lowered.keys.empty() ? Mapping::identity() : lowered.keys[0];
    for (size_t k = 1; k < lowered.keys.size() && lowered.all; ++k) {
      std::string err;
      lowered.all = Mapping::pair(lowered.all, lowered.keys[k], &err);
    }
    cached = indexKeys_.insert_or_assign(&e, std::move(lowered)).first;
  }
  const IndexKeys &lowered = cached->second;
  std::vector<std::pair<MappingRef, uint64_t>> keys;
  for (size_t k = 0; k < lowered.keys.size(); ++k) {
    const ast::ExprP &valueExpr = e.macro->indexEntries[k].second;
    const MappingRef &m = lowered.keys[k];
    int64_t v = expectInt(eval(*valueExpr), *valueExpr);
    if (v < 0 || static_cast<uint64_t>(v) >= m->size())
      fail(valueExpr->range, "coordinate " + std::to_string(v) + " is outside `" + m->body() + "` of size " +
                                 std::to_string(m->size()));
    keys.push_back({m, static_cast<uint64_t>(v)});
  }
  const MappingRef &all = lowered.all;
  uint64_t pos = keys.empty() ? 0 : keys[0].second;
  for (size_t k = 1; k < keys.size() && all; ++k) pos = pos * keys[k].first->size() + keys[k].second;
  Index idx;
  if (all) {
    auto found = all->map(pos);
    if (!found) fail(e.range, "`i![...]` names no element: `m![" + all->body() + "]` has none at these coordinates");
    idx = *found;
  } else {  // the keys' sizes overflow 64 bits together: each key alone
    for (size_t k = 0; k < keys.size(); ++k) {
      auto part = keys[k].first->map(keys[k].second);
      if (!part) fail(e.macro->indexEntries[k].second->range, "`" + keys[k].first->body() + "` has no element at " +
                                                                   std::to_string(keys[k].second));
      for (const auto &[axis, value] : part->entries()) idx.add(axis, value);
    }
  }
  idx.sortBy(syms_.axes);
  return Value::ofIndex(idx);
}

Value Evaluator::evalMacro(const ast::Expr &e) {
  const ast::MacroCall &mc = *e.macro;
  const std::string &name = mc.name;
  const auto &args = mc.args;
  if (name == "i") return evalIndexMacro(e);
  if (host_)
    if (auto v = host_->macro(e)) return *v;
  if (name == "m") {
    if (!mc.mapping) fail(e.range, "empty mapping");
    unsigned before = diags_.errorCount();
    MappingRef m = resolver_.lowerMapping(*mc.mapping);
    if (!m) fail(e.range, diags_.errorCount() != before ? "invalid mapping (see the error above)" : "invalid mapping");
    Value v;
    v.kind = Value::MappingV;
    v.mapping = m;
    return v;
  }
  if (name == "assert_eq" || name == "assert_ne") {
    if (args.size() < 2) fail(e.range, name + "! needs two arguments");
    Value l = eval(*args[0]);
    Value r = eval(*args[1]);
    std::optional<std::string> tensorDiff = host_ ? host_->tensorMismatch(l, r, e.range) : std::nullopt;
    bool eq = tensorDiff ? tensorDiff->empty() : l == r;
    if (eq != (name == "assert_eq")) {
      std::string msg = "assertion `left " + std::string(name == "assert_eq" ? "==" : "!=") + " right` failed";
      if (args.size() > 2) msg += ": " + format(e, args, 2);
      if (tensorDiff && !tensorDiff->empty()) msg += (args.size() > 2 ? "; " : ": ") + *tensorDiff;
      msg += "\n  left: " + l.debug() + "\n right: " + r.debug();
      fail(e.range, msg);
    }
    return Value::unit();
  }
  if (name == "assert" || name == "debug_assert") {
    if (args.empty()) fail(e.range, "assert! needs a condition");
    if (!expectBool(eval(*args[0]), *args[0])) {
      std::string msg = "assertion failed: " + (args.size() > 1 ? format(e, args, 1) : mc.rawText);
      fail(e.range, msg);
    }
    return Value::unit();
  }
  if (name == "println" || name == "print" || name == "eprintln" || name == "eprint") {
    std::string text = format(e, args, 0);
    if (name == "println" || name == "eprintln") text += "\n";
    if (name[0] == 'e') llvm::errs() << text;
    else out_ << text;
    return Value::unit();
  }
  if (name == "format") return Value::string(format(e, args, 0));
  if (name == "vec") {
    Value v;
    v.kind = Value::Array;
    if (mc.repeat) {  // `vec![e; n]`: n copies of e (evaluated once, as Rust clones it)
      Value x = eval(*args[0]);
      Value n = eval(*args[1]);
      if (n.kind != Value::Int || n.i < 0)
        fail(args[1]->range, "the length of `vec![value; length]` must be a non-negative integer");
      if (n.i > (int64_t(1) << 28)) fail(args[1]->range, "`vec!` of " + std::to_string(n.i) + " elements is larger than tcpi allows (2^28)");
      v.elems.assign(static_cast<size_t>(n.i), x);
      return v;
    }
    for (const auto &a : args) v.elems.push_back(eval(*a));
    return v;
  }
  if (name == "todo" || name == "unimplemented" || name == "panic" || name == "unreachable") {
    std::string msg = name == "todo" ? "not yet implemented" : name == "panic" ? "explicit panic" :
                      name == "unreachable" ? "entered unreachable code" : "not implemented";
    if (!args.empty()) msg += ": " + format(e, args, 0);
    fail(e.range, name + "!() reached: " + msg);
  }
  fail(e.range, "macro `" + name + "!` is not supported by tcpi's host evaluator");
}

}  // namespace tcp::interp
