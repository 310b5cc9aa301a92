// BracketScan.cpp — one pass over the tokens matching brackets, before the parser sees them.
#include "BracketScan.h"

#include "TcpParser.h"

namespace tcp {

using P = parser::TcpParser;

namespace {

bool isOpener(size_t t) {
  return t == P::LPAREN || t == P::LBRACK || t == P::LBRACE || t == P::MAP_OPEN || t == P::INDEX_OPEN ||
         t == P::AXES_OPEN;
}
bool isCloser(size_t t) { return t == P::RPAREN || t == P::RBRACK || t == P::RBRACE; }
// Tokens that open a nested expression without a bracket: unary and reference operators, `mut`,
// range prefixes, `return`/`break`, closure heads.
bool isPrefix(size_t t) {
  return t == P::MINUS || t == P::STAR || t == P::BANG || t == P::AND || t == P::ANDAND || t == P::MUT ||
         t == P::DOTDOT || t == P::DOTDOTEQ || t == P::RETURN || t == P::BREAK || t == P::OROR || t == P::MOVE ||
         t == P::ASYNC;
}
bool closes(size_t opener, size_t closer) {
  return closer == (opener == P::LPAREN ? P::RPAREN : opener == P::LBRACE ? P::RBRACE : P::RBRACK);
}

}  // namespace

bool isOpeningBracket(size_t t) { return isOpener(t); }
bool isClosingBracket(size_t t) { return isCloser(t); }
char closerFor(size_t opener) { return opener == P::LPAREN ? ')' : opener == P::LBRACE ? '}' : ']'; }
char bracketOf(size_t opener) { return opener == P::LPAREN ? '(' : opener == P::LBRACE ? '{' : '['; }

BracketScan scanBrackets(const std::vector<antlr4::Token *> &tokens, size_t maxDepth, size_t maxPrefixRun) {
  BracketScan scan;
  std::vector<antlr4::Token *> open;
  antlr4::Token *runStart = nullptr;
  size_t run = 0;
  scan.innermost.resize(tokens.size(), nullptr);
  for (antlr4::Token *tok : tokens) {
    if (tok->getTokenIndex() < scan.innermost.size())
      scan.innermost[tok->getTokenIndex()] = open.empty() ? nullptr : open.back();
    if (tok->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
    size_t t = tok->getType();
    if (!isPrefix(t)) {
      run = 0;
    } else if (run++ == 0) {
      runStart = tok;
    } else if (run > maxPrefixRun && !scan.prefixRun) {
      scan.prefixRun = runStart;
    }
    if (isOpener(t)) {
      open.push_back(tok);
      if (open.size() > maxDepth && !scan.tooDeep) scan.tooDeep = tok;
    } else if (isCloser(t)) {
      if (!open.empty() && closes(open.back()->getType(), t)) {
        open.pop_back();
        continue;
      }
      scan.badClosers[tok->getTokenIndex()] = open.empty() ? nullptr : open.back();
      scan.badCloserList.push_back(tok);
      // A closer that matches an outer opener closes up to it (`[ ( ]`); any other closer is taken
      // as a mistyped closer of the innermost opener (`( ]`).
      bool outer = false;
      for (size_t k = open.size(); k-- > 0;)
        if (closes(open[k]->getType(), t)) {
          open.resize(k);
          outer = true;
          break;
        }
      if (!outer && !open.empty()) open.pop_back();
    }
  }
  scan.unclosed = std::move(open);
  return scan;
}

}  // namespace tcp
