// Repl.cpp — the read-eval-print loop: reads lines until brackets balance, then evaluates them.
#include "Session.h"

#include <iostream>

namespace tcp::interp {

bool inputComplete(const std::string &text) {
  int depth = 0;
  bool inStr = false, lineComment = false;
  int blockComment = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k], n = k + 1 < text.size() ? text[k + 1] : '\0';
    if (lineComment) {
      if (c == '\n') lineComment = false;
      continue;
    }
    if (blockComment) {
      if (c == '*' && n == '/') { --blockComment; ++k; }
      else if (c == '/' && n == '*') { ++blockComment; ++k; }
      continue;
    }
    if (inStr) {
      if (c == '\\') ++k;
      else if (c == '"') inStr = false;
      continue;
    }
    if (c == '/' && n == '/') { lineComment = true; continue; }
    if (c == '/' && n == '*') { ++blockComment; ++k; continue; }
    if (c == '"') { inStr = true; continue; }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
  }
  // Unbalanced closers are complete (the parser reports them); open strings/comments are not.
  return depth <= 0 && !inStr && !blockComment;
}

int runRepl(std::istream &in, bool interactive, Session &session) {
  if (interactive) std::cout << "tcpi " << TCP_VERSION << " — :help for commands, :quit to leave\n";
  std::string pending, line;
  unsigned lineNo = 0, firstLine = 1;
  bool failed = false;
  for (;;) {
    if (interactive) {
      std::cout << (pending.empty() ? "tcp> " : "...> ");
      std::cout.flush();
    }
    if (!std::getline(in, line)) break;
    ++lineNo;
    if (pending.empty()) {
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      if (line[first] == ':') {
        bool quit = false;
        if (!session.command(line.substr(first), &quit)) failed = true;
        llvm::outs().flush();
        if (quit) break;
        continue;
      }
      firstLine = lineNo;
    }
    pending += line;
    pending += '\n';
    if (!inputComplete(pending)) continue;
    if (!session.evalInput(pending, firstLine)) failed = true;
    llvm::outs().flush();
    pending.clear();
  }
  if (!pending.empty() && !session.evalInput(pending, firstLine)) failed = true;
  llvm::outs().flush();
  if (interactive) std::cout << "\n";
  // A scripted session reports failure if any input failed; an interactive one does not.
  return (!interactive && failed) ? 1 : 0;
}

}  // namespace tcp::interp
