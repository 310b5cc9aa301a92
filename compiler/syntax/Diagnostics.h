// Diagnostics.h — error/warning/note reporting through llvm::SourceMgr (file:line:col, source line, caret).
#pragma once

#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace tcp {

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
  llvm::SourceMgr &sourceMgr() { return sm_; }
  llvm::raw_ostream &stream() { return os_; }

 private:
  void report(llvm::SourceMgr::DiagKind kind, llvm::SMRange range, const llvm::Twine &msg);
  llvm::SourceMgr &sm_;
  llvm::raw_ostream &os_;
  unsigned errors_ = 0;
  unsigned limit_ = 50;
  bool limitNoted_ = false;
};

}  // namespace tcp
