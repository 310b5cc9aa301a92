// AstFormat.cpp — one-line renderings of mappings, types, paths, patterns and (compact) expressions.
#include "AstPrinter.h"

namespace tcp {

using namespace ast;

namespace {

std::string join(const std::vector<std::string> &parts, const char *sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

bool isPostfix(MapExpr::Kind k) {
  return k == MapExpr::Pad || k == MapExpr::Resize || k == MapExpr::Stride || k == MapExpr::Modulo ||
         k == MapExpr::Offset;
}

const char *postfixOp(MapExpr::Kind k) {
  switch (k) {
    case MapExpr::Pad: return "#";
    case MapExpr::Resize: return "=";
    case MapExpr::Stride: return "/";
    case MapExpr::Modulo: return "%";
    default: return "@";
  }
}

std::string amount(const ExprP &e) { return e ? exprToString(*e) : "?"; }

// Renders `m` as an operand of a context that binds at `level`: 0 = pair element, 1 = concat
// element, 2 = postfix operand.
std::string mapAt(const MapExpr &m, int level) {
  switch (m.kind) {
    case MapExpr::Symbol: return m.name;
    case MapExpr::Identity: return "1";
    case MapExpr::Escape: return "{ " + m.name + " }";
    case MapExpr::Dummy: return m.zero ? amount(m.amount) + "z" : "# " + amount(m.amount);
    case MapExpr::Pair: {
      std::vector<std::string> parts;
      for (const MapExprP &c : m.children) parts.push_back(c ? mapAt(*c, 0) : "?");
      std::string s = join(parts, ", ");
      return m.grouped || level > 0 ? "[" + s + "]" : s;
    }
    case MapExpr::Concat: {
      std::vector<std::string> parts;
      for (const MapExprP &c : m.children) parts.push_back(c ? mapAt(*c, 1) : "?");
      std::string s = join(parts, " + ");
      return level > 1 ? "(" + s + ")" : s;
    }
    case MapExpr::OuterSum: {
      std::vector<std::string> parts;
      for (const MapExprP &c : m.children) parts.push_back(c ? mapAt(*c, 2) : "?");
      std::string s = join(parts, " * ");
      return level > 1 ? "(" + s + ")" : s;
    }
    case MapExpr::LinComb: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < m.children.size(); ++i) {
        std::string t = m.children[i] ? mapAt(*m.children[i], 2) : "?";
        if (i < m.strides.size() && m.strides[i]) t += " : " + amount(m.strides[i]);
        parts.push_back(t);
      }
      return "$(" + join(parts, ", ") + ")";
    }
    default:
      if (isPostfix(m.kind)) {
        std::string inner = m.children.empty() || !m.children[0] ? "?" : mapAt(*m.children[0], 2);
        return inner + " " + postfixOp(m.kind) + " " + amount(m.amount);
      }
      return "?";
  }
}

}  // namespace

std::string genericArgsToString(const PathSegment &s) {
  if (!s.hasGenerics) return "";
  std::vector<std::string> parts;
  for (const GenericArg &a : s.generics) {
    switch (a.kind) {
      case GenericArg::Lifetime: parts.push_back(a.name); break;
      case GenericArg::Binding: parts.push_back(a.name + " = " + (a.type ? typeToString(*a.type) : "?")); break;
      case GenericArg::ConstArg: parts.push_back(a.expr ? exprToString(*a.expr) : "?"); break;
      case GenericArg::TypeArg: parts.push_back(a.type ? typeToString(*a.type) : "?"); break;
    }
  }
  return "<" + join(parts, ", ") + ">";
}

namespace {

std::string blockToString(const Block *b) {
  if (!b || b->stmts.empty()) return "{}";
  if (b->stmts.size() == 1 && b->stmts[0]->kind == Stmt::ExprS && !b->stmts[0]->semi && b->stmts[0]->init)
    return "{ " + exprToString(*b->stmts[0]->init) + " }";
  return "{ ... }";
}

}  // namespace

std::string mapExprToString(const MapExpr &m) { return mapAt(m, 0); }

std::string pathToString(const Path &p, bool turbofish) {
  std::string out;
  if (p.qualifiedSelf) out = "<" + typeToString(*p.qualifiedSelf) + ">";
  else if (p.global) out = "";
  for (size_t i = 0; i < p.segments.size(); ++i) {
    if (i || p.qualifiedSelf || p.global) out += "::";
    std::string args = genericArgsToString(p.segments[i]);
    out += p.segments[i].name + (turbofish && !args.empty() ? "::" : "") + args;
  }
  return out;
}

std::string typeToString(const Type &t) {
  auto elem = [&](size_t i) { return i < t.elems.size() && t.elems[i] ? typeToString(*t.elems[i]) : "?"; };
  switch (t.kind) {
    case Type::PathT: return pathToString(t.path);
    case Type::Ref:
      return "&" + (t.lifetime.empty() ? "" : t.lifetime + " ") + (t.mut ? "mut " : "") + elem(0);
    case Type::Ptr: return std::string(t.mut ? "*mut " : "*const ") + elem(0);
    case Type::Tuple: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < t.elems.size(); ++i) parts.push_back(elem(i));
      return "(" + join(parts, ", ") + (parts.size() == 1 ? ",)" : ")");
    }
    case Type::Array: return "[" + elem(0) + "; " + (t.arrayLen ? exprToString(*t.arrayLen) : "?") + "]";
    case Type::Slice: return "[" + elem(0) + "]";
    case Type::Mapping: return "m![" + (t.mapping ? mapExprToString(*t.mapping) : std::string("?")) + "]";
    case Type::Infer: return "_";
    case Type::Never: return "!";
    case Type::ImplTrait: return "impl " + pathToString(t.path);
    case Type::DynTrait: return "dyn " + pathToString(t.path);
    case Type::FnPtr: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < t.elems.size(); ++i) parts.push_back(elem(i));
      return "fn(" + join(parts, ", ") + ")" + (t.ret ? " -> " + typeToString(*t.ret) : "");
    }
  }
  return "?";
}

std::string patternToString(const Pattern &p) {
  auto elems = [&](const char *sep) {
    std::vector<std::string> parts;
    for (const PatternP &e : p.elems) parts.push_back(e ? patternToString(*e) : "?");
    return join(parts, sep);
  };
  switch (p.kind) {
    case Pattern::Ident:
      return std::string(p.byRef ? "ref " : "") + (p.mut ? "mut " : "") + p.name +
             (p.elems.empty() ? "" : " @ " + elems(""));
    case Pattern::Wildcard: return "_";
    case Pattern::Rest: return "..";
    case Pattern::Tuple: return "(" + elems(", ") + (p.elems.size() == 1 ? ",)" : ")");
    case Pattern::SliceP: return "[" + elems(", ") + "]";
    case Pattern::Ref: return std::string(p.mut ? "&mut " : "&") + elems("");
    case Pattern::Literal: return p.literal ? exprToString(*p.literal) : "?";
    case Pattern::PathP: return pathToString(p.path);
    case Pattern::TupleStruct: return pathToString(p.path) + "(" + elems(", ") + ")";
    case Pattern::Or: return elems(" | ");
    case Pattern::RangeP:
      return (p.literal ? exprToString(*p.literal) : "?") + "..=" + (p.rangeHi ? exprToString(*p.rangeHi) : "?");
    case Pattern::StructP: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < p.fieldNames.size(); ++i)
        parts.push_back(p.fieldNames[i] + (i < p.elems.size() && p.elems[i] ? ": " + patternToString(*p.elems[i]) : ""));
      if (p.hasRest) parts.push_back("..");
      return pathToString(p.path) + " { " + join(parts, ", ") + " }";
    }
  }
  return "?";
}

std::string exprToString(const Expr &e) {
  auto op = [&](size_t i) { return i < e.operands.size() && e.operands[i] ? exprToString(*e.operands[i]) : ""; };
  auto list = [&](size_t from) {
    std::vector<std::string> parts;
    for (size_t i = from; i < e.operands.size(); ++i) parts.push_back(op(i));
    return join(parts, ", ");
  };
  switch (e.kind) {
    case Expr::IntLit:
    case Expr::FloatLit: return e.text + e.suffix;
    case Expr::BoolLit: return e.boolValue ? "true" : "false";
    case Expr::StrLit: {
      std::string out = "\"";
      for (char c : e.text) out += c == '"' ? std::string("\\\"") : c == '\n' ? std::string("\\n") : std::string(1, c);
      return out + "\"";
    }
    case Expr::CharLit: return "'" + e.text + "'";
    case Expr::PathE: return pathToString(e.path, /*turbofish=*/true);
    case Expr::Unary: return e.text + (e.text == "&mut" ? " " : "") + op(0);
    case Expr::Binary: return op(0) + " " + e.text + " " + op(1);
    case Expr::Assign: return op(0) + " " + e.text + " " + op(1);
    case Expr::Cast: return op(0) + " as " + (e.type ? typeToString(*e.type) : "?");
    case Expr::Call: return op(0) + "(" + list(1) + ")";
    case Expr::MethodCall: {
      std::string name = e.path.segments.empty() ? e.text : e.path.segments[0].name;
      std::string turbofish = e.path.segments.empty() ? "" : genericArgsToString(e.path.segments[0]);
      return op(0) + "." + name + (turbofish.empty() ? "" : "::" + turbofish) + "(" + list(1) + ")";
    }
    case Expr::Field: return op(0) + "." + e.text;
    case Expr::Index: return op(0) + "[" + op(1) + "]";
    case Expr::Tuple: return "(" + list(0) + (e.operands.size() == 1 ? ",)" : ")");
    case Expr::Array: return "[" + list(0) + "]";
    case Expr::ArrayRepeat: return "[" + op(0) + "; " + op(1) + "]";
    case Expr::StructLit: {
      std::vector<std::string> parts;
      for (const StructField &f : e.fields) parts.push_back(f.name + (f.value ? ": " + exprToString(*f.value) : ""));
      if (e.hasRest) parts.push_back(".." + op(0));
      return pathToString(e.path, /*turbofish=*/true) + " { " + join(parts, ", ") + " }";
    }
    case Expr::Closure: {
      std::vector<std::string> ps;
      for (const ClosureParam &p : e.params)
        ps.push_back((p.pattern ? patternToString(*p.pattern) : "?") + (p.type ? ": " + typeToString(*p.type) : ""));
      std::string body = e.block ? blockToString(e.block.get()) : op(0);
      return std::string(e.isMove ? "move " : "") + "|" + join(ps, ", ") + "| " + body;
    }
    case Expr::BlockE:
      return std::string(e.isUnsafe ? "unsafe " : "") + (e.isAsync ? (e.isMove ? "async move " : "async ") : "") +
             blockToString(e.block.get());
    case Expr::If: return "if " + op(0) + " { ... }" + (e.elseExpr ? " else ..." : "");
    case Expr::While: return "while " + op(0) + " { ... }";
    case Expr::Loop: return "loop { ... }";
    case Expr::For: return "for " + (e.pattern ? patternToString(*e.pattern) : "?") + " in " + op(0) + " { ... }";
    case Expr::Match: return "match " + op(0) + " { ... }";
    case Expr::Return: return e.operands.empty() ? "return" : "return " + op(0);
    case Expr::Break: return "break" + (e.label.empty() ? "" : " " + e.label) + (e.operands.empty() ? "" : " " + op(0));
    case Expr::Continue: return "continue" + (e.label.empty() ? "" : " " + e.label);
    case Expr::RangeE: return op(0) + (e.inclusive ? "..=" : "..") + op(1);
    case Expr::Await: return op(0) + ".await";
    case Expr::Try: return op(0) + "?";
    case Expr::Paren: return "(" + op(0) + ")";
    case Expr::Macro: {
      if (!e.macro) return "?!()";
      const MacroCall &m = *e.macro;
      if (m.mapping) return "m![" + mapExprToString(*m.mapping) + "]";
      if (m.name == "i") {
        std::vector<std::string> parts;
        for (const auto &[k, v] : m.indexEntries)
          parts.push_back((k ? mapExprToString(*k) : "?") + ": " + (v ? exprToString(*v) : "?"));
        return "i![" + join(parts, ", ") + "]";
      }
      char open = m.delimiter, close = open == '(' ? ')' : open == '[' ? ']' : '}';
      std::string body;
      if (m.argsParsed) {
        std::vector<std::string> parts;
        for (const ExprP &a : m.args) parts.push_back(a ? exprToString(*a) : "?");
        body = join(parts, m.repeat ? "; " : ", ");
      } else {
        body = m.rawText;
      }
      return m.name + "!" + open + body + close;
    }
  }
  return "?";
}

}  // namespace tcp
