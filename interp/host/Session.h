// Session.h — a tcpi session: a checked program plus REPL input, evaluated by one Evaluator.
#pragma once

#include "Driver.h"
#include "Evaluator.h"
#include "HostCheck.h"
#include "HostRuntime.h"
#include "ModuleLoader.h"

#include <memory>
#include <string>
#include <vector>

namespace tcp::interp {

class Session {
 public:
  Session(llvm::raw_ostream &out, llvm::raw_ostream &err);

  // Loads, parses and resolves a file; its items become the session's definitions.
  bool loadFile(const std::string &path);
  // --target=rngd-s: check (and run) the RNGD-S fetch casts.
  void setRngdS(bool rngdS) { comp_.setRngdS(rngdS); }
  // Where a file's `use` finds library modules (-I DIRs, then the stdlib).
  void setSearchPath(std::vector<std::string> dirs) { comp_.setSearchPath(std::move(dirs)); }
  // Runs `fn main` of the loaded file. Returns false after a runtime error.
  bool runMain();
  // Runs every #[test] function; prints one line per test and a summary. Returns false on failure.
  bool runTests();

  // Evaluates one complete REPL input (items, statements and an optional trailing expression,
  // whose value is printed). `firstLine` numbers the input's first line in diagnostics. Kernels
  // and stage functions it defines go through the typed phase, the lowering and the cycle model
  // before anything runs. The error limit applies to each input.
  bool evalInput(const std::string &text, unsigned firstLine);
  // Handles a `:command` line (SessionCommands.cpp). Sets *quit for `:quit`.
  bool command(const std::string &line, bool *quit);
  static std::string helpText();
  // The `:` commands, for completion.
  static const std::vector<std::string> &commandNames();
  // Tab completion (ReplComplete.cpp): the words that may replace the word ending at `pos` in
  // `line` (`:` commands at the start, kernel names after `:config`/`:cycles`, else axes and
  // aliases); *wordStart is where that word begins.
  std::vector<std::string> completions(const std::string &line, size_t pos, size_t *wordStart) const;
  // Bytes of source the session holds (every input once: what its memory grows with).
  size_t sourceBytes();

 private:
  bool reportRuntime(const RuntimeError &err);
  void declare(const ast::Item &item);
  // The `use` items of a REPL input: loads the library modules they name (the session is the root
  // module, so a library's `use crate::X` names the session's X), checks the imports, and declares
  // and checks the libraries' items; their functions go to `defined`. False after an error (the
  // libraries of this input are then not loaded).
  bool useLibraries(std::vector<ast::StmtP> &stmts, unsigned buffer, std::vector<std::string> &defined);
  // SessionCommands.cpp: a mapping named by an alias or axis, or written `m![...]`; nullptr after
  // reporting why not. `what` names the command in messages.
  MappingRef mappingArg(const std::string &text, const std::string &what);
  bool configCommand(const std::string &name);
  bool cyclesCommand(const std::string &name);
  bool seqCommand(const std::string &arg);
  bool typeCommand(const std::string &arg);

  llvm::raw_ostream &out_;
  Compilation comp_;
  Evaluator eval_;
  std::unique_ptr<HostRuntime> host_;
  std::vector<std::vector<ast::StmtP>> inputs_;  // keeps REPL ASTs alive (symbols point into them)
  std::unique_ptr<HostSessionChecker> hostCheck_;  // checks each REPL input before it runs
  std::unique_ptr<ModuleTree> modules_;  // the session (root) and the library modules it loaded
};

// The static type of a runtime value (the REPL checks an input against its bindings' values).
HostType hostTypeOfValue(const Value &v);

// Whether REPL input is complete: brackets balanced outside strings and comments. Fed line by line,
// it scans each line once (a long input costs its length, not its length squared).
class InputScanner {
 public:
  void feed(const std::string &line);
  // Unbalanced closers are complete (the parser reports them); open strings/comments are not.
  bool complete() const { return depth_ <= 0 && !inStr_ && !blockComment_; }
  void reset() { *this = InputScanner(); }

 private:
  long depth_ = 0;
  bool inStr_ = false;
  int blockComment_ = 0;
};

// True when `text` has balanced brackets outside strings and comments (the REPL reads more lines
// until it does).
bool inputComplete(const std::string &text);

// The interactive/piped read-eval-print loop over `in`. Returns the process exit status.
// Interactive (a terminal): line editing, history in `historyPath` ("" : none) and tab completion
// through LLVM's LineEditor (libedit); piped: lines read as they come.
int runRepl(std::istream &in, bool interactive, Session &session, const std::string &historyPath = "");

}  // namespace tcp::interp
