// HostCheckMacros.cpp — host macros: i!/m!/vec!, the assertions, printing and format strings, todo!/panic!.
#include "HostCheckInternal.h"

namespace tcp {

namespace {
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

void HostChecker::formatArgs(const ast::Expr &site, const std::vector<ast::ExprP> &args, size_t first) {
  for (size_t k = first + 1; k < args.size(); ++k) expr(*args[k]);
  if (first >= args.size()) return;
  const ast::Expr &fmtExpr = *args[first];
  if (fmtExpr.kind != ast::Expr::StrLit) {
    expr(fmtExpr);
    error(fmtExpr.range, "format string must be a string literal");
    return;
  }
  const std::string &fmt = fmtExpr.text;
  size_t positional = 0;
  for (size_t k = 0; k < fmt.size(); ++k) {
    char c = fmt[k];
    if ((c == '{' || c == '}') && k + 1 < fmt.size() && fmt[k + 1] == c) {
      ++k;
      continue;
    }
    if (c != '{') continue;
    size_t close = fmt.find('}', k);
    if (close == std::string::npos) {
      error(fmtExpr.range, "unterminated `{` in format string");
      return;
    }
    std::string spec = fmt.substr(k + 1, close - k - 1);
    k = close;
    size_t colon = spec.find(':');
    std::string name = spec.substr(0, colon);
    std::string style = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (name.empty()) ++positional;
    if (style != "" && style != "?") {
      error(fmtExpr.range, "format spec `{" + spec + "}` is not supported by tcpi (it prints `{}`, `{:?}`, `{name}` and `{name:?}`)");
      continue;
    }
    if (name.empty()) continue;
    if (std::isdigit(static_cast<unsigned char>(name[0])) || !std::all_of(name.begin(), name.end(), isIdentChar)) {
      error(fmtExpr.range, "format spec `{" + spec + "}` is not supported by tcpi (it prints `{}`, `{:?}`, `{name}` and `{name:?}`)");
    } else if (!lookup(name)) {
      error(fmtExpr.range, "unknown variable `" + name + "` in format string" + hint(name, variableNames(), false));
    }
  }
  size_t given = args.size() - first - 1;
  if (given != positional)
    error(site.range, "the format string has " + countText(positional, "`{}` placeholder") + " but " +
                          countText(given, "argument") + (given == 1 ? " was" : " were") + " given");
}

HostType HostChecker::macro(const ast::Expr &e) {
  const ast::MacroCall &mc = *e.macro;
  const std::string &name = mc.name;
  const auto &args = mc.args;
  const HostApiEntry *api = findHostApi(HostApiEntry::Macro, "", name);
  if (!api) {
    for (const auto &a : args)
      if (a) expr(*a);
    error(e.range, "unknown macro `" + name + "!`" + hint(name, hostApiNames(HostApiEntry::Macro, ""), false) +
                       (hint(name, hostApiNames(HostApiEntry::Macro, ""), false).empty()
                            ? " (host code has i!, m!, vec!, assert!, assert_eq!, assert_ne!, assert_close!, println!, "
                              "print!, eprintln!, eprint!, format!, todo!, panic!, unimplemented!, unreachable!)"
                            : ""));
    return HostType();
  }
  if (name == "i") {
    for (const auto &[key, valueExpr] : mc.indexEntries) {
      MappingRef m = key ? resolver_.lowerMapping(*key) : nullptr;
      if (!m) error(key ? key->range : e.range, "invalid index key");
      if (!valueExpr) continue;
      HostType v = expr(*valueExpr);
      if (v.known() && v.kind != HostType::Int && v.kind != HostType::Never)
        error(valueExpr->range, "an index coordinate must be an integer, found " + v.str());
      if (m && valueExpr->kind == ast::Expr::IntLit && valueExpr->intValue >= m->size())
        error(valueExpr->range, "coordinate " + std::to_string(valueExpr->intValue) + " is outside `" + m->body() +
                                    "` of size " + std::to_string(m->size()));
    }
    if (mc.indexEntries.empty() && !mc.rawText.empty() && mc.rawText.find_first_not_of(" \t\n") != std::string::npos)
      error(e.range, "`i![...]` takes `Axis: coordinate` entries");
    return HostType::of(HostType::Index);
  }
  if (name == "m") {
    HostType t = HostType::of(HostType::Mapping);
    if (!mc.mapping) {
      error(e.range, "empty mapping");
      return t;
    }
    t.mapping = resolver_.lowerMapping(*mc.mapping);
    return t;
  }
  bool empty = mc.rawText.find_first_not_of(" \t\r\n") == std::string::npos;
  if (!mc.argsParsed && !empty) {
    error(e.range, "the arguments of `" + name + "!` are not expressions tcpi can evaluate");
    return name == "format" ? HostType::of(HostType::Str) : HostType();
  }
  if (name == "vec") {
    if (mc.repeat) {  // `vec![value; length]`
      HostType elem = args.size() > 0 ? expr(*args[0]) : HostType();
      HostType n = args.size() > 1 ? expr(*args[1]) : HostType();
      if (n.known() && n.kind != HostType::Int && n.kind != HostType::Never)
        error(args[1]->range, "the length of `vec![value; length]` must be a non-negative integer, found " + n.str());
      std::optional<uint64_t> len;
      if (args.size() > 1 && args[1]->kind == ast::Expr::IntLit) len = args[1]->intValue;
      if (len && *len > (uint64_t(1) << 28))
        error(args[1]->range, "`vec!` of " + std::to_string(*len) + " elements is larger than tcpi allows (2^28)");
      return HostType::vec(elem, len);
    }
    HostType elem = HostType::of(HostType::Never);
    for (const auto &a : args) elem = join(elem, expr(*a));
    if (elem.kind == HostType::Never) elem = HostType();
    return HostType::vec(elem, args.size());
  }
  if (!arity(*api, args.size(), e.range)) {
    for (const auto &a : args) expr(*a);
    return name == "format" ? HostType::of(HostType::Str) : HostType::of(HostType::Unit);
  }
  if (name == "assert_close") {
    assertClose(e);
    return HostType::of(HostType::Unit);
  }
  if (name == "assert_eq" || name == "assert_ne") {
    HostType l = expr(*args[0]), r = expr(*args[1]);
    checkComparable(l, r, e.range, "`" + name + "!`", /*sameDtype=*/true);
    if (args.size() > 2) formatArgs(e, args, 2);
    return HostType::of(HostType::Unit);
  }
  if (name == "assert" || name == "debug_assert") {
    HostType c = expr(*args[0]);
    if (c.known() && c.kind != HostType::Bool && c.kind != HostType::Never)
      error(args[0]->range, "`" + name + "!` needs a bool condition, found " + c.str());
    if (args.size() > 1) formatArgs(e, args, 1);
    return HostType::of(HostType::Unit);
  }
  formatArgs(e, args, 0);
  if (name == "format") return HostType::of(HostType::Str);
  if (name == "todo" || name == "unimplemented" || name == "panic" || name == "unreachable")
    return HostType::of(HostType::Never);
  return HostType::of(HostType::Unit);  // println!, print!, eprintln!, eprint!
}

}  // namespace tcp
