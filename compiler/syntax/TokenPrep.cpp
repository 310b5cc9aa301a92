// TokenPrep.cpp — lexing to a token list and inserting zero-width ';' after bodiless `pub fn` excerpts.
#include "TokenPrep.h"

#include "TcpLexer.h"

namespace tcp {

using L = parser::TcpLexer;

TokenList lexAll(antlr4::Lexer &lexer, size_t limit) {
  TokenList out;
  while (out.size() <= limit) {
    std::unique_ptr<antlr4::Token> tok = lexer.nextToken();
    bool eof = tok->getType() == antlr4::Token::EOF;
    out.push_back(std::move(tok));
    if (eof) return out;
  }
  return out;
}

bool isSyntheticSemi(const antlr4::Token *tok) {
  return tok && tok->getType() == L::SEMI && tok->getStopIndex() + 1 == tok->getStartIndex();
}

namespace {

// Index of the first default-channel token at or after `i` (tokens.size() if none).
size_t next(const TokenList &tokens, size_t i) {
  while (i < tokens.size() && tokens[i]->getChannel() != antlr4::Token::DEFAULT_CHANNEL) ++i;
  return i;
}

// For a `pub fn` starting at `fnTok`, returns where its bodiless signature ends (the index to insert
// `;` before), or tokens.size() when the function has a body or a `;`.
size_t signatureEnd(const TokenList &tokens, size_t fnTok) {
  int paren = 0, angle = 0, bracket = 0, brace = 0;
  bool sawParams = false;
  for (size_t j = next(tokens, fnTok + 1); j < tokens.size(); j = next(tokens, j + 1)) {
    size_t t = tokens[j]->getType();
    bool top = paren == 0 && angle == 0 && bracket == 0 && brace == 0;
    if (top) {
      if (t == L::LBRACE || t == L::SEMI) return tokens.size();
      if (sawParams && (t == antlr4::Token::EOF || t == L::POUND || t == L::PUB || t == L::FN || t == L::IMPL ||
                        t == L::RBRACE))
        return j;
    }
    if (t == antlr4::Token::EOF) return tokens.size();
    switch (t) {
      case L::LPAREN: ++paren; break;
      case L::RPAREN:
        if (paren > 0 && --paren == 0 && angle == 0) sawParams = true;
        break;
      case L::LT: ++angle; break;
      case L::SHL: angle += 2; break;
      case L::GT:
        if (angle > 0) --angle;
        break;
      case L::LBRACK: case L::MAP_OPEN: case L::INDEX_OPEN: case L::AXES_OPEN: ++bracket; break;
      case L::RBRACK:
        if (bracket > 0) --bracket;
        break;
      case L::LBRACE: ++brace; break;  // only inside generics: `{ VeOrder::IntraFirst }`
      case L::RBRACE:
        if (brace > 0) --brace;
        break;
      default: break;
    }
  }
  return tokens.size();
}

}  // namespace

void insertExcerptSemicolons(TokenList &tokens) {
  std::vector<size_t> at;
  for (size_t i = next(tokens, 0); i < tokens.size(); i = next(tokens, i + 1)) {
    if (tokens[i]->getType() != L::PUB) continue;
    size_t j = next(tokens, i + 1);
    if (j < tokens.size() && tokens[j]->getType() == L::LPAREN) {  // pub(crate)
      while (j < tokens.size() && tokens[j]->getType() != L::RPAREN && tokens[j]->getType() != antlr4::Token::EOF) ++j;
      j = next(tokens, j + 1);
    }
    while (j < tokens.size() && (tokens[j]->getType() == L::CONST || tokens[j]->getType() == L::ASYNC ||
                                 tokens[j]->getType() == L::UNSAFE || tokens[j]->getType() == L::EXTERN ||
                                 tokens[j]->getType() == L::STRING_LIT))
      j = next(tokens, j + 1);
    if (j >= tokens.size() || tokens[j]->getType() != L::FN) continue;
    size_t end = signatureEnd(tokens, j);
    if (end < tokens.size()) at.push_back(end);
  }
  // Insert back to front so earlier indices stay valid.
  for (size_t k = at.size(); k-- > 0;) {
    size_t j = at[k];
    // The `;` sits right after the last default-channel token before j, with an empty extent.
    size_t p = j;
    while (p > 0 && tokens[p - 1]->getChannel() != antlr4::Token::DEFAULT_CHANNEL) --p;
    antlr4::Token *prev = p > 0 ? tokens[p - 1].get() : tokens[j].get();
    size_t start = p > 0 ? prev->getStopIndex() + 1 : prev->getStartIndex();
    auto semi = std::make_unique<antlr4::CommonToken>(
        std::make_pair(prev->getTokenSource(), prev->getInputStream()), L::SEMI, antlr4::Token::DEFAULT_CHANNEL,
        start, start - 1);
    semi->setText(";");
    semi->setLine(prev->getLine());
    semi->setCharPositionInLine(prev->getCharPositionInLine());
    tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(p), std::move(semi));
  }
}

}  // namespace tcp
