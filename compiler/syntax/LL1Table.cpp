// LL1Table.cpp — first sets of ATN states the way SLL prediction sees them, and the LL(1) table of every decision.
#include "LL1Table.h"

#include <llvm/ADT/BitVector.h>

#include <cassert>
#include <optional>

namespace tcp {

namespace {

using antlr4::atn::ATN;
using antlr4::atn::ATNState;
using antlr4::atn::RuleTransition;
using antlr4::atn::Transition;

// The tokens that can come first from an ATN state, the way SLL prediction's closure reaches them.
class FirstSets {
 public:
  explicit FirstSets(const ATN &atn) : atn_(atn), rules_(atn.ruleToStartState.size()) {}

  // Tokens from `s` on; `global`: at the end of its rule, whatever may follow any invocation of the
  // rule (else nothing more).
  llvm::BitVector fromState(ATNState *s, bool global) {
    llvm::BitVector out(atn_.maxTokenType + 1), seen(atn_.states.size());
    bool reachesEnd = false;
    walk(s, global, seen, out, reachesEnd);
    return out;
  }

 private:
  struct RuleFirst {
    llvm::BitVector tokens;
    bool nullable = false;
  };

  // Tokens a rule can start with, and whether it can match nothing.
  const RuleFirst &rule(size_t index) {
    std::optional<RuleFirst> &r = rules_[index];
    if (!r) {
      RuleFirst f{llvm::BitVector(atn_.maxTokenType + 1)};
      llvm::BitVector seen(atn_.states.size());
      walk(atn_.ruleToStartState[index], /*global=*/false, seen, f.tokens, f.nullable);
      r = std::move(f);
    }
    return *r;
  }

  // `global`: at a rule's end follow the links to every place it returns to (ANTLR adds them to
  // rule stop states), as SLL prediction does with no outer context; else stop and note the end.
  void walk(ATNState *s, bool global, llvm::BitVector &seen, llvm::BitVector &out, bool &reachesEnd) {
    if (seen.test(s->stateNumber)) return;
    seen.set(s->stateNumber);
    if (s->getStateType() == ATNState::RULE_STOP && !global) {
      reachesEnd = true;
      return;
    }
    for (Transition *t : s->transitions) {
      if (t->getSerializationType() == Transition::RULE) {
        // Rules are not left-recursive (ANTLR rewrites direct left recursion and rejects the rest).
        const RuleFirst &callee = rule(t->target->ruleIndex);
        out |= callee.tokens;
        if (callee.nullable) walk(static_cast<RuleTransition *>(t)->followState, global, seen, out, reachesEnd);
      } else if (t->isEpsilon()) {  // epsilon, action, predicate, precedence predicate
        walk(t->target, global, seen, out, reachesEnd);
      } else {
        for (size_t tok = antlr4::Token::MIN_USER_TOKEN_TYPE; tok <= atn_.maxTokenType; ++tok)
          if (t->matches(tok, antlr4::Token::MIN_USER_TOKEN_TYPE, atn_.maxTokenType)) out.set(tok);
      }
    }
  }

  const ATN &atn_;
  std::vector<std::optional<RuleFirst>> rules_;
};

}  // namespace

LL1Table::LL1Table(const ATN &atn) : width_(atn.maxTokenType + 1), alts_(atn.decisionToState.size() * width_, 0) {
  FirstSets first(atn);
  for (size_t d = 0; d < atn.decisionToState.size(); ++d) {
    ATNState *s = atn.decisionToState[d];
    std::vector<uint16_t> owner(width_, 0);  // 0: no alternative, 0xFFFF: several
    for (size_t i = 0; i < s->transitions.size(); ++i) {
      llvm::BitVector tokens = first.fromState(s->transitions[i]->target, /*global=*/true);
      for (size_t tok : tokens.set_bits()) owner[tok] = owner[tok] ? 0xFFFF : static_cast<uint16_t>(i + 1);
    }
    for (size_t tok = 0; tok < width_; ++tok)
      if (owner[tok] != 0xFFFF) alts_[d * width_ + tok] = owner[tok];
  }
}

std::vector<std::vector<bool>> LL1Table::localFirst(const ATN &atn, size_t decision) {
  FirstSets first(atn);
  std::vector<std::vector<bool>> alts;
  for (Transition *t : atn.decisionToState[decision]->transitions) {
    llvm::BitVector tokens = first.fromState(t->target, /*global=*/false);
    std::vector<bool> v(atn.maxTokenType + 1);
    for (size_t tok : tokens.set_bits()) v[tok] = true;
    alts.push_back(std::move(v));
  }
  return alts;
}

const LL1Table &LL1Table::of(const ATN &atn) {
  static const LL1Table table(atn);  // one grammar per process
  assert(table.width_ == atn.maxTokenType + 1 && "LL1Table built for another grammar");
  return table;
}

}  // namespace tcp
