// AstPrinter.h — AST dumps for --emit=ast (an indented tree, one node per line) and one-line renderings.
#pragma once

#include "Ast.h"

#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace tcp {

// The whole program as an indented tree: `Kind key-fields @line:col`, children indented by two.
void printAst(const ast::Program &program, llvm::SourceMgr &sm, llvm::raw_ostream &os);
// One statement (REPL `:ast`), starting at `indent` levels.
void printStmt(const ast::Stmt &stmt, llvm::SourceMgr &sm, llvm::raw_ostream &os, unsigned indent = 0);

// A mapping in `m![...]` body notation (without `m![` `]`), parenthesised only where the tree
// differs from the default precedence, so it parses back to the same tree: `A / 8 # 256`, `[A, B] # 4`.
std::string mapExprToString(const ast::MapExpr &m);
// One-line renderings used inside the tree dump and in diagnostics.
std::string typeToString(const ast::Type &t);
// With generic arguments; expression paths use turbofish: `HostTensor::<i32, m![A]>::rand`.
std::string pathToString(const ast::Path &p, bool turbofish = false);
std::string genericArgsToString(const ast::PathSegment &s);  // `<i32, m![A]>`, "" without generics
std::string exprToString(const ast::Expr &e);  // compact; blocks print as `{ ... }`
std::string patternToString(const ast::Pattern &p);

}  // namespace tcp
