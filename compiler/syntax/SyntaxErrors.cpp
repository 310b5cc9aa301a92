// SyntaxErrors.cpp — phrases syntax errors from the offending token, the rule context and the expected tokens.
#include "SyntaxErrors.h"

#include "Parser.h"
#include "TcpParser.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace tcp {

using P = parser::TcpParser;

namespace {
std::atomic<size_t> budget{kMaxFullContextSteps};
}  // namespace

size_t fullContextBudget() { return budget.load(std::memory_order_relaxed); }
void setFullContextBudget(size_t steps) { budget.store(steps, std::memory_order_relaxed); }

namespace {

// How a token of type `t` is named in "expected ..." lists.
std::string tokenName(size_t t, const antlr4::dfa::Vocabulary &vocab) {
  switch (t) {
    case antlr4::Token::EOF: return "end of file";
    case P::IDENT: return "a name";
    case P::PRIMED_IDENT: return "a primed axis name";
    case P::INT_LIT: return "an integer";
    case P::FLOAT_LIT: return "a number";
    case P::STRING_LIT:
    case P::RAW_STRING_LIT:
    case P::BYTE_STRING_LIT: return "a string";
    case P::CHAR_LIT:
    case P::BYTE_LIT: return "a character";
    case P::LIFETIME: return "a lifetime";
    default: break;
  }
  std::string lit = vocab.getLiteralName(t);  // "';'" — already quoted
  return lit.empty() ? vocab.getSymbolicName(t) : lit;
}

// The offending token as the user wrote it: `'let'`, `end of file`.
std::string found(const antlr4::Token *tok, const SourceStream &src) {
  if (!tok || tok->getType() == antlr4::Token::EOF) return "the end of the file";
  std::string t = src.textOf(tok).str();
  if (t.size() > 24) t = t.substr(0, 21) + "...";
  std::string out;
  for (char c : t) out += c == '\n' ? ' ' : c;
  return "'" + out + "'";
}

// What the innermost rule was parsing, as a noun phrase for "expected <phrase>".
const char *phraseFor(antlr4::RuleContext *ctx) {
  for (antlr4::tree::ParseTree *t = ctx; t; t = t->parent) {
    auto *c = dynamic_cast<antlr4::RuleContext *>(t);
    if (!c) break;
    switch (c->getRuleIndex()) {
      case P::RuleExpr:
      case P::RulePrimary:
      case P::RuleCallArgs:
      case P::RuleCondExpr:
      case P::RuleParenLike:
      case P::RuleStructField:
      case P::RuleMacroArgs:
        return "an expression";
      case P::RuleType_:
      case P::RuleTypePath:
      case P::RuleTypePathSegment:
      case P::RuleGenericArgs:
      case P::RuleGenericArg:
      case P::RuleQualifiedPath:
        return "a type";
      case P::RulePattern:
      case P::RulePatternNoTop:
      case P::RuleFieldPattern:
        return "a pattern";
      case P::RuleMapExpr:
      case P::RuleMapConcat:
      case P::RuleMapOuter:
      case P::RuleMapPostfix:
      case P::RuleMapAtom:
      case P::RuleLinTerm:
        return "a mapping expression";
      case P::RuleMapSize:
        return "a size";
      case P::RuleIndexEntry:
        return "an index entry such as 'A: 2'";
      case P::RuleAxesItem:
      case P::RuleAxisDecl:
        return "an axis declaration such as 'A = 8'";
      case P::RuleGenericParams:
      case P::RuleGenericParam:
        return "a generic parameter";
      case P::RuleFnParams:
      case P::RuleFnParam:
        return "a parameter";
      case P::RuleMatchArms:
      case P::RuleMatchArm:
        return "a match arm";
      case P::RuleAttrBody:
      case P::RuleAttrInput:
        return "an attribute";
      case P::RuleUseTree:
        return "a path";
      case P::RuleBlock:
      case P::RuleStmt:
      case P::RuleReplInput:
        return "a statement";
      case P::RuleProgram:
      case P::RuleItem:
      case P::RuleItemKind:
        return "an item (fn, type, axes![...])";
      default:
        break;
    }
  }
  return nullptr;
}

// The construct a missing ';' would end: "expected ';' after the type alias".
const char *nounFor(antlr4::RuleContext *ctx) {
  for (antlr4::tree::ParseTree *t = ctx; t; t = t->parent) {
    if (dynamic_cast<P::LetStmtContext *>(t)) return "the let statement";
    if (dynamic_cast<P::ExprStmtContext *>(t)) return "the expression";
    if (dynamic_cast<P::TypeAliasContext *>(t)) return "the type alias";
    if (dynamic_cast<P::AxesItemContext *>(t)) return "'axes![...]'";
    if (dynamic_cast<P::UseItemContext *>(t)) return "the use declaration";
    if (dynamic_cast<P::ExternCrateContext *>(t)) return "'extern crate'";
    if (dynamic_cast<P::ConstItemContext *>(t)) return "the constant";
    if (dynamic_cast<P::StaticItemContext *>(t)) return "the static";
    if (dynamic_cast<P::StructItemContext *>(t)) return "the struct";
    if (dynamic_cast<P::MacroItemContext *>(t)) return "the macro call";
    if (dynamic_cast<P::FnItemContext *>(t)) return "the function signature";
    if (dynamic_cast<P::BlockContext *>(t)) return nullptr;
  }
  return nullptr;
}

// Operators after which an operand is missing: "expected an expression after '+'".
bool isOperator(size_t t) {
  switch (t) {
    case P::PLUS: case P::MINUS: case P::STAR: case P::SLASH: case P::PERCENT: case P::CARET:
    case P::AND: case P::OR: case P::ANDAND: case P::OROR: case P::SHL: case P::EQ: case P::EQEQ:
    case P::NE: case P::LT: case P::LE: case P::GT: case P::PLUSEQ: case P::MINUSEQ: case P::STAREQ:
    case P::SLASHEQ: case P::PERCENTEQ: case P::CARETEQ: case P::ANDEQ: case P::OREQ: case P::SHLEQ:
    case P::POUND: case P::AT: case P::COLON: case P::COMMA: case P::AS: case P::RARROW:
    case P::FATARROW: case P::DOTDOT: case P::DOTDOTEQ: case P::BANG: case P::IN: case P::LET:
    case P::RETURN:
      return true;
    default:
      return false;
  }
}

// `if x == Foo { a: 1 } {`: a path inside a condition followed by `{ name:` reads as a struct literal.
bool structLiteralInCondition(antlr4::Parser *p, antlr4::Token *tok) {
  bool inCondition = false;
  for (antlr4::tree::ParseTree *t = p->getContext(); t; t = t->parent)
    if (dynamic_cast<P::CondExprContext *>(t)) inCondition = true;
  if (!inCondition || !tok || tok->getType() != P::IDENT) return false;
  antlr4::TokenStream *in = p->getTokenStream();
  std::vector<size_t> types;  // the next default-channel token types
  for (size_t i = tok->getTokenIndex() + 1; i < in->size() && types.size() < 16; ++i)
    if (in->get(i)->getChannel() == antlr4::Token::DEFAULT_CHANNEL) types.push_back(in->get(i)->getType());
  for (size_t k = 0; k + 2 < types.size(); ++k) {
    if (types[k] == P::LBRACE) return types[k + 1] == P::IDENT && types[k + 2] == P::COLON;
    if (types[k] != P::PATHSEP && types[k] != P::IDENT) return false;
  }
  return false;
}

// Tokens that continue a complete expression (`(`, `.`, binary and assignment operators): a
// statement that fails at one of them failed inside the continuation, not for want of ';'.
bool continuesExpression(size_t t) {
  switch (t) {
    case P::LPAREN: case P::LBRACK: case P::DOT: case P::QUESTION: case P::AS: case P::PLUS: case P::MINUS:
    case P::STAR: case P::SLASH: case P::PERCENT: case P::CARET: case P::AND: case P::OR: case P::ANDAND:
    case P::OROR: case P::SHL: case P::EQ: case P::EQEQ: case P::NE: case P::LT: case P::LE: case P::GT:
    case P::PLUSEQ: case P::MINUSEQ: case P::STAREQ: case P::SLASHEQ: case P::PERCENTEQ: case P::CARETEQ:
    case P::ANDEQ: case P::OREQ: case P::SHLEQ: case P::DOTDOT: case P::DOTDOTEQ:
      return true;
    default:
      return false;
  }
}

// Statement level: an expression statement, the block's final expression, or the block itself.
bool inStatement(antlr4::RuleContext *ctx) {
  return dynamic_cast<P::ExprStmtContext *>(ctx) || dynamic_cast<P::TailExprContext *>(ctx) ||
         dynamic_cast<P::BlockContext *>(ctx) || dynamic_cast<P::ReplInputContext *>(ctx);
}

std::string joinOr(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

// ------------------------------------------------------------------------------------ reporter

void SyntaxReporter::error(llvm::SMRange r, const std::string &msg) {
  // Continuation re-parses at several levels can reach the same error: report it once.
  if (!reported_.insert({r.Start.getPointer(), msg}).second) return;
  if (++count_ > kMaxErrors) {
    diags_.error(r, "too many syntax errors; stopping here");
    throw ParseAborted();
  }
  diags_.error(r, msg);
}

void SyntaxReporter::unexpected(antlr4::Parser *p, antlr4::Token *tok, const antlr4::misc::IntervalSet &expected) {
  if (!tok) return;
  bool atEof = tok->getType() == antlr4::Token::EOF;
  if (atEof && suppressEof_) return;
  if (!reparsing_ && continuesExpression(tok->getType()) && inStatement(p->getContext()) && reparseContinuation(p, tok))
    return;
  // Recovery often trips again a few tokens after an error; the first message is the useful one.
  size_t index = tok->getTokenIndex();
  bool cascade = lastErrorToken_ != static_cast<size_t>(-1) && index >= lastErrorToken_ &&
                 index - lastErrorToken_ <= 3 && tok->getLine() == lastErrorLine_;
  if (index == lastErrorToken_ || (cascade && !atEof)) return;
  lastErrorToken_ = index;
  lastErrorLine_ = static_cast<unsigned>(tok->getLine());
  errorTokens_.push_back(index);
  llvm::SMRange at = src_.rangeOf(tok);

  // Bracket structure first: stray and mismatched closers, brackets left open at end of file.
  auto bad = brackets_.badClosers.find(tok->getTokenIndex());
  if (bad != brackets_.badClosers.end()) {
    badCloser(tok, bad->second);
    return;
  }
  if (atEof) {
    eofError_ = true;
    if (!brackets_.unclosed.empty()) {
      antlr4::Token *open = brackets_.unclosed.back();
      error(src_.rangeOf(open), std::string("unbalanced '") + bracketOf(open->getType()) +
                                    "': the file ends before its closing '" + closerFor(open->getType()) + "'");
      return;
    }
  }

  // `foo(1, 2;` or `m![A, B;`: a statement ends while a bracket is still open.
  size_t ti = tok->getTokenIndex();
  antlr4::Token *open = ti < brackets_.innermost.size() ? brackets_.innermost[ti] : nullptr;
  size_t ft = tok->getType();
  if (open && !blamed_.count(open->getTokenIndex()) && (ft == P::SEMI || ft == P::LET || ft == P::FN || ft == P::TYPE) &&
      expected.contains(static_cast<size_t>(open->getType() == P::LPAREN   ? P::RPAREN
                                            : open->getType() == P::LBRACE ? P::RBRACE
                                                                           : P::RBRACK))) {
    std::string opener = src_.textOf(open).str();
    blamed_.insert(open->getTokenIndex());
    error(at, std::string("unbalanced '") + bracketOf(open->getType()) + "': expected '" + closerFor(open->getType()) +
                  "' but found " + found(tok, src_));
    diags_.note(src_.rangeOf(open), "'" + opener + "' opened here");
    return;
  }

  const antlr4::dfa::Vocabulary &vocab = p->getVocabulary();
  antlr4::RuleContext *ctx = p->getContext();
  antlr4::Token *prev = p->getTokenStream()->index() > 0 ? p->getTokenStream()->LT(-1) : nullptr;
  auto has = [&](size_t t) { return expected.contains(t); };
  auto names = [&](std::initializer_list<size_t> types) {
    std::vector<std::string> out;
    for (size_t t : types)
      if (has(t)) out.push_back(tokenName(t, vocab));
    return out;
  };
  std::string msg;
  const char *phrase = phraseFor(ctx);
  std::string phraseStr = phrase ? phrase : "";
  bool operand = phraseStr == "an expression" || phraseStr == "a type" || phraseStr == "a mapping expression" ||
                 phraseStr == "a size" || phraseStr == "a pattern";
  if (dynamic_cast<P::FnItemContext *>(ctx) && has(P::LBRACE)) {
    msg = "expected '{' to begin the function body";
  } else if (has(P::SEMI) && nounFor(ctx)) {
    msg = std::string("expected ';' after ") + nounFor(ctx);
  } else if (structLiteralInCondition(p, tok)) {
    error(at, "a struct literal is not allowed in the condition of if/while/for/match; wrap it in parentheses");
    return;
  } else if (expected.size() <= 3) {
    std::vector<std::string> all;
    for (ssize_t t : expected.toList())
      if (t != static_cast<ssize_t>(antlr4::Token::EPSILON)) all.push_back(tokenName(static_cast<size_t>(t), vocab));
    msg = "expected " + joinOr(all);
  } else if ((has(P::PLUS) || has(P::DOT)) && !names({P::COMMA, P::RPAREN, P::RBRACK, P::RBRACE, P::SEMI,
                                                       P::FATARROW, P::LBRACE}).empty()) {
    // A complete operand was followed by something that continues nothing: name the separators.
    msg = "expected " + joinOr(names({P::COMMA, P::SEMI, P::FATARROW, P::LBRACE, P::RPAREN, P::RBRACK, P::RBRACE}));
  } else {
    msg = "expected " + (phrase ? phraseStr : std::string("something else"));
    std::vector<std::string> closers = names({P::RPAREN, P::RBRACK, P::RBRACE});
    if (!closers.empty() && phraseStr.rfind("an item", 0) != 0) msg += " or " + joinOr(closers);
    if (prev && isOperator(prev->getType()) && operand) msg += " after " + found(prev, src_);
  }
  error(at, msg + " but found " + found(tok, src_));
}

void SyntaxReporter::reportSkippedClosers() {
  for (antlr4::Token *closer : brackets_.badCloserList) {
    size_t index = closer->getTokenIndex();
    if (std::binary_search(errorTokens_.begin(), errorTokens_.end(), index)) continue;
    auto it = brackets_.badClosers.find(index);
    badCloser(closer, it == brackets_.badClosers.end() ? nullptr : it->second);
  }
}

void SyntaxReporter::badCloser(antlr4::Token *tok, antlr4::Token *opener) {
  llvm::SMRange at = src_.rangeOf(tok);
  if (!opener) {
    error(at, "unexpected " + found(tok, src_));
    return;
  }
  if (!blamed_.insert(opener->getTokenIndex()).second) return;  // this opener was reported already
  error(at, std::string("unbalanced '") + bracketOf(opener->getType()) + "': expected '" +
                closerFor(opener->getType()) + "' but found " + found(tok, src_));
  diags_.note(src_.rangeOf(opener), "'" + src_.textOf(opener).str() + "' opened here");
}

// A statement's expression stopped before `(`, `[` or an operator because what follows does not
// parse (prediction then ends the expression early): parse the continuation on its own, with the
// reporting strategy, so the message names what is wrong inside it (`foo(a b)`: "expected ',' or ')'").
bool SyntaxReporter::reparseContinuation(antlr4::Parser *p, antlr4::Token *tok) {
  size_t t = tok->getType();
  if (t == P::DOT || t == P::QUESTION || t == P::AS) return false;
  antlr4::TokenStream *in = p->getTokenStream();
  size_t saved = in->index();
  size_t before = count_;
  if (fullContextSteps_ > fullContextBudget()) return false;  // the parse's prediction budget is spent
  // The error parse's prediction mode (SLL on unbalanced or very large input, Parser.cpp).
  bool fullLL = p->getInterpreter<antlr4::atn::ParserATNSimulator>()->getPredictionMode() == antlr4::atn::PredictionMode::LL;
  reparsing_ = true;
  {
    P again(in);
    again.setInterpreter(
        new ModePrediction(&again, *again.getInterpreter<antlr4::atn::ParserATNSimulator>(), fullLL, &fullContextSteps_));
    again.removeErrorListeners();
    again.setErrorHandler(std::make_shared<TcpErrorStrategy>(*this));
    if (t == P::LPAREN || t == P::LBRACK) {
      in->seek(tok->getTokenIndex());
      again.primary();
    } else {
      in->seek(tok->getTokenIndex() + 1);
      again.expr(0);
    }
  }
  reparsing_ = false;
  in->seek(saved);
  return count_ > before;
}

void SyntaxReporter::notAdjacent(antlr4::Token *second, const char *op) {
  error(src_.rangeOf(second), std::string("write '") + op + "' without spaces between its characters");
}

void SyntaxReporter::badCharacter(size_t start, size_t stop) {
  if (++lexerErrors_ > 10) return;  // one unknown character usually comes with many
  llvm::SMRange r{src_.locOf(start), src_.locOf(stop)};
  llvm::StringRef text(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer());
  std::string shown;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      shown += static_cast<char>(c);
    } else if (c < 0x80) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      shown += buf;
    } else {
      shown += static_cast<char>(c);
    }
  }
  if (text.size() == 1 && static_cast<unsigned char>(text[0]) >= 0x80) return;  // invalid UTF-8: reported already
  if (text == "'")
    error(r, "stray quote: write a char literal as 'a', a lifetime as 'l or a primed axis as B'");
  else
    error(r, "unexpected character '" + shown + "'");
}

// ------------------------------------------------------------------------------------ strategy

void TcpErrorStrategy::reportNoViableAlternative(antlr4::Parser *p, const antlr4::NoViableAltException &e) {
  rep_.unexpected(p, e.getOffendingToken(), e.getExpectedTokens());
}

// ------------------------------------------------------------------------------------ prediction

void ModePrediction::closure_(Ref<antlr4::atn::ATNConfig> const &config, antlr4::atn::ATNConfigSet *configs,
                              antlr4::atn::ATNConfig::Set &closureBusy, bool collectPredicates, bool fullCtx,
                              int depth, bool treatEofAsEpsilon) {
  // Past the budget a full-context closure stops growing too: ANTLR computes the full-context start
  // state before execATNWithFullContext (below) can decline, so without this the budget would not
  // bound that closure. A set cut short serves only the prediction that crossed the budget, which may
  // then end in a syntax error ANTLR reports as usual.
  if (fullCtx && ++*steps_ > fullContextBudget()) return;
  ParserATNSimulator::closure_(config, configs, closureBusy, collectPredicates, fullCtx, depth, treatEofAsEpsilon);
}

size_t ModePrediction::adaptivePredict(antlr4::TokenStream *input, size_t decision, antlr4::ParserRuleContext *outer) {
  size_t at = input->index();
  stalled_ = at == stallIndex_ ? stalled_ + 1 : 0;
  stallIndex_ = at;
  if (stalled_ > kMaxStalledPredictions)
    throw std::logic_error("the parse stopped advancing at token " + std::to_string(at) + " (decision " +
                           std::to_string(decision) + ")");
  return ParserATNSimulator::adaptivePredict(input, decision, outer);
}

size_t ModePrediction::execATNWithFullContext(antlr4::dfa::DFA &dfa, antlr4::dfa::DFAState *D,
                                              antlr4::atn::ATNConfigSet *s0, antlr4::TokenStream *input,
                                              size_t startIndex, antlr4::ParserRuleContext *outerContext) {
  if (*steps_ <= fullContextBudget())
    return ParserATNSimulator::execATNWithFullContext(dfa, D, s0, input, startIndex, outerContext);
  // The parse's budget is spent: SLL's answer. A state with predicates (the precedence predicates of
  // a left-recursive rule) has no prediction of its own: the least alternative whose predicate holds
  // at the decision's start; when none holds, the least alternative the state holds (its rule's own
  // predicate check then reports the error and recovers, as with any failed predicate).
  if (!D->predicates.empty()) {
    size_t at = input->index();
    input->seek(startIndex);
    antlrcpp::BitSet alts = evalSemanticContext(D->predicates, outerContext, true);
    input->seek(at);
    if (alts.count() > 0) return alts.nextSetBit(0);
  }
  if (D->prediction != antlr4::atn::ATN::INVALID_ALT_NUMBER) return D->prediction;
  antlrcpp::BitSet alts = D->configs->conflictingAlts.count() > 0 ? D->configs->conflictingAlts : D->configs->getAlts();
  assert(alts.count() > 0 && "a DFA state that needs full context holds alternatives");
  return alts.nextSetBit(0);
}

size_t RecoveringPrediction::adaptivePredict(antlr4::TokenStream *input, size_t decision,
                                             antlr4::ParserRuleContext *outer) {
  try {
    return ModePrediction::adaptivePredict(input, decision, outer);
  } catch (const antlr4::NoViableAltException &) {
    antlr4::atn::ATNState *s = atn.decisionToState[decision];
    bool stmtLoop = s->getStateType() == antlr4::atn::ATNState::STAR_LOOP_ENTRY &&
                    (s->ruleIndex == P::RuleBlock || s->ruleIndex == P::RuleReplInput);
    if (!stmtLoop) throw;
    return 1;  // enter the loop: the statement's own rule reports what is wrong in it
  }
}

void TcpErrorStrategy::reportInputMismatch(antlr4::Parser *p, const antlr4::InputMismatchException &e) {
  rep_.unexpected(p, e.getOffendingToken(), e.getExpectedTokens());
}

void TcpErrorStrategy::reportFailedPredicate(antlr4::Parser *p, const antlr4::FailedPredicateException &e) {
  antlr4::FailedPredicateException &fe = const_cast<antlr4::FailedPredicateException &>(e);
  std::string pred = fe.getPredicate();
  antlr4::Token *tok = e.getOffendingToken();
  if (pred.find("adjacent") != std::string::npos) {
    size_t rule = fe.getRuleIndex();
    rep_.notAdjacent(tok, rule == P::RuleShiftOp ? ">>" : rule == P::RuleCompareOp ? ">=" : ">>=");
    return;
  }
  rep_.unexpected(p, tok, p->getExpectedTokens());
}

void TcpErrorStrategy::reportUnwantedToken(antlr4::Parser *p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  rep_.unexpected(p, p->getCurrentToken(), getExpectedTokens(p));
}

void TcpErrorStrategy::reportMissingToken(antlr4::Parser *p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  rep_.unexpected(p, p->getCurrentToken(), getExpectedTokens(p));
}

// ------------------------------------------------------------------------------------ lexer

void LexerErrorListener::syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *, size_t, size_t,
                                     const std::string &, std::exception_ptr) {
  auto *lexer = dynamic_cast<antlr4::Lexer *>(recognizer);
  if (!rep_ || !lexer) return;
  size_t start = lexer->tokenStartCharIndex;
  size_t stop = lexer->getInputStream()->index() + 1;
  rep_->badCharacter(start, stop);
}

}  // namespace tcp
