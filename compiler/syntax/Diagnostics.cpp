// Diagnostics.cpp — formats diagnostics with llvm::SourceMgr (or hands them on as records) and enforces the error limit.
#include "Diagnostics.h"

namespace tcp {

namespace {
// Source lines longer than this are shown as a window around the column at fault: 30 messages
// about a 550 KB line would otherwise print the whole line 30 times.
constexpr size_t kMaxShownLine = 200;
constexpr size_t kShownBefore = 80;

// The part of `line` shown for a diagnostic at byte column `col`; `from` is its first byte.
std::string windowOf(llvm::StringRef line, size_t col, size_t &from, size_t *visible = nullptr) {
  from = col > kShownBefore ? col - kShownBefore : 0;
  while (from > 0 && (static_cast<unsigned char>(line[from]) & 0xC0) == 0x80) --from;  // whole UTF-8 characters
  size_t to = std::min(line.size(), from + kMaxShownLine);
  while (to < line.size() && (static_cast<unsigned char>(line[to]) & 0xC0) == 0x80) ++to;
  std::string shown = (from ? "..." : "") + line.slice(from, to).str();
  if (visible) *visible = shown.size();  // columns of the window before the trailing "..."
  if (to < line.size()) shown += "...";
  for (char &c : shown)
    if (c == '\t') c = ' ';
  return shown;
}
}  // namespace

// Prints a diagnostic on a long line: LLVM's layout, with the line cut to a window around the caret.
static void printWindowed(const llvm::SMDiagnostic &d, llvm::raw_ostream &os, bool kindLabel) {
  size_t col = static_cast<size_t>(d.getColumnNo()), from = 0, visible = 0;
  std::string shown = windowOf(d.getLineContents(), col, from, &visible);
  size_t shift = from ? from - 3 : 0;  // columns of the line before the window, less the "..."
  os << d.getFilename() << ":" << d.getLineNo() << ":" << col + 1 << ": ";
  if (kindLabel)
    os << (d.getKind() == llvm::SourceMgr::DK_Error ? "error: " : d.getKind() == llvm::SourceMgr::DK_Warning ? "warning: " : "note: ");
  os << d.getMessage() << "\n" << shown << "\n";
  std::string caret(shown.size() + 1, ' ');
  for (const auto &[b, e] : d.getRanges())
    for (size_t k = std::max<size_t>(b, shift); k < static_cast<size_t>(e) && k - shift < visible; ++k) caret[k - shift] = '~';
  if (col - shift <= shown.size()) caret[col - shift] = '^';
  os << llvm::StringRef(caret).rtrim() << "\n";
}

std::pair<unsigned, unsigned> Diagnostics::lineAndColumn(llvm::SMLoc loc) const {
  if (!loc.isValid()) return {0, 0};
  unsigned id = sm_.FindBufferContainingLoc(loc);
  if (!id) return {0, 0};
  auto [line, col] = sm_.getLineAndColumn(loc, id);
  auto it = lineOffsets_.find(id);
  return {line + (it == lineOffsets_.end() ? 0 : it->second), col};
}

void Diagnostics::emitNoLoc(const char *severity, const llvm::Twine &msg) {
  if (sink_) {
    DiagnosticRecord r;
    r.severity = severity;
    r.message = msg.str();
    sink_(r);
    return;
  }
  os_ << severity << ": " << msg << "\n";
}

void Diagnostics::emit(llvm::SourceMgr::DiagKind kind, const char *severity, llvm::SMRange range,
                       const llvm::Twine &msg, bool kindLabel) {
  llvm::ArrayRef<llvm::SMRange> ranges;
  if (range.Start != range.End) ranges = llvm::ArrayRef<llvm::SMRange>(range);
  llvm::SMDiagnostic d = sm_.GetMessage(range.Start, kind, kindLabel ? msg : severity + llvm::Twine(": ") + msg, ranges);
  unsigned id = sm_.FindBufferContainingLoc(range.Start);
  auto offset = lineOffsets_.find(id);
  if (offset != lineOffsets_.end() && offset->second)
    d = llvm::SMDiagnostic(sm_, d.getLoc(), d.getFilename(), d.getLineNo() + int(offset->second), d.getColumnNo(),
                           d.getKind(), d.getMessage(), d.getLineContents(), d.getRanges(), d.getFixIts());
  if (sink_) {
    DiagnosticRecord r;
    r.severity = severity;
    r.file = d.getFilename().str();
    r.line = unsigned(d.getLineNo());
    r.column = unsigned(d.getColumnNo()) + 1;
    auto end = lineAndColumn(range.End.isValid() && range.End != range.Start ? range.End : range.Start);
    r.endLine = end.first;
    r.endColumn = end.second;
    r.message = msg.str();
    size_t from = 0;
    r.sourceLine = d.getLineContents().size() > kMaxShownLine ? windowOf(d.getLineContents(), r.column - 1, from)
                                                               : d.getLineContents().str();
    sink_(r);
    return;
  }
  if (d.getLineContents().size() > kMaxShownLine) printWindowed(d, os_, kindLabel);
  else d.print(nullptr, os_, /*ShowColors=*/false, /*ShowKindLabel=*/kindLabel);
}

void Diagnostics::errorNoLoc(const llvm::Twine &msg) {
  ++errors_;
  emitNoLoc("error", msg);
}

void Diagnostics::runtimeError(llvm::SMRange range, const llvm::Twine &msg) {
  ++errors_;
  if (!range.Start.isValid() || !sm_.FindBufferContainingLoc(range.Start)) {
    emitNoLoc("runtime error", msg);
    return;
  }
  emit(llvm::SourceMgr::DK_Error, "runtime error", range, msg, /*kindLabel=*/false);
  importChain(range.Start);
}

void Diagnostics::report(llvm::SourceMgr::DiagKind kind, llvm::SMRange range, const llvm::Twine &msg) {
  if (kind == llvm::SourceMgr::DK_Error) ++errors_;
  if (limit_ && errors_ - limitBase_ > limit_) {
    if (!limitNoted_) {
      limitNoted_ = true;
      emitNoLoc("error", "too many errors emitted, stopping now");
    }
    return;
  }
  const char *severity = kind == llvm::SourceMgr::DK_Error     ? "error"
                         : kind == llvm::SourceMgr::DK_Warning ? "warning"
                                                               : "note";
  if (!range.Start.isValid() || !sm_.FindBufferContainingLoc(range.Start)) {
    emitNoLoc(severity, msg);
    return;
  }
  emit(kind, severity, range, msg, /*kindLabel=*/true);
  if (kind != llvm::SourceMgr::DK_Note) importChain(range.Start);
}

void Diagnostics::importChain(llvm::SMLoc loc) {
  // A module's buffer has the `mod`/`use` that loaded it as its include location (ModuleLoader.h).
  for (unsigned id = sm_.FindBufferContainingLoc(loc); id;) {
    llvm::SMLoc site = sm_.getParentIncludeLoc(id);
    if (!site.isValid()) return;
    std::string file = sm_.getMemoryBuffer(id)->getBufferIdentifier().str();
    emit(llvm::SourceMgr::DK_Note, "note", llvm::SMRange(site, site), "'" + file + "' is imported from here",
         /*kindLabel=*/true);
    id = sm_.FindBufferContainingLoc(site);
  }
}

}  // namespace tcp
