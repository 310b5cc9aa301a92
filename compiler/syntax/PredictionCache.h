// PredictionCache.h — ANTLR's process-wide prediction caches: full-LL parses' own tables, and a bound on their size.
#pragma once

#include <antlr4-runtime.h>

#include <cstddef>
#include <vector>

namespace tcp {

// ANTLR caches prediction in one DFA per decision, which the generated parser shares process-wide.
// A DFA is a cache for one prediction mode only: SLL mode ends its lookahead at a conflict that
// LL mode resolves with the grammar's predicates, and marks the state "needs full context". A
// full-LL parse reading such a state starts full-context prediction at once, so after the SLL
// first parses of other inputs an error report could take minutes (a 6 KB fuzzer input: 0.2 s
// in a fresh process, over 100 s after 3,000 other parses; tests/unit/prediction_history_test.cpp).
// The full-LL parses that report errors therefore cache in tables of their own.
struct PredictionTables {
  explicit PredictionTables(const antlr4::atn::ATN &atn);
  void reset();  // empty DFAs and cache
  const antlr4::atn::ATN &atn;
  std::vector<antlr4::dfa::DFA> dfa;
  antlr4::atn::PredictionContextCache contexts;
};
// The process-wide tables of full-LL prediction (built on first use; ANTLR locks DFA updates).
PredictionTables &fullLLTables(const antlr4::atn::ATN &atn);

// Both caches grow with every new shape of input and ANTLR never empties them: in one process (the
// REPL, the language server, a fuzzer) 4,000 mutated programs grew them to 24,000 DFA states and
// 170 MB, while every tracked source parsed in one process needs 900 states. A parse holds a
// PredictionUse while it predicts; one that starts when no other parse runs and finds more than the
// limit's states empties both table sets first (they refill from the grammar's ATN as parses go).
class PredictionUse {
 public:
  explicit PredictionUse(antlr4::atn::ParserATNSimulator &generated);  // the generated parser's own
  ~PredictionUse();
  PredictionUse(const PredictionUse &) = delete;
  PredictionUse &operator=(const PredictionUse &) = delete;
};

// DFA states of both table sets; for tests and measurements (no parse may run meanwhile).
size_t predictionStates(antlr4::atn::ParserATNSimulator &generated);
// Process-wide; the default is kMaxPredictionStates (Parser.h).
void setPredictionStateLimit(size_t states);

}  // namespace tcp
