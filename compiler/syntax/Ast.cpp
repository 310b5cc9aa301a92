// Ast.cpp — out-of-line members of the AST (Path::str).
#include "Ast.h"

#include "AstPrinter.h"

namespace tcp::ast {

std::string Path::str() const {
  std::string out;
  if (qualifiedSelf) out = "<" + typeToString(*qualifiedSelf) + ">";
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i || qualifiedSelf || global) out += "::";
    out += segments[i].name;
  }
  return out;
}

}  // namespace tcp::ast
