// Repl.cpp — the read-eval-print loop: reads lines (LineEditor on a terminal) until brackets balance, then evaluates them.
#include "Session.h"

#include <llvm/LineEditor/LineEditor.h>

#include <iostream>
#include <optional>

namespace tcp::interp {

void InputScanner::feed(const std::string &text) {
  bool lineComment = false;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k], n = k + 1 < text.size() ? text[k + 1] : '\0';
    if (c == '\n') {
      lineComment = false;
      continue;
    }
    if (lineComment) continue;
    if (blockComment_) {
      if (c == '*' && n == '/') { --blockComment_; ++k; }
      else if (c == '/' && n == '*') { ++blockComment_; ++k; }
      continue;
    }
    if (inStr_) {
      if (c == '\\') ++k;
      else if (c == '"') inStr_ = false;
      continue;
    }
    if (c == '/' && n == '/') { lineComment = true; continue; }
    if (c == '/' && n == '*') { ++blockComment_; ++k; continue; }
    if (c == '"') { inStr_ = true; continue; }
    if (c == '\'') {  // a char literal ('(', '\'', '\u{7b}', one UTF-8 character); else a lifetime ('l)
      size_t end = std::string::npos;
      if (n == '\\') {
        end = text.find('\'', k + 3);
      } else if (k + 1 < text.size()) {
        unsigned char lead = static_cast<unsigned char>(n);
        size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (k + 1 + len < text.size() && text[k + 1 + len] == '\'') end = k + 1 + len;
      }
      if (end != std::string::npos && text.find('\n', k) > end) k = end;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth_;
    if (c == ')' || c == ']' || c == '}') --depth_;
  }
}

bool inputComplete(const std::string &text) {
  InputScanner scan;
  scan.feed(text);
  return scan.complete();
}

namespace {
// Where lines come from: LLVM's LineEditor (libedit: editing, history, completion) on a terminal,
// the stream otherwise.
class LineSource {
 public:
  LineSource(std::istream &in, bool interactive, Session &session, const std::string &historyPath) : in_(in) {
    if (!interactive) return;
    editor_.emplace("tcpi", historyPath);
    if (!historyPath.empty()) editor_->loadHistory();
    editor_->setListCompleter([&session](llvm::StringRef buffer, size_t pos) {
      std::vector<llvm::LineEditor::Completion> out;
      size_t start = 0;
      std::string line = buffer.str();
      for (const std::string &w : session.completions(line, pos, &start))  // a command is followed by its argument
        out.emplace_back(w.substr(pos - start) + (w[0] == ':' ? " " : ""), w);
      return out;
    });
  }
  std::optional<std::string> read(const char *prompt) {
    if (editor_) {
      editor_->setPrompt(prompt);
      return editor_->readLine();  // the editor adds the line to its history
    }
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    return line;
  }

 private:
  std::istream &in_;
  std::optional<llvm::LineEditor> editor_;  // saves the history when destroyed
};
}  // namespace

int runRepl(std::istream &in, bool interactive, Session &session, const std::string &historyPath) {
  if (interactive) std::cout << "tcpi " << TCP_VERSION << " — :help for commands, :quit to leave\n";
  LineSource source(in, interactive, session, historyPath);
  std::string pending;
  InputScanner scan;
  unsigned lineNo = 0, firstLine = 1;
  bool failed = false;
  for (;;) {
    std::optional<std::string> line = source.read(pending.empty() ? "tcp> " : "...> ");
    if (!line) break;
    ++lineNo;
    if (pending.empty()) {
      size_t first = line->find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      if ((*line)[first] == ':') {
        bool quit = false;
        if (!session.command(line->substr(first), &quit)) failed = true;
        llvm::outs().flush();
        if (quit) break;
        continue;
      }
      firstLine = lineNo;
    }
    pending += *line;
    pending += '\n';
    scan.feed(*line);
    if (!scan.complete()) continue;
    // An outer attribute on its own line (`#[device(chip = 1)]`, `#[test]`) belongs to the item below it.
    llvm::StringRef trimmed = llvm::StringRef(*line).trim();
    if (trimmed.startswith("#[") && trimmed.endswith("]")) continue;
    if (!session.evalInput(pending, firstLine)) failed = true;
    llvm::outs().flush();
    pending.clear();
    scan.reset();
  }
  if (!pending.empty() && !session.evalInput(pending, firstLine)) failed = true;
  llvm::outs().flush();
  if (interactive) std::cout << "\n";
  // A scripted session reports failure if any input failed; an interactive one does not.
  return (!interactive && failed) ? 1 : 0;
}

}  // namespace tcp::interp
