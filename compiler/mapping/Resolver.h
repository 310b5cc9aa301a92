// Resolver.h — name resolution: hoists items, declares axes and aliases, lowers every m![...] mapping.
#pragma once

#include "Ast.h"
#include "Diagnostics.h"
#include "Symbols.h"

#include <llvm/Support/raw_ostream.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tcp {

class Resolver {
 public:
  Resolver(Symbols &symbols, Diagnostics &diags) : syms_(symbols), diags_(diags) {}

  // Declares the items of a whole program (hoisting items out of function bodies), then checks
  // every mapping written in aliases, signatures and bodies. Errors go to diags.
  void resolveProgram(const ast::Program &program);

  // Incremental use (REPL): declare items, then check them.
  void declareItem(const ast::Item &item);
  void checkItem(const ast::Item &item);
  // Checks the mappings inside a statement or expression outside any item.
  void checkStmt(const ast::Stmt &stmt);
  void checkExpr(const ast::Expr &expr);

  // Lowers a mapping; nullptr after reporting an error (or when it depends on a generic parameter).
  MappingRef lowerMapping(const ast::MapExpr &m);
  // The mapping a type denotes: `m![...]` or an alias of one; nullptr otherwise.
  MappingRef mappingOfType(const ast::Type &t);
  // Folds a constant size expression (`8`, `1 << 12`, `B::SIZE`, `<m![A, B]>::SIZE`).
  std::optional<uint64_t> evalConst(const ast::Expr &e);
  // Resolves an alias to its mapping (nullptr if it is not a mapping alias or failed).
  MappingRef aliasMapping(const std::string &name, llvm::SMRange useRange, bool report);

 private:
  void collectItems(const ast::Block &block, std::vector<const ast::Item *> &out);
  void declareAxes(const ast::Item &item);
  // The attribute rules (ResolverAttributes.cpp): every attribute of `item` is known and well formed;
  // a function's `#[device(chip = N)]` and `#[test]` go into fn (when given).
  void checkAttributes(const ast::Item &item, FnInfo *fn);
  void checkInnerAttributes(const std::vector<ast::Attribute> &attrs);
  // `B' = # 2 + B + # 4`: fills the padding fields of info; false after reporting (ResolverPaddedAxis.cpp).
  bool paddedAxis(const ast::AxisDecl &d, AxisInfo &info);
  void checkType(const ast::Type &t);
  void checkPath(const ast::Path &p);
  void checkBlock(const ast::Block &b);
  void checkPattern(const ast::Pattern &p);
  void checkGenericArgs(const std::vector<ast::GenericArg> &args);
  void pushGenerics(const std::vector<ast::GenericParam> &params);
  void popGenerics(size_t n);
  bool isGeneric(const std::string &name) const;
  std::optional<uint64_t> evalSizeOperand(const ast::MapExpr &m);
  MappingRef lowerSymbol(const ast::MapExpr &m);
  MappingRef lowerEscape(const ast::MapExpr &m);
  // Lowers every mapping of a list (reporting all errors); false if one failed.
  bool lowerAll(const std::vector<ast::MapExprP> &children, std::vector<MappingRef> &out);

  Symbols &syms_;
  Diagnostics &diags_;
  std::vector<std::string> generics_;  // generic parameter names in scope (opaque)
  bool opaque_ = false;                // the mapping being lowered mentions a generic parameter
  std::vector<std::string> constsInProgress_;  // `const` items whose value is being folded (cycles)
};

// --emit=resolved: the axes, mapping aliases in normal form and functions (ResolvedPrinter.cpp).
void printResolved(const Symbols &symbols, llvm::raw_ostream &os);

}  // namespace tcp
