// Diagnostics.h — error/warning/note reporting through llvm::SourceMgr (file:line:col, source line, caret).
#pragma once

#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <map>
#include <string>

namespace tcp {

// One diagnostic as data: what --format=json prints and tcp-lsp publishes. Lines and columns
// count from 1 (0: no position); `end*` is the end of the reported range (the start when the
// diagnostic points at one character).
struct DiagnosticRecord {
  std::string severity;  // "error", "warning", "note", "runtime error"
  std::string file;      // the buffer's name ("" without a position)
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  std::string message;   // the text after `severity: `, as the text form prints it
  std::string sourceLine;
};

// Collects every diagnostic of a phase; callers check hasErrors() after the phase ends.
class Diagnostics {
 public:
  Diagnostics(llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm_(sm), os_(os) {}

  void error(llvm::SMRange range, const llvm::Twine &msg) { report(llvm::SourceMgr::DK_Error, range, msg); }
  void warning(llvm::SMRange range, const llvm::Twine &msg) { report(llvm::SourceMgr::DK_Warning, range, msg); }
  void note(llvm::SMRange range, const llvm::Twine &msg) { report(llvm::SourceMgr::DK_Note, range, msg); }
  // A diagnostic with no source position ("error: ...").
  void errorNoLoc(const llvm::Twine &msg);
  // An error found while running a program: "file:line:col: runtime error: msg" + line + caret.
  void runtimeError(llvm::SMRange range, const llvm::Twine &msg);

  unsigned errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }
  // Stops reporting (but keeps counting) after this many errors; 0 = unlimited.
  void setErrorLimit(unsigned n) { limit_ = n; }
  // Starts counting toward the limit afresh (the REPL: the limit applies to each input).
  void restartErrorLimit() {
    limitBase_ = errors_;
    limitNoted_ = false;
  }
  // Every diagnostic goes to `sink` as a record instead of being printed (nullptr: print).
  void setSink(std::function<void(const DiagnosticRecord &)> sink) { sink_ = std::move(sink); }
  // Lines of buffer `bufferId` are numbered from `offset + 1` (REPL input: the line it was typed on).
  void setLineOffset(unsigned bufferId, unsigned offset) { lineOffsets_[bufferId] = offset; }
  // The line and column of a location, with its buffer's line offset ({0, 0} when invalid).
  std::pair<unsigned, unsigned> lineAndColumn(llvm::SMLoc loc) const;
  llvm::SourceMgr &sourceMgr() { return sm_; }
  llvm::raw_ostream &stream() { return os_; }

 private:
  void report(llvm::SourceMgr::DiagKind kind, llvm::SMRange range, const llvm::Twine &msg);
  // Prints (or hands to the sink) one diagnostic at a valid location.
  void emit(llvm::SourceMgr::DiagKind kind, const char *severity, llvm::SMRange range, const llvm::Twine &msg,
            bool kindLabel);
  void emitNoLoc(const char *severity, const llvm::Twine &msg);
  // After a diagnostic in a module other than the root: a note at each `mod`/`use` that imported
  // its file, up to the root ("'b.tcp' is imported from here").
  void importChain(llvm::SMLoc loc);
  llvm::SourceMgr &sm_;
  llvm::raw_ostream &os_;
  unsigned errors_ = 0;
  unsigned limit_ = 50;
  unsigned limitBase_ = 0;
  bool limitNoted_ = false;
  std::function<void(const DiagnosticRecord &)> sink_;
  std::map<unsigned, unsigned> lineOffsets_;
};

}  // namespace tcp
