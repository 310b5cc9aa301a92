// Diagnostics.cpp — formats diagnostics with llvm::SourceMgr and enforces the error limit.
#include "Diagnostics.h"

namespace tcp {

void Diagnostics::errorNoLoc(const llvm::Twine &msg) {
  ++errors_;
  os_ << "error: " << msg << "\n";
}

void Diagnostics::runtimeError(llvm::SMRange range, const llvm::Twine &msg) {
  ++errors_;
  if (!range.Start.isValid()) {
    os_ << "runtime error: " << msg << "\n";
    return;
  }
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.Start != range.End) ranges = llvm::ArrayRef<llvm::SMRange>(range);
  llvm::SMDiagnostic d = sm_.GetMessage(range.Start, llvm::SourceMgr::DK_Error, "runtime error: " + msg, ranges);
  d.print(nullptr, os_, /*ShowColors=*/false, /*ShowKindLabel=*/false);
}

void Diagnostics::report(llvm::SourceMgr::DiagKind kind, llvm::SMRange range, const llvm::Twine &msg) {
  if (kind == llvm::SourceMgr::DK_Error) ++errors_;
  if (limit_ && errors_ > limit_) {
    if (!limitNoted_) {
      limitNoted_ = true;
      os_ << "error: too many errors emitted, stopping now\n";
    }
    return;
  }
  llvm::SMLoc loc = range.Start;
  llvm::ArrayRef<llvm::SMRange> ranges;
  llvm::SMRange r = range;
  if (r.isValid() && r.Start != r.End) ranges = llvm::ArrayRef<llvm::SMRange>(r);
  if (!loc.isValid()) {
    os_ << (kind == llvm::SourceMgr::DK_Error ? "error: " : kind == llvm::SourceMgr::DK_Warning ? "warning: " : "note: ")
        << msg << "\n";
    return;
  }
  sm_.PrintMessage(os_, loc, kind, msg, ranges, {}, /*ShowColors=*/false);
}

}  // namespace tcp
