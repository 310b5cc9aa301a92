// Parser.cpp — drives lexing, the bracket pre-scan, ANTLR parsing on a large stack and AST building.
#include "Parser.h"

#include "AstBuilder.h"
#include "BigStack.h"
#include "FastPrediction.h"
#include "LineIndex.h"
#include "SourceStream.h"
#include "SyntaxErrors.h"
#include "TcpLexer.h"
#include "TokenPrep.h"
#include "TcpParser.h"

#include <atomic>
#include <functional>

namespace tcp {

namespace {

std::atomic<bool> fastPrediction{true};  // setFastPrediction

using parser::TcpLexer;
using parser::TcpParser;

// The parse runs on its own thread with this much stack: recursion is bounded by kMaxParseDepth
// and kMaxBracketDepth, and this leaves a wide margin for ANTLR's prediction.
constexpr size_t kParseStackBytes = 64u << 20;
// Erroneous inputs with more tokens than this are re-parsed with SLL instead of LL prediction.
constexpr size_t kMaxLLTokens = 50000;

// Tracks the parse-tree depth while ANTLR builds it and abandons the parse beyond kMaxParseDepth.
class DepthGuard : public antlr4::tree::ParseTreeListener {
 public:
  DepthGuard(SyntaxReporter &rep, const SourceStream &src) : rep_(rep), src_(src) {}
  void enterEveryRule(antlr4::ParserRuleContext *ctx) override {
    if (++depth_ <= kMaxParseDepth) return;
    tooDeep_ = true;
    rep_.error(src_.rangeOf(ctx->getStart()),
               "nesting deeper than " + std::to_string(kMaxParseDepth) +
                   " levels (deeply nested or very long expression); split it up");
    throw ParseAborted();
  }
  void exitEveryRule(antlr4::ParserRuleContext *) override { --depth_; }
  void visitTerminal(antlr4::tree::TerminalNode *) override {}
  void visitErrorNode(antlr4::tree::ErrorNode *) override {}
  bool tooDeep() const { return tooDeep_; }
  void reset() { depth_ = 0; }

 private:
  SyntaxReporter &rep_;
  const SourceStream &src_;
  size_t depth_ = 0;
  bool tooDeep_ = false;
};

// The first node found deeper than `limit` levels below `root`, or null (iterative: no recursion).
antlr4::ParserRuleContext *deepestBeyond(antlr4::tree::ParseTree *root, size_t limit) {
  std::vector<std::pair<antlr4::tree::ParseTree *, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node) continue;
    if (depth > limit)
      if (auto *ctx = dynamic_cast<antlr4::ParserRuleContext *>(node)) return ctx;
    // Only rule contexts have children: a leaf needs the (costly) type test only beyond the limit.
    for (antlr4::tree::ParseTree *child : node->children)
      if (!child->children.empty() || (depth + 1 > limit && dynamic_cast<antlr4::ParserRuleContext *>(child)))
        stack.emplace_back(child, depth + 1);
  }
  return nullptr;
}

// Everything one parse owns; run() parses from a start rule and hands the tree to a builder.
struct ParseSession {
  ParseSession(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags)
      : diags(diags), src(sm, bufferId), lexer(&src), reporter(src, diags, brackets), lexerListener(&reporter) {}

  // Lexes everything, reports lexical problems, prepares the token stream and scans brackets.
  // False: do not parse.
  bool prepare() {
    reportInvalidUtf8();
    lexer.removeErrorListeners();
    lexer.addErrorListener(&lexerListener);
    TokenList list;
    try {
      list = lexAll(lexer, kMaxTokens);
    } catch (const ParseAborted &) {
      return false;
    }
    if (list.size() > kMaxTokens) {
      diags.error({}, "'" + src.getSourceName() + "' has more than " + std::to_string(kMaxTokens) +
                          " tokens, the most the parser accepts in one file: split it into several files");
      return false;
    }
    for (auto &tok : list) {
      size_t type = tok->getType();
      if (type != TcpLexer::UNTERMINATED_STRING && type != TcpLexer::UNTERMINATED_COMMENT) continue;
      bool str = type == TcpLexer::UNTERMINATED_STRING;
      llvm::SMRange r = src.rangeOf(tok.get());
      diags.error({r.Start, r.Start}, str ? "unterminated string literal" : "unterminated block comment");
      reporter.suppressEofErrors();
      auto *w = dynamic_cast<antlr4::WritableToken *>(tok.get());
      if (!w) continue;
      if (str) w->setType(TcpLexer::STRING_LIT);
      else w->setChannel(antlr4::Token::HIDDEN_CHANNEL);
    }
    insertExcerptSemicolons(list);
    source = std::make_unique<antlr4::ListTokenSource>(std::move(list));
    tokens = std::make_unique<antlr4::CommonTokenStream>(source.get());
    tokens->fill();
    brackets = scanBrackets(tokens->getTokens(), kMaxBracketDepth, kMaxPrefixRun);
    if (brackets.tooDeep) {
      diags.error(src.rangeOf(brackets.tooDeep),
                  "nesting deeper than " + std::to_string(kMaxBracketDepth) + " levels of brackets");
      return false;
    }
    // Prediction at the end of a file with brackets still open costs time polynomial in how many
    // are open (every open rule is a context to merge); beyond a few the parse cannot tell more
    // than the bracket scan: report the innermost and stop.
    if (brackets.unclosed.size() > kMaxUnclosedBrackets) {
      antlr4::Token *open = brackets.unclosed.back();
      diags.error(src.rangeOf(open), std::string("unbalanced '") + bracketOf(open->getType()) +
                                         "': the file ends before its closing '" + closerFor(open->getType()) +
                                         "' (" + std::to_string(brackets.unclosed.size()) +
                                         " brackets are still open at the end of the file)");
      return false;
    }
    if (brackets.prefixRun) {
      diags.error(src.rangeOf(brackets.prefixRun), "nesting deeper than " + std::to_string(kMaxPrefixRun) +
                                                       " levels of prefix operators in a row; split the expression up");
      return false;
    }
    return true;
  }

  void reportInvalidUtf8() {
    if (!src.invalidByteCount()) return;
    size_t first = src.invalidBytes()[0];
    unsigned char byte = static_cast<unsigned char>(src.bufferStart()[first]);
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", byte);
    std::string more = src.invalidByteCount() > 1
                           ? " (and " + std::to_string(src.invalidByteCount() - 1) + " more invalid bytes)"
                           : std::string();
    diags.error({src.locOfByte(first), src.locOfByte(first + 1)},
                std::string("invalid UTF-8 byte ") + hex + " in the source" + more);
  }

  // Runs `parse(parser)` then `build(tree)` on a thread with a large stack; exceptions stay inside.
  template <typename Ctx, typename Build>
  void run(Ctx *(TcpParser::*startRule)(), Build build) {
    runWithStack(kParseStackBytes, [&] {
      TcpParser parser(tokens.get());
      PredictionUse prediction(*parser.getInterpreter<antlr4::atn::ParserATNSimulator>());
      parser.removeErrorListeners();
      DepthGuard guard(reporter, src);
      parser.addParseListener(&guard);
      // The first parse answers what a token or a token scan settles without ANTLR (FastPrediction.h).
      if (fastPrediction.load(std::memory_order_relaxed))
        parser.setInterpreter(new FastPrediction(&parser, *parser.getInterpreter<antlr4::atn::ParserATNSimulator>()));
      auto *sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
      Ctx *tree = nullptr;
      try {
        // Two-stage parsing: fast SLL prediction first; only input with a syntax error is parsed
        // again with full LL prediction and the reporting strategy.
        sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
        parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
        try {
          tree = (parser.*startRule)();
        } catch (const antlr4::ParseCancellationException &) {
          tokens->seek(0);
          parser.reset();
          guard.reset();
          // Full LL costs up to a millisecond per statement; on very large inputs SLL prediction
          // gives the same messages in a fraction of the time.
          // On unbalanced brackets full-context prediction merges ever longer context stacks (time
          // exponential in the unclosed brackets: `axes![M{{{{...`); the bracket scan already names
          // what is wrong there, so SLL prediction (linear on such input) is used.
          bool large = tokens->size() > kMaxLLTokens || !brackets.balanced();
          auto *recovering = new RecoveringPrediction(&parser, *sim, /*fullLL=*/!large, &reporter.fullContextSteps());
          parser.setInterpreter(recovering);  // deletes the SLL simulator; the parser deletes this one
          sim = recovering;
          parser.setErrorHandler(std::make_shared<TcpErrorStrategy>(reporter));
          tree = (parser.*startRule)();
        }
        reporter.reportSkippedClosers();
      } catch (const ParseAborted &) {
        return;
      } catch (const std::exception &e) {  // an ANTLR invariant broke: still end in a diagnostic
        diags.error({}, std::string("internal parser error: ") + e.what());
        return;
      }
      parser.removeParseListeners();
      // Left-recursive chains (`a.f().f()...`, `a + b + ...`) nest without recursing in the parser;
      // measure the tree before the builder recurses into it.
      if (antlr4::ParserRuleContext *deep = deepestBeyond(tree, kMaxParseDepth)) {
        // Point at the start of the statement-level construct that grew too deep.
        while (auto *up = dynamic_cast<antlr4::ParserRuleContext *>(deep->parent)) {
          size_t r = up->getRuleIndex();
          if (r == TcpParser::RuleStmt || r == TcpParser::RuleTailExpr || r == TcpParser::RuleBlock || r == TcpParser::RuleItemKind ||
              r == TcpParser::RuleItem || r == TcpParser::RuleProgram || r == TcpParser::RuleReplInput)
            break;
          deep = up;
        }
        reporter.error(src.rangeOf(deep->getStart()),
                       "nesting deeper than " + std::to_string(kMaxParseDepth) +
                           " levels (deeply nested or very long expression); split it up");
        return;
      }
      AstBuilder builder(src, diags, reporter.eofErrorReported(), reporter.errorTokens());
      build(builder, tree);
    });
  }

  Diagnostics &diags;
  SourceStream src;
  TcpLexer lexer;
  std::unique_ptr<antlr4::ListTokenSource> source;
  std::unique_ptr<antlr4::CommonTokenStream> tokens;
  BracketScan brackets;
  SyntaxReporter reporter;
  LexerErrorListener lexerListener;
};

}  // namespace

void setFastPrediction(bool on) { fastPrediction.store(on, std::memory_order_relaxed); }

size_t predictionCacheStates() {
  antlr4::ANTLRInputStream empty("");
  TcpLexer lexer(&empty);
  antlr4::CommonTokenStream tokens(&lexer);
  TcpParser parser(&tokens);
  return predictionStates(*parser.getInterpreter<antlr4::atn::ParserATNSimulator>());
}

void setPredictionCacheLimit(size_t states) { setPredictionStateLimit(states); }

// Files this large are rejected before they are decoded (the UTF-32 copy alone is 4 bytes a byte).
bool tooLarge(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags) {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(bufferId);
  if (buf->getBufferSize() <= kMaxParseBytes) return false;
  diags.error({}, "'" + buf->getBufferIdentifier().str() + "' is " + std::to_string(buf->getBufferSize() >> 20) +
                      " MiB; the parser accepts files up to " + std::to_string(kMaxParseBytes >> 20) + " MiB");
  return true;
}

std::unique_ptr<ast::Program> parseProgram(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags) {
  std::unique_ptr<ast::Program> program;
  if (!tooLarge(sm, bufferId, diags)) {
    ParseSession s(sm, bufferId, diags);
    if (s.prepare())
      s.run(&TcpParser::program, [&](AstBuilder &b, TcpParser::ProgramContext *tree) { program = b.program(tree); });
  }
  if (!program) program = std::make_unique<ast::Program>();
  program->bufferId = bufferId;
  return program;
}

std::vector<ast::StmtP> parseReplInput(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags) {
  std::vector<ast::StmtP> stmts;
  if (tooLarge(sm, bufferId, diags)) return stmts;
  ParseSession s(sm, bufferId, diags);
  if (s.prepare())
    s.run(&TcpParser::replInput, [&](AstBuilder &b, TcpParser::ReplInputContext *tree) { stmts = b.repl(tree); });
  return stmts;
}

void dumpTokens(llvm::SourceMgr &sm, unsigned bufferId, llvm::raw_ostream &os) {
  SourceStream src(sm, bufferId);
  TcpLexer lexer(&src);
  LexerErrorListener silent(nullptr);
  lexer.removeErrorListeners();
  lexer.addErrorListener(&silent);
  const antlr4::dfa::Vocabulary &vocab = lexer.getVocabulary();
  LineIndex lines(sm, bufferId);
  for (;;) {  // streamed: tokens are printed and dropped one by one
    std::unique_ptr<antlr4::Token> tok = lexer.nextToken();
    llvm::SMRange r = src.rangeOf(tok.get());
    auto lc = lines.lineAndColumn(r.Start);
    bool eof = tok->getType() == antlr4::Token::EOF;
    std::string kind = eof ? "EOF" : vocab.getSymbolicName(tok->getType());
    os << lc.first << ":" << lc.second << " " << kind << " '";
    for (char c : src.textOf(tok.get())) {
      switch (c) {
        case '\n': os << "\\n"; break;
        case '\r': os << "\\r"; break;
        case '\t': os << "\\t"; break;
        case '\\': os << "\\\\"; break;
        case '\'': os << "\\'"; break;
        default: os << c;
      }
    }
    os << "'\n";
    if (eof) return;
  }
}

}  // namespace tcp
