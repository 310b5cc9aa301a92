// BracketScan.h — the bracket structure of a token stream: stray, mismatched and unclosed brackets, depth.
#pragma once

#include <antlr4-runtime.h>

#include <unordered_map>
#include <vector>

namespace tcp {

// Bracket structure of a token stream, computed before parsing.
struct BracketScan {
  // Closers that do not close the innermost open bracket → that opener (nullptr: nothing was open).
  std::unordered_map<size_t, antlr4::Token *> badClosers;  // key: token index
  std::vector<antlr4::Token *> badCloserList;               // the same closers, in source order
  std::vector<antlr4::Token *> unclosed;                    // openers still open at end of file
  antlr4::Token *tooDeep = nullptr;                         // first opener beyond the depth limit
  // First token of a run of more than the prefix-run limit of prefix operators (`- - - …`, `& & …`,
  // `return return …`): each nests an expression without a bracket, and ANTLR's prediction over such
  // a run costs time quadratic in its length.
  antlr4::Token *prefixRun = nullptr;
  bool balanced() const { return badCloserList.empty() && unclosed.empty(); }
  std::vector<antlr4::Token *> innermost;                   // by token index: innermost open bracket
};
BracketScan scanBrackets(const std::vector<antlr4::Token *> &tokens, size_t maxDepth, size_t maxPrefixRun);

// Bracket kinds: `m![`, `i![` and `axes![` open a '['.
bool isOpeningBracket(size_t tokenType);
bool isClosingBracket(size_t tokenType);
char bracketOf(size_t opener);   // '(', '[' or '{'
char closerFor(size_t opener);   // ')', ']' or '}'

}  // namespace tcp
