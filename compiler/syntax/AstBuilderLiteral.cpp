// AstBuilderLiteral.cpp — AST building for literals: values, suffixes and escapes, with their diagnostics.
#include "AstBuilder.h"
#include "Literals.h"

namespace tcp {

using namespace ast;
using P = parser::TcpParser;

namespace {

// The body of a quoted literal: `"abc"` → `abc`, `b'x'` → `x`, `r#"a"#` → `a`.
llvm::StringRef stripQuotes(llvm::StringRef t) {
  if (t.startswith("b")) t = t.drop_front();
  if (t.startswith("r")) {
    t = t.drop_front();
    size_t hashes = 0;
    while (hashes < t.size() && t[hashes] == '#') ++hashes;
    t = t.drop_front(hashes).drop_back(std::min(hashes, t.size()));
  }
  if (t.size() >= 2) return t.drop_front().drop_back();
  return {};
}

}  // namespace

ExprP AstBuilder::literal(P::LiteralContext *ctx, bool negate) {
  if (!ctx || !ctx->getStart()) return nullptr;
  antlr4::Token *tok = ctx->getStart();
  auto e = std::make_unique<Expr>();
  e->range = range(tok);
  llvm::StringRef t = src_.textOf(tok);
  switch (tok->getType()) {
    case P::INT_LIT: {
      IntLiteral lit = decodeInt(t);
      if (lit.digits.find_first_of("xob") == std::string::npos && isFloatSuffix(lit.suffix)) {
        FloatLiteral f = decodeFloat(t);  // `2f32` is a float literal
        e->kind = Expr::FloatLit;
        e->text = f.digits;
        e->suffix = f.suffix;
        e->floatValue = f.value;
        break;
      }
      e->kind = Expr::IntLit;
      e->text = lit.digits;
      e->suffix = lit.suffix;
      e->intValue = lit.value;
      e->intOverflow = lit.overflow;
      if (!lit.valid)
        error(e->range, "integer literal '" + t.str() + "' has no digits");
      else if (!lit.suffix.empty() && !isIntSuffix(lit.suffix))
        error(e->range, "invalid suffix '" + lit.suffix + "' for integer literal '" + lit.digits +
                            "' (expected i8..i128, isize, u8..u128, usize)");
      else if (lit.overflow)
        error(e->range, "integer literal '" + t.str() + "' does not fit in 64 bits");
      break;
    }
    case P::FLOAT_LIT: {
      FloatLiteral f = decodeFloat(t);
      e->kind = Expr::FloatLit;
      e->text = f.digits;
      e->suffix = f.suffix;
      e->floatValue = f.value;
      if (!f.suffix.empty() && !isFloatSuffix(f.suffix))
        error(e->range, "invalid suffix '" + f.suffix + "' for float literal '" + f.digits + "' (expected f32 or f64)");
      break;
    }
    case P::TRUE:
    case P::FALSE:
      e->kind = Expr::BoolLit;
      e->boolValue = tok->getType() == P::TRUE;
      e->text = t.str();
      break;
    case P::STRING_LIT:
    case P::BYTE_STRING_LIT:
    case P::RAW_STRING_LIT:
    case P::CHAR_LIT:
    case P::BYTE_LIT: {
      bool isChar = tok->getType() == P::CHAR_LIT || tok->getType() == P::BYTE_LIT;
      e->kind = isChar ? Expr::CharLit : Expr::StrLit;
      llvm::StringRef body = stripQuotes(t);
      if (tok->getType() == P::RAW_STRING_LIT) {
        e->text = body.str();
        break;
      }
      std::string err;
      size_t at = 0;
      if (!unescape(body, e->text, err, at)) {
        const char *p = body.data() + at;
        error({llvm::SMLoc::getFromPointer(p), llvm::SMLoc::getFromPointer(p + 2)}, err);
      }
      break;
    }
    default:
      return nullptr;
  }
  if (!negate) return e;
  auto neg = std::make_unique<Expr>();
  neg->kind = Expr::Unary;
  neg->text = "-";
  neg->range = range(ctx);
  neg->operands.push_back(std::move(e));
  return neg;
}

}  // namespace tcp
