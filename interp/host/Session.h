// Session.h — a tcpi session: a checked program plus REPL input, evaluated by one Evaluator.
#pragma once

#include "Driver.h"
#include "Evaluator.h"
#include "HostCheck.h"
#include "HostRuntime.h"

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
  // Runs `fn main` of the loaded file. Returns false after a runtime error.
  bool runMain();
  // Runs every #[test] function; prints one line per test and a summary. Returns false on failure.
  bool runTests();

  // Evaluates one complete REPL input (items, statements and an optional trailing expression,
  // whose value is printed). `firstLine` numbers the input's first line in diagnostics.
  bool evalInput(const std::string &text, unsigned firstLine);
  // Handles a `:command` line. Sets *quit for `:quit`.
  bool command(const std::string &line, bool *quit);
  static std::string helpText();

 private:
  bool reportRuntime(const RuntimeError &err);
  void declare(const ast::Item &item);

  llvm::raw_ostream &out_;
  Compilation comp_;
  Evaluator eval_;
  std::unique_ptr<HostRuntime> host_;
  std::vector<std::vector<ast::StmtP>> inputs_;  // keeps REPL ASTs alive (symbols point into them)
  std::unique_ptr<HostSessionChecker> hostCheck_;  // checks each REPL input before it runs
};

// The static type of a runtime value (the REPL checks an input against its bindings' values).
HostType hostTypeOfValue(const Value &v);

// True when `text` has balanced brackets outside strings and comments (the REPL reads more lines
// until it does).
bool inputComplete(const std::string &text);

// The interactive/piped read-eval-print loop over `in`. Returns the process exit status.
int runRepl(std::istream &in, bool interactive, Session &session);

}  // namespace tcp::interp
