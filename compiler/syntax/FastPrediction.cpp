// FastPrediction.cpp — finds the decisions the token scans answer (once per process) and answers them.
#include "FastPrediction.h"

#include "BracketScan.h"
#include "TcpParser.h"

#include <atomic>
#include <cassert>

namespace tcp {

namespace {

using antlr4::atn::ATN;
using antlr4::atn::ATNState;
using antlr4::atn::StarLoopEntryState;
using antlr4::atn::Transition;
using P = parser::TcpParser;

constexpr size_t kNone = ~size_t(0);
constexpr int kNoPrec = -1;

// The decisions with a token-scan answer, and their alternatives, found in the ATN.
struct Shortcuts {
  size_t stmtLoop = kNone;       // `stmt*` in block: alternative 1 enters the loop
  size_t macroArgs = kNone;      // macroArgs' alternatives
  size_t braceMacroArgs = kNone; // braceMacroArgs' alternatives
  size_t exprLoop = kNone;       // expr's operator loop (a precedence decision): 1 continues, 2 ends expr
  size_t exprSuffix = kNone;     // the postfix/binary operator block of the left-recursive expr
  // Per token: the lowest and highest precedence of the operators it starts (kNoPrec: none).
  std::vector<int> minPrec, maxPrec;
  size_t parenArgs = 0, braceArgs = 0, repeatArgs = 0, bracketArgs = 0, braceStmtArgs = 0;
  size_t pathLoop = kNone;       // `(:: segment)*` in pathExpr: alternative 1 continues
  size_t segmentArgs = kNone;    // `(:: genericArgs)?` in pathExprSegment: 1 takes them, 2 does not
  size_t item = kNone;           // item's alternatives
  size_t attributedItem = 0;     // the earliest item alternative an attribute starts
  size_t primary = kNone;        // primary's alternatives
  size_t macroPrimary = 0, structPrimary = 0, pathPrimary = 0;  // `path!(...)`, `Path { .. }`, a path
  size_t stmt = kNone;           // stmt's alternatives
  size_t blockLikeStmt = 0;      // a block-like expression as a statement
  std::vector<size_t> firstStmtAlt;  // per token: the earliest stmt alternative it starts (0: none)
  // Tokens that start a statement needing no `;` (all but `let` and expression statements).
  std::vector<bool> bareStmtStart;
  bool ok = true;  // the grammar has the structure the shortcuts rely on

  explicit Shortcuts(const ATN &atn) {
    for (size_t d = 0; d < atn.decisionToState.size(); ++d) {
      ATNState *s = atn.decisionToState[d];
      ATNState *ruleEntry = atn.ruleToStartState[s->ruleIndex]->transitions[0]->target;
      if (s->ruleIndex == P::RuleBlock && s->getStateType() == ATNState::STAR_LOOP_ENTRY && calls(s, P::RuleStmt))
        stmtLoop = d;
      else if (s->ruleIndex == P::RuleMacroArgs && s == ruleEntry)
        macroArgs = d;
      else if (s->ruleIndex == P::RuleBraceMacroArgs && s == ruleEntry)
        braceMacroArgs = d;
      else if (s->ruleIndex == P::RulePrimary && s == ruleEntry)
        primary = d;
      else if (s->ruleIndex == P::RuleStmt && s == ruleEntry)
        stmt = d;
      else if (s->ruleIndex == P::RulePathExpr && s->getStateType() == ATNState::STAR_LOOP_ENTRY)
        pathLoop = d;
      else if (s->ruleIndex == P::RulePathExprSegment) {
        expect(segmentArgs == kNone, "pathExprSegment has one decision");
        segmentArgs = d;
      } else if (s->ruleIndex == P::RuleItem && s == ruleEntry)
        item = d;
      else if (s->ruleIndex == P::RuleExpr && s->getStateType() == ATNState::STAR_LOOP_ENTRY &&
               static_cast<StarLoopEntryState *>(s)->isPrecedenceDecision) {
        auto *block = static_cast<antlr4::atn::DecisionState *>(s->transitions[0]->target);
        exprLoop = d;
        exprSuffix = static_cast<size_t>(block->decision);
      }
    }
    expect(stmtLoop != kNone && macroArgs != kNone && braceMacroArgs != kNone && exprSuffix != kNone &&
               pathLoop != kNone && primary != kNone && stmt != kNone && segmentArgs != kNone && item != kNone,
           "every decision with a shortcut is in the grammar");
    if (!ok) return;
    std::vector<std::vector<bool>> items = LL1Table::localFirst(atn, item);
    for (size_t a = 0; a < items.size() && !attributedItem; ++a)
      if (items[a][P::POUND]) attributedItem = a + 1;
    expect(attributedItem != 0, "item: an attribute starts an item");
    operatorPrecedences(atn);
    statementStarts(atn);
    // An identifier starts a macro call, a struct literal or a path, in that order (Tcp.g4, primary).
    std::vector<std::vector<bool>> prim = LL1Table::localFirst(atn, primary);
    std::vector<size_t> identAlts;
    for (size_t a = 0; a < prim.size(); ++a)
      if (prim[a][P::IDENT]) identAlts.push_back(a + 1);
    expect(identAlts.size() == 3, "primary: an identifier starts a macro call, a struct literal, a path");
    if (!ok) return;
    macroPrimary = identAlts[0];
    structPrimary = identAlts[1];
    pathPrimary = identAlts[2];
    // The expression forms come first, the raw token-tree form last (Tcp.g4, macroArgs).
    std::vector<std::vector<bool>> first = LL1Table::localFirst(atn, macroArgs);
    auto nth = [&](size_t tok, size_t n) -> size_t {
      for (size_t a = 0; a < first.size(); ++a)
        if (first[a][tok] && n-- == 0) return a + 1;
      return 0;
    };
    parenArgs = nth(P::LPAREN, 0);
    braceArgs = nth(P::LBRACE, 0);
    repeatArgs = nth(P::LBRACK, 0);
    bracketArgs = nth(P::LBRACK, 1);
    braceStmtArgs = 1;  // braceMacroArgs: expressions, then raw tokens
    expect(first.size() == 5 && first[4][P::MAP_OPEN], "macroArgs: the raw form is the last alternative");
    expect(parenArgs && parenArgs < 5 && braceArgs && braceArgs < 5 && repeatArgs && repeatArgs < bracketArgs &&
               bracketArgs < 5,
           "macroArgs: the expression forms come first");
  }

  // A structural fact the shortcuts rely on; when the grammar no longer has it, assert (debug) and
  // leave every decision but the LL(1) table to ANTLR (release).
  void expect(bool fact, const char *what) {
    assert(fact && what);
    (void)what;
    ok = ok && fact;
  }

  // The operators each token starts and their precedences.
  void operatorPrecedences(const ATN &atn) {
    minPrec.assign(atn.maxTokenType + 1, kNoPrec);
    maxPrec.assign(atn.maxTokenType + 1, kNoPrec);
    std::vector<std::vector<bool>> first = LL1Table::localFirst(atn, exprSuffix);
    ATNState *block = atn.decisionToState[exprSuffix];
    for (size_t a = 0; a < first.size(); ++a) {
      int prec = precedenceOf(block->transitions[a]->target);
      expect(prec != kNoPrec, "every operator alternative of expr starts with its precedence predicate");
      for (size_t tok = 0; tok < first[a].size(); ++tok) {
        if (!first[a][tok]) continue;
        minPrec[tok] = minPrec[tok] == kNoPrec ? prec : std::min(minPrec[tok], prec);
        maxPrec[tok] = maxPrec[tok] == kNoPrec ? prec : std::max(maxPrec[tok], prec);
      }
    }
  }

  // Which statements a token may start (Tcp.g4, stmt): `let` and expression statements end in `;`,
  // every other alternative needs none.
  void statementStarts(const ATN &atn) {
    std::vector<std::vector<bool>> first = LL1Table::localFirst(atn, stmt);
    size_t letAlt = 0, exprAlt = 0;
    for (size_t a = 0; a < first.size(); ++a) {
      if (first[a][P::LET]) letAlt = a + 1;
      if (first[a][P::INT_LIT]) exprAlt = a + 1;  // only an expression starts with a literal
      if (first[a][P::IF] && !blockLikeStmt) blockLikeStmt = a + 1;
    }
    expect(letAlt && exprAlt && blockLikeStmt && exprAlt == first.size(),
           "stmt: `let`, a block-like statement, the expression statement last");
    firstStmtAlt.assign(atn.maxTokenType + 1, 0);
    bareStmtStart.assign(atn.maxTokenType + 1, false);
    for (size_t a = first.size(); a-- > 0;)
      for (size_t tok = 0; tok <= atn.maxTokenType; ++tok) {
        if (!first[a][tok]) continue;
        firstStmtAlt[tok] = a + 1;
        if (a + 1 != letAlt && a + 1 != exprAlt) bareStmtStart[tok] = true;
      }
  }

  // The precedence predicate an alternative starts with (through epsilon edges), or kNoPrec.
  static int precedenceOf(ATNState *s) {
    for (size_t steps = 0; steps < 8 && s; ++steps) {
      ATNState *next = nullptr;
      for (Transition *t : s->transitions) {
        if (t->getSerializationType() == Transition::PRECEDENCE)
          return static_cast<antlr4::atn::PrecedencePredicateTransition *>(t)->precedence;
        if (t->getSerializationType() == Transition::EPSILON) next = t->target;
      }
      s = next;
    }
    return kNoPrec;
  }

  // Whether the loop entered at `entry` starts by invoking rule `rule` (through epsilon edges).
  static bool calls(ATNState *entry, size_t rule) {
    std::vector<ATNState *> pending{entry->transitions[0]->target};
    for (size_t steps = 0; !pending.empty() && steps < 16; ++steps) {
      ATNState *s = pending.back();
      pending.pop_back();
      for (Transition *t : s->transitions) {
        if (t->getSerializationType() == Transition::RULE) {
          if (t->target->ruleIndex == rule) return true;
        } else if (t->isEpsilon()) {
          pending.push_back(t->target);
        }
      }
    }
    return false;
  }
};

const Shortcuts &shortcutsOf(const ATN &atn) {
  static const Shortcuts s(atn);
  return s;
}

// ANTLR's answer to `.name(` at the operator block (a method call, the earlier of the two readings).
std::atomic<size_t> methodCallAlt{0};

}  // namespace

FastPrediction::FastPrediction(antlr4::Parser *p, antlr4::atn::ParserATNSimulator &base)
    : ParserATNSimulator(p, base.atn, base.decisionToDFA, cache_), table_(LL1Table::of(base.atn)) {}

size_t FastPrediction::closerOf(antlr4::TokenStream *input, size_t i) {
  if (!closersBuilt_) {
    closersBuilt_ = true;
    size_t n = input->size();
    closers_.assign(n, 0);
    std::vector<size_t> open;
    for (size_t k = 0; k < n; ++k) {
      size_t t = input->get(k)->getType();
      if (isOpeningBracket(t)) {
        open.push_back(k);
      } else if (isClosingBracket(t) && !open.empty()) {
        closers_[open.back()] = k;
        open.pop_back();
      }
    }
  }
  return i < closers_.size() ? closers_[i] : 0;
}

bool FastPrediction::semicolonAhead(antlr4::TokenStream *input, size_t i) {
  for (size_t n = input->size(); i < n;) {
    size_t t = input->get(i)->getType();
    if (t == P::SEMI) return true;
    if (isClosingBracket(t) || t == antlr4::Token::EOF) return false;
    if (isOpeningBracket(t)) {
      size_t close = closerOf(input, i);
      if (!close) return false;
      i = close + 1;
    } else {
      ++i;
    }
  }
  return false;
}

bool FastPrediction::isPathIdent(size_t t) {
  return t == P::IDENT || t == P::SELF || t == P::SELF_TYPE || t == P::SUPER || t == P::CRATE;
}

bool FastPrediction::startsPath(size_t t) { return t == P::PATHSEP || isPathIdent(t); }

size_t FastPrediction::pathEnd(antlr4::TokenStream *input, size_t i, bool generics, bool *hadGenerics) {
  size_t n = input->size();
  auto type = [&](size_t k) { return k < n ? input->get(k)->getType() : antlr4::Token::EOF; };
  if (type(i) == P::PATHSEP) ++i;
  while (isPathIdent(type(i))) {
    ++i;
    if (type(i) != P::PATHSEP) break;
    if (generics && type(i + 1) == P::LT) {  // `::<...>`: skip to the matching `>`
      size_t depth = 0, k = i + 1;
      for (; k < n; ++k) {
        size_t t = type(k);
        if (t == P::LT) ++depth;
        else if (t == P::GT && --depth == 0) break;
        else if (isOpeningBracket(t) && closerOf(input, k)) k = closerOf(input, k);
        else if (t == P::SEMI || t == P::SHL || t == P::LE || isOpeningBracket(t) || isClosingBracket(t)) return 0;
      }
      if (k >= n) return 0;
      if (hadGenerics) *hadGenerics = true;
      i = k + 1;
      if (type(i) != P::PATHSEP) break;
    }
    if (!isPathIdent(type(i + 1))) break;
    ++i;
  }
  return i < n ? i : 0;
}

size_t FastPrediction::adaptivePredict(antlr4::TokenStream *input, size_t decision, antlr4::ParserRuleContext *outer) {
  size_t t = input->LA(1);
  if (size_t alt = table_.alt(decision, t)) return alt;
  const Shortcuts &s = shortcutsOf(atn);
  if (!s.ok || t > atn.maxTokenType)  // EOF: ask ANTLR
    return ParserATNSimulator::adaptivePredict(input, decision, outer);
  if (decision == s.exprLoop) {
    // Precedence climbing: an operator binds here when its precedence reaches the current level.
    // Continuing is also the earlier alternative, the one ANTLR takes when the token could as well
    // follow the expression (`A => f (x)`: a call, not the next match arm's pattern) and both parse.
    if (t < s.minPrec.size() && s.minPrec[t] != kNoPrec) {
      int level = parser->getPrecedence();
      if (s.minPrec[t] >= level) return 1;
      if (s.maxPrec[t] < level) return 2;
    }
  } else if (decision == s.stmtLoop) {
    // A statement comes when a `;` ends it before the block does; without one, only a statement
    // that needs no `;` can (the tail expression is the later alternative: ANTLR's choice too when
    // both parse). A path that is not followed by `!` (macro) or `<` (impl body) starts none.
    if (semicolonAhead(input, input->index())) return 1;
    if (s.firstStmtAlt[t] == s.blockLikeStmt) return 1;
    if (!s.bareStmtStart[t]) return 2;
    if (startsPath(t)) {
      size_t end = pathEnd(input, input->index(), false);
      size_t after = end ? input->get(end)->getType() : size_t(P::BANG);
      if (after != P::BANG && after != P::LT) return 2;
    }
  } else if (decision == s.stmt) {
    // A block-like expression (`if`, `match`, `for`, `{`, ...) is a statement by itself: the
    // earlier alternative, ANTLR's choice too when `... }.method();` would parse as well.
    if (s.firstStmtAlt[t] == s.blockLikeStmt) return s.blockLikeStmt;
  } else if (decision == s.item) {
    // `#[...]` before an item: the earliest alternative (a regular item; a macro call is the other).
    if (t == P::POUND) return s.attributedItem;
  } else if (decision == s.segmentArgs) {
    // `::` takes generic arguments only when `<` follows.
    if (t == P::PATHSEP) return input->LA(2) == P::LT ? 1 : 2;
  } else if (decision == s.pathLoop) {
    // `::name` continues the path (the earlier alternative; the next match arm's `::Path(..)`
    // pattern is the only other reading).
    if (t == P::PATHSEP && isPathIdent(input->LA(2))) return 1;
  } else if (decision == s.primary) {
    if (startsPath(t)) {
      bool generics = false;
      size_t end = pathEnd(input, input->index(), true, &generics);
      size_t after = end ? input->get(end)->getType() : size_t(P::LBRACE);
      if (after == P::BANG && !generics) return s.macroPrimary;
      if (after != P::BANG && after != P::LBRACE) return s.pathPrimary;
      // `Path {`: a struct literal where one is allowed (the alternative's own predicate), else a path.
      if (after == P::LBRACE && end) return static_cast<P *>(parser)->structAllowed() ? s.structPrimary : s.pathPrimary;
    }
  } else if (decision == s.macroArgs) {
    if (t == P::LPAREN) return s.parenArgs;
    if (t == P::LBRACE) return s.braceArgs;
    if (t == P::LBRACK) {
      size_t open = input->index();
      size_t close = closerOf(input, open);
      if (close) return semicolonAhead(input, open + 1) ? s.repeatArgs : s.bracketArgs;
    }
  } else if (decision == s.braceMacroArgs) {
    if (t == P::LBRACE) return s.braceStmtArgs;
  } else if (decision == s.exprSuffix && t == P::DOT && input->LA(2) == P::IDENT && input->LA(3) == P::LPAREN) {
    if (size_t alt = methodCallAlt.load(std::memory_order_relaxed)) return alt;
    size_t alt = ParserATNSimulator::adaptivePredict(input, decision, outer);
    methodCallAlt.store(alt, std::memory_order_relaxed);
    return alt;
  }
  return ParserATNSimulator::adaptivePredict(input, decision, outer);
}

}  // namespace tcp
