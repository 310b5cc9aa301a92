// AstBuilder.h — converts the ANTLR parse tree of a .tcp file into the owned AST (internal to the parser).
#pragma once

#include "Ast.h"
#include "Diagnostics.h"
#include "SourceStream.h"
#include "TcpParser.h"

#include <string>
#include <vector>

namespace tcp {

// Walks parse-tree contexts and builds ast:: nodes. Every node gets the source range of its tokens.
// The walk tolerates the partial trees ANTLR leaves after syntax errors (missing children are null).
// It also reports the errors the grammar accepts on purpose so it can phrase them: a missing `;`
// between statements, an unclosed `{` at end of file, a missing function body, bad literals.
class AstBuilder {
  using P = parser::TcpParser;

 public:
  // `errorTokens`: token indices where the parser reported errors (ascending); no follow-up
  // complaints are made about statements containing them.
  AstBuilder(const SourceStream &src, Diagnostics &diags, bool eofErrorReported, const std::vector<size_t> &errorTokens)
      : src_(src), diags_(diags), eofErrorReported_(eofErrorReported), errorTokens_(errorTokens) {}

  std::unique_ptr<ast::Program> program(P::ProgramContext *ctx);
  std::vector<ast::StmtP> repl(P::ReplInputContext *ctx);

 private:
  // ---- ranges and text
  ast::Range range(antlr4::ParserRuleContext *ctx) const;
  ast::Range range(antlr4::tree::TerminalNode *node) const;
  ast::Range range(const antlr4::Token *tok) const { return src_.rangeOf(tok); }
  ast::Range span(ast::Range a, ast::Range b) const { return {a.Start, b.End}; }
  std::string text(antlr4::ParserRuleContext *ctx) const;   // exact source text
  std::string text(antlr4::tree::TerminalNode *node) const;
  // The source text from `from` to `to`; empty when recovery left them out of order.
  static std::string between(llvm::SMLoc from, llvm::SMLoc to);
  void error(ast::Range r, const std::string &msg);
  bool hasSyntaxError(antlr4::ParserRuleContext *ctx) const;  // a parser error inside ctx or at its end

  // ---- items (AstBuilder.cpp)
  ast::ItemP item(P::ItemContext *ctx);
  ast::ItemP itemKind(std::vector<P::OuterAttrContext *> attrs, P::VisibilityContext *vis,
                      P::ItemKindContext *kind, ast::Range r);
  void axes(P::AxesItemContext *ctx, ast::Item &out);
  void typeAlias(P::TypeAliasContext *ctx, ast::Item &out);
  void fnItem(P::FnItemContext *ctx, ast::Item &out);
  void param(P::FnParamContext *ctx, ast::Item &out);
  void useItem(P::UseItemContext *ctx, ast::Item &out);
  // Flattens a use tree into one entry per imported path (`prefix` = the enclosing `a::` groups).
  void useTree(P::UseTreeContext *ctx, std::vector<std::string> prefix, std::vector<ast::Range> ranges,
               std::vector<ast::UseEntry> &out);
  ast::Attribute attribute(P::AttrBodyContext *body, bool inner, ast::Range r);
  std::vector<ast::Attribute> outerAttrs(const std::vector<P::OuterAttrContext *> &attrs);
  void innerAttrs(const std::vector<P::InnerAttrContext *> &attrs, std::vector<ast::Attribute> &out);
  void genericParams(P::GenericParamsContext *ctx, std::vector<ast::GenericParam> &out);
  std::vector<ast::TypeP> bounds(P::TypeBoundsContext *ctx);
  void checkClosed(antlr4::tree::TerminalNode *closer, antlr4::ParserRuleContext *ctx, const char *what);

  // ---- statements (AstBuilderStmt.cpp)
  ast::BlockP block(P::BlockContext *ctx);
  ast::StmtP stmt(P::StmtContext *ctx);
  // The statements of a block or REPL input, then its final expression (if any) as an ExprS without ';'.
  void stmts(const std::vector<P::StmtContext *> &in, P::TailExprContext *tail, std::vector<ast::StmtP> &out);

  // ---- expressions (AstBuilderExpr.cpp)
  ast::ExprP expr(P::ExprContext *ctx);
  ast::ExprP primary(P::PrimaryContext *ctx);
  ast::ExprP blockLike(P::BlockLikeExprContext *ctx);
  ast::ExprP ifExpr(P::IfExprContext *ctx);
  ast::ExprP macro(P::MacroPrimaryContext *ctx);
  // `name!(...)` from its path and arguments (a MacroArgsContext or a BraceMacroArgsContext).
  ast::ExprP macro(ast::Range r, P::SimplePathContext *path, antlr4::ParserRuleContext *args);
  ast::ExprP binary(antlr4::ParserRuleContext *ctx, std::string op, P::ExprContext *l, P::ExprContext *r,
                    ast::Expr::Kind kind = ast::Expr::Binary);
  void condition(P::CondExprContext *ctx, ast::Expr &out);
  void exprList(const std::vector<P::ExprContext *> &in, std::vector<ast::ExprP> &out);
  ast::ExprP literal(P::LiteralContext *ctx, bool negate = false);
  ast::ExprP placeholder(ast::Range r);  // stands in for a missing operand after a syntax error

  // ---- patterns (AstBuilderPattern.cpp)
  ast::PatternP pattern(P::PatternContext *ctx);
  ast::PatternP patternNoTop(P::PatternNoTopContext *ctx);

  // ---- types, paths and generics (AstBuilderType.cpp)
  ast::TypeP type(P::Type_Context *ctx);
  ast::TypeP castType(P::CastTypeContext *ctx);
  ast::Path typePath(P::TypePathContext *ctx);
  ast::Path pathExpr(P::PathExprContext *ctx);
  ast::Path qualifiedPath(P::QualifiedPathContext *ctx);
  // The segments of an expression path (`a::b::<T>`), appended to p.
  void exprSegments(const std::vector<P::PathExprSegmentContext *> &segments, ast::Path &p);
  ast::Path simplePath(P::SimplePathContext *ctx);
  void genericArgs(P::GenericArgsContext *ctx, ast::PathSegment &seg);
  ast::GenericArg genericArg(P::GenericArgContext *ctx);

  // ---- mappings (AstBuilderMap.cpp)
  ast::MapExprP mapExpr(P::MapExprContext *ctx);
  ast::MapExprP naryMap(ast::MapExpr::Kind kind, std::vector<ast::MapExprP> parts, antlr4::ParserRuleContext *ctx,
                        const std::vector<antlr4::tree::TerminalNode *> &ops, const char *op);
  ast::MapExprP mapConcat(P::MapConcatContext *ctx);
  ast::MapExprP mapOuter(P::MapOuterContext *ctx);
  ast::MapExprP mapPostfix(P::MapPostfixContext *ctx);
  ast::MapExprP mapSuffixes(ast::MapExprP base, const std::vector<P::MapSuffixContext *> &suffixes);
  ast::MapExprP mapAtom(P::MapAtomContext *ctx);
  void finishNumber(ast::MapExpr &m);
  ast::ExprP mapSize(P::MapSizeContext *ctx);

  const SourceStream &src_;
  Diagnostics &diags_;
  bool eofErrorReported_;  // the parser already complained at end of file: no unclosed-'{' follow-ups
  const std::vector<size_t> &errorTokens_;
  bool quiet_ = false;  // the enclosing item has syntax errors: no follow-up missing-';' reports
};

}  // namespace tcp
