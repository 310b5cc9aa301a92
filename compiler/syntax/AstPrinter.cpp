// AstPrinter.cpp — the --emit=ast tree: one node per line, `Kind key-fields @line:col`, two-space indents.
#include "AstPrinter.h"
#include "LineIndex.h"

#include <map>

namespace tcp {

using namespace ast;

namespace {

class TreePrinter {
 public:
  TreePrinter(llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm_(sm), os_(os) {}

  void program(const Program &p) {
    os_ << "Program\n";
    for (const Attribute &a : p.innerAttrs) attr(a, 1);
    for (const ItemP &it : p.items)
      if (it) item(*it, 1);
  }

  void stmt(const Stmt &s, unsigned d, bool last = true) {
    switch (s.kind) {
      case Stmt::Let:
        line(d, "Let", s.range);
        if (s.pattern) line(d + 1, "Pattern " + patternToString(*s.pattern), s.pattern->range);
        if (s.type) type(*s.type, d + 1);
        if (s.init) expr(*s.init, d + 1);
        if (s.elseBlock) block(*s.elseBlock, d + 1, "Else");
        return;
      case Stmt::ExprS:
        line(d, s.semi || !last ? "ExprStmt" : "ExprStmt (tail)", s.range);
        if (s.init) expr(*s.init, d + 1);
        return;
      case Stmt::ItemS:
        if (s.item) item(*s.item, d);
        return;
      case Stmt::Empty:
        line(d, "EmptyStmt", s.range);
        return;
    }
  }

 private:
  void line(unsigned depth, const std::string &text, Range r) {
    for (unsigned i = 0; i < depth; ++i) os_ << "  ";
    os_ << text << " @";
    if (r.Start.isValid()) {
      unsigned id = sm_.FindBufferContainingLoc(r.Start);
      if (id) {
        auto it = lines_.try_emplace(id, sm_, id).first;
        auto lc = it->second.lineAndColumn(r.Start);
        os_ << lc.first << ":" << lc.second << "\n";
        return;
      }
    }
    os_ << "?\n";
  }

  void attr(const Attribute &a, unsigned d) {
    line(d, std::string(a.inner ? "InnerAttr #![" : "Attr #[") + a.rawText + "]", a.range);
  }

  void generics(const std::vector<GenericParam> &gs, unsigned d) {
    for (const GenericParam &g : gs) {
      std::string s = "Generic ";
      if (g.kind == GenericParam::LifetimeP) {
        s += "lifetime " + g.name;
      } else if (g.kind == GenericParam::ConstP) {
        s += "const " + g.name + (g.constType ? ": " + typeToString(*g.constType) : "");
      } else {
        s += "type " + g.name;
        for (size_t i = 0; i < g.bounds.size(); ++i) s += (i ? " + " : ": ") + typeToString(*g.bounds[i]);
      }
      line(d, s, g.range);
    }
  }

  void item(const Item &it, unsigned d) {
    std::string flags = std::string(it.isPub ? " pub" : "") + (it.isConst ? " const" : "") +
                        (it.isAsync ? " async" : "") + (it.isUnsafe ? " unsafe" : "");
    switch (it.kind) {
      case Item::Axes:
        line(d, "Axes", it.range);
        for (const AxisDecl &a : it.axes) {
          if (!a.skewBase.empty())
            line(d + 1, "Axis " + a.name + " = " + a.skewBase + " - " + a.skewBy, a.range);
          else if (a.padded)
            line(d + 1, "Axis " + a.name + " = " + mapExprToString(*a.padded), a.range);
          else
            line(d + 1, "Axis " + a.name + " = " + (a.size ? exprToString(*a.size) : "?"), a.range);
        }
        break;
      case Item::TypeAlias:
        line(d, "TypeAlias " + it.name + flags, it.range);
        attrs(it, d + 1);
        generics(it.generics, d + 1);
        if (it.type) type(*it.type, d + 1);
        break;
      case Item::Fn:
        line(d, "Fn " + it.name + flags, it.range);
        attrs(it, d + 1);
        generics(it.generics, d + 1);
        for (const Param &p : it.params) {
          std::string s = "Param ";
          if (p.isSelf) s += std::string(p.selfRef ? "&" : "") + (p.selfMut ? "mut " : "") + "self";
          else s += p.pattern ? patternToString(*p.pattern) : "_";
          if (p.type) s += ": " + typeToString(*p.type);
          line(d + 1, s, p.range);
        }
        if (it.ret) line(d + 1, "Returns " + typeToString(*it.ret), it.ret->range);
        if (it.body) block(*it.body, d + 1, "Body");
        break;
      case Item::Use:
        line(d, "Use " + it.usePath, it.range);
        break;
      case Item::Mod:
        line(d, "Mod " + it.name + flags, it.range);
        break;
      case Item::ExternCrate:
        line(d, "ExternCrate " + it.name, it.range);
        break;
      case Item::Const:
        line(d, "Const " + it.name + flags, it.range);
        if (it.type) type(*it.type, d + 1);
        if (it.value) expr(*it.value, d + 1);
        break;
      case Item::Skipped:
        line(d, "Skipped " + it.name + flags, it.range);
        break;
      case Item::MacroItem:
        line(d, "MacroItem " + it.name + "!", it.range);
        break;
    }
  }

  void attrs(const Item &it, unsigned d) {
    for (const Attribute &a : it.attrs) attr(a, d);
  }

  void block(const Block &b, unsigned d, const char *label) {
    line(d, label, b.range);
    for (const Attribute &a : b.innerAttrs) attr(a, d + 1);
    for (size_t i = 0; i < b.stmts.size(); ++i)
      if (b.stmts[i]) stmt(*b.stmts[i], d + 1, i + 1 == b.stmts.size());
  }

  void type(const Type &t, unsigned d) {
    line(d, "Type " + typeToString(t), t.range);
    if (t.kind == Type::Mapping && t.mapping) map(*t.mapping, d + 1);
  }

  void map(const MapExpr &m, unsigned d) {
    static const char *names[] = {"Symbol", "Identity", "Pair", "Pad", "Resize", "Stride",
                                  "Modulo", "Offset", "Escape", "Dummy", "Concat", "LinComb", "OuterSum"};
    std::string s = std::string("Map ") + names[m.kind];
    switch (m.kind) {
      case MapExpr::Symbol:
      case MapExpr::Escape: s += " " + m.name; break;
      case MapExpr::Pair: s += m.grouped ? " [grouped]" : ""; break;
      case MapExpr::Dummy: s += " " + (m.amount ? exprToString(*m.amount) : "?") + (m.zero ? " zero" : ""); break;
      case MapExpr::Pad:
      case MapExpr::Resize:
      case MapExpr::Stride:
      case MapExpr::Modulo:
      case MapExpr::Offset: s += " " + (m.amount ? exprToString(*m.amount) : "?"); break;
      default: break;
    }
    line(d, s, m.range);
    for (size_t i = 0; i < m.children.size(); ++i) {
      if (!m.children[i]) continue;
      if (m.kind != MapExpr::LinComb) {
        map(*m.children[i], d + 1);
        continue;
      }
      const ExprP *stride = i < m.strides.size() && m.strides[i] ? &m.strides[i] : nullptr;
      line(d + 1, "Term" + (stride ? " : " + exprToString(**stride) : std::string()), m.children[i]->range);
      map(*m.children[i], d + 2);
    }
  }

  void expr(const Expr &e, unsigned d) {
    static const char *names[] = {"IntLit", "FloatLit", "BoolLit", "StrLit", "CharLit", "Path", "Unary",
                                  "Binary", "Assign", "Cast", "Call", "MethodCall", "Field", "Index",
                                  "Tuple", "Array", "ArrayRepeat", "StructLit", "Closure", "Block", "If",
                                  "While", "Loop", "For", "Match", "Return", "Break", "Continue", "Range",
                                  "Await", "Try", "Macro", "Paren"};
    std::string s = names[e.kind];
    switch (e.kind) {
      case Expr::IntLit:
        s += " " + e.text + (e.suffix.empty() ? "" : " suffix=" + e.suffix) + " value=" + std::to_string(e.intValue) +
             (e.intOverflow ? " overflow" : "");
        break;
      case Expr::FloatLit: s += " " + e.text + (e.suffix.empty() ? "" : " suffix=" + e.suffix); break;
      case Expr::BoolLit:
      case Expr::StrLit:
      case Expr::CharLit: s += " " + exprToString(e); break;
      case Expr::PathE: s += " " + pathToString(e.path, /*turbofish=*/true); break;
      case Expr::Unary:
      case Expr::Binary:
      case Expr::Assign: s += " " + e.text; break;
      case Expr::Cast: s += " as " + (e.type ? typeToString(*e.type) : "?"); break;
      case Expr::MethodCall: {
        const PathSegment *seg = e.path.segments.empty() ? nullptr : &e.path.segments[0];
        s += " " + (seg ? seg->name : e.text);
        if (seg && seg->hasGenerics) s += " ::" + genericArgsToString(*seg);
        break;
      }
      case Expr::Field: s += " ." + e.text; break;
      case Expr::StructLit: s += " " + pathToString(e.path); break;
      case Expr::BlockE: s += std::string(e.isUnsafe ? " unsafe" : "") + (e.isAsync ? " async" : "") + (e.isMove ? " move" : ""); break;
      case Expr::Closure: s += e.isMove ? " move" : ""; break;
      case Expr::RangeE: s += e.inclusive ? " ..=" : " .."; break;
      case Expr::Macro:
        if (e.macro) {
          const MacroCall &m = *e.macro;
          s += " " + m.name + "!";
          if (m.repeat) s += " [repeat]";
          else if (!m.argsParsed && !m.mapping && m.name != "i") s += " " + exprToString(e);  // raw tokens
        }
        break;
      default: break;
    }
    if (!e.label.empty()) s += " label=" + e.label;
    line(d, s, e.range);
    if (e.pattern) line(d + 1, "Pattern " + patternToString(*e.pattern), e.pattern->range);
    for (const ClosureParam &p : e.params)
      if (p.pattern)
        line(d + 1, "Param " + patternToString(*p.pattern) + (p.type ? ": " + typeToString(*p.type) : ""), p.pattern->range);
    if (e.closureRet) line(d + 1, "Returns " + typeToString(*e.closureRet), e.closureRet->range);
    for (const ExprP &o : e.operands) {
      if (o) expr(*o, d + 1);
      else line(d + 1, "(none)", e.range);
    }
    for (const StructField &f : e.fields) {
      line(d + 1, "Field " + f.name, f.range);
      if (f.value) expr(*f.value, d + 2);
    }
    if (e.macro) {
      if (e.macro->mapping) map(*e.macro->mapping, d + 1);
      for (const ExprP &a : e.macro->args)
        if (a) expr(*a, d + 1);
      for (const auto &[k, v] : e.macro->indexEntries) {
        if (!k) continue;
        line(d + 1, "Entry", k->range);
        map(*k, d + 2);
        if (v) expr(*v, d + 2);
      }
    }
    if (e.block) block(*e.block, d + 1, e.kind == Expr::If ? "Then" : "Body");
    if (e.elseExpr) {
      line(d + 1, "Else", e.elseExpr->range);
      expr(*e.elseExpr, d + 2);
    }
    for (const Expr::Arm &a : e.arms) {
      line(d + 1, "Arm " + (a.pattern ? patternToString(*a.pattern) : "?"), a.range);
      if (a.guard) {
        line(d + 2, "Guard", a.guard->range);
        expr(*a.guard, d + 3);
      }
      if (a.body) expr(*a.body, d + 2);
    }
  }

  llvm::SourceMgr &sm_;
  std::map<unsigned, LineIndex> lines_;  // per buffer, built on first use
  llvm::raw_ostream &os_;
};

}  // namespace

void printAst(const Program &program, llvm::SourceMgr &sm, llvm::raw_ostream &os) {
  TreePrinter(sm, os).program(program);
}

void printStmt(const Stmt &stmt, llvm::SourceMgr &sm, llvm::raw_ostream &os, unsigned indent) {
  TreePrinter(sm, os).stmt(stmt, indent);
}

}  // namespace tcp
