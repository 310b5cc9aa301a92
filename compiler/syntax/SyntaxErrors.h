// SyntaxErrors.h — turns lexer and parser failures into diagnostics in a kernel writer's words.
#pragma once

#include "BracketScan.h"
#include "PredictionCache.h"
#include "Diagnostics.h"
#include "SourceStream.h"

#include <antlr4-runtime.h>

#include <exception>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tcp {

// Thrown to abandon a parse (too many errors, nesting too deep); never escapes parseProgram.
struct ParseAborted : std::exception {
  const char *what() const noexcept override { return "parse aborted"; }
};

// Shared state of one parse: where messages go and how many were reported.
class SyntaxReporter {
 public:
  SyntaxReporter(const SourceStream &src, Diagnostics &diags, const BracketScan &brackets)
      : src_(src), diags_(diags), brackets_(brackets) {}

  // Parser errors. `expected` is the set of token types that would have been accepted.
  void unexpected(antlr4::Parser *p, antlr4::Token *found, const antlr4::misc::IntervalSet &expected);
  void notAdjacent(antlr4::Token *second, const char *op);
  // Stray or mismatched closing brackets that error recovery skipped without a message.
  void reportSkippedClosers();
  // Lexer errors: an unrecognised character between code points [start, stop).
  void badCharacter(size_t start, size_t stop);
  void error(llvm::SMRange r, const std::string &msg);

  bool eofErrorReported() const { return eofError_ || suppressEof_; }
  // Token indices of the parser errors reported so far (ascending).
  const std::vector<size_t> &errorTokens() const { return errorTokens_; }
  // Lexer problems that make end-of-file parser errors noise (an unterminated string swallowed the rest).
  void suppressEofErrors() { suppressEof_ = true; }
  unsigned count() const { return count_; }
  // Full-context prediction steps of this parse so far (ModePrediction).
  size_t &fullContextSteps() { return fullContextSteps_; }

  static constexpr unsigned kMaxErrors = 30;

 private:
  void badCloser(antlr4::Token *closer, antlr4::Token *opener);
  bool reparseContinuation(antlr4::Parser *p, antlr4::Token *tok);
  bool reparsing_ = false;
  const SourceStream &src_;
  Diagnostics &diags_;
  const BracketScan &brackets_;
  unsigned count_ = 0;
  size_t fullContextSteps_ = 0;
  unsigned lexerErrors_ = 0;
  bool eofError_ = false;
  bool suppressEof_ = false;
  size_t lastErrorToken_ = static_cast<size_t>(-1);
  unsigned lastErrorLine_ = 0;
  std::vector<size_t> errorTokens_;
  std::set<size_t> blamed_;  // openers already reported as unbalanced
  std::set<std::pair<const char *, std::string>> reported_;  // (location, message) of every error so far
};

// Replaces ANTLR's message texts; recovery itself stays ANTLR's default.
class TcpErrorStrategy : public antlr4::DefaultErrorStrategy {
 public:
  explicit TcpErrorStrategy(SyntaxReporter &rep) : rep_(rep) {}

 protected:
  void reportNoViableAlternative(antlr4::Parser *p, const antlr4::NoViableAltException &e) override;
  void reportInputMismatch(antlr4::Parser *p, const antlr4::InputMismatchException &e) override;
  void reportFailedPredicate(antlr4::Parser *p, const antlr4::FailedPredicateException &e) override;
  void reportUnwantedToken(antlr4::Parser *p) override;
  void reportMissingToken(antlr4::Parser *p) override;

 private:
  SyntaxReporter &rep_;
};

// kMaxFullContextSteps (Parser.h) unless a test set it (setFullContextBudget).
size_t fullContextBudget();

// Full-LL prediction on fullLLTables, or SLL prediction on the generated parser's own DFA. (A
// context cache only shares equal contexts; one serves both.) Full-context epsilon edges are
// counted in `*fullContextSteps` (one parse's, shared by its re-parses); past fullContextBudget()
// full-context closures stop growing and a decision that needs full context takes SLL's answer
// instead (never "no alternative": a `(...)*` loop told to go on would spin). Nothing is thrown
// through ANTLR's simulator, whose full-context loop owns config sets by raw pointer.
class ModePrediction : public antlr4::atn::ParserATNSimulator {
 public:
  ModePrediction(antlr4::Parser *p, antlr4::atn::ParserATNSimulator &sll, bool fullLL, size_t *fullContextSteps)
      : ParserATNSimulator(p, sll.atn, fullLL ? fullLLTables(sll.atn).dfa : sll.decisionToDFA,
                           fullLLTables(sll.atn).contexts),  // `sll`'s own cache may die before this
        steps_(fullContextSteps) {
    setPredictionMode(fullLL ? antlr4::atn::PredictionMode::LL : antlr4::atn::PredictionMode::SLL);
  }
  // ANTLR's prediction, and a guard: kMaxStalledPredictions predictions in a row at one token mean
  // the parse stopped advancing (an internal error, thrown from the generated rule's call).
  size_t adaptivePredict(antlr4::TokenStream *input, size_t decision, antlr4::ParserRuleContext *outer) override;

 protected:
  void closure_(Ref<antlr4::atn::ATNConfig> const &config, antlr4::atn::ATNConfigSet *configs,
                antlr4::atn::ATNConfig::Set &closureBusy, bool collectPredicates, bool fullCtx, int depth,
                bool treatEofAsEpsilon) override;
  size_t execATNWithFullContext(antlr4::dfa::DFA &dfa, antlr4::dfa::DFAState *D, antlr4::atn::ATNConfigSet *s0,
                                antlr4::TokenStream *input, size_t startIndex,
                                antlr4::ParserRuleContext *outerContext) override;

 private:
  size_t *steps_;
  size_t stallIndex_ = static_cast<size_t>(-1);
  size_t stalled_ = 0;
};

// Far more predictions than a parse makes at one token (rules entered without consuming one form a
// chain of the grammar, a few dozen decisions).
constexpr size_t kMaxStalledPredictions = 100000;

// Prediction for the error-reporting parse. A block's statement loop must choose between an
// expression statement (`expr ;`) and the final expression (`expr }`) before parsing the
// expression, so an error inside it (or a missing ';') makes that choice fail; the statement is
// then entered, and its rules report the error where it is and recover as usual. Full LL, or SLL
// (on the first parse's tables) where full LL would be too slow: on large or unbalanced input.
class RecoveringPrediction : public ModePrediction {
 public:
  using ModePrediction::ModePrediction;
  size_t adaptivePredict(antlr4::TokenStream *input, size_t decision, antlr4::ParserRuleContext *outer) override;
};

// Routes lexer errors to the reporter (installed in place of ANTLR's console listener).
class LexerErrorListener : public antlr4::BaseErrorListener {
 public:
  explicit LexerErrorListener(SyntaxReporter *rep) : rep_(rep) {}
  void syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *offendingSymbol, size_t line,
                   size_t charPositionInLine, const std::string &msg, std::exception_ptr e) override;

 private:
  SyntaxReporter *rep_;  // null: errors are dropped (token dumps)
};

}  // namespace tcp
