// PredictionCache.cpp — the full-LL prediction tables and the size bound on both table sets.
#include "PredictionCache.h"

#include "Parser.h"

#include <atomic>
#include <mutex>
#include <shared_mutex>

namespace tcp {

namespace {
std::shared_mutex inUse;  // shared: a parse predicts; exclusive: the tables are emptied
std::atomic<size_t> stateLimit{kMaxPredictionStates};

size_t statesOf(const std::vector<antlr4::dfa::DFA> &dfas) {
  size_t n = 0;
  for (const antlr4::dfa::DFA &d : dfas) n += d.states.size();
  return n;
}

void resetDfas(std::vector<antlr4::dfa::DFA> &dfas, const antlr4::atn::ATN &atn) {
  dfas.clear();
  dfas.reserve(atn.getNumberOfDecisions());
  for (size_t i = 0; i < atn.getNumberOfDecisions(); ++i) dfas.emplace_back(atn.getDecisionState(i), i);
}
}  // namespace

PredictionTables::PredictionTables(const antlr4::atn::ATN &a) : atn(a) { resetDfas(dfa, atn); }

void PredictionTables::reset() {
  resetDfas(dfa, atn);
  contexts.clear();
}

PredictionTables &fullLLTables(const antlr4::atn::ATN &atn) {
  static PredictionTables tables(atn);  // one grammar per process
  return tables;
}

size_t predictionStates(antlr4::atn::ParserATNSimulator &generated) {
  return statesOf(generated.decisionToDFA) + statesOf(fullLLTables(generated.atn).dfa);
}

void setPredictionStateLimit(size_t states) { stateLimit.store(states, std::memory_order_relaxed); }

PredictionUse::PredictionUse(antlr4::atn::ParserATNSimulator &generated) {
  {
    std::unique_lock<std::shared_mutex> alone(inUse, std::try_to_lock);
    if (alone.owns_lock() && predictionStates(generated) > stateLimit.load(std::memory_order_relaxed)) {
      resetDfas(generated.decisionToDFA, generated.atn);
      generated.getSharedContextCache().clear();
      fullLLTables(generated.atn).reset();
    }
  }
  inUse.lock_shared();
}

PredictionUse::~PredictionUse() { inUse.unlock_shared(); }

}  // namespace tcp
