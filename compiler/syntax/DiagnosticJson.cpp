// DiagnosticJson.cpp — diagnostics as JSON (tcpc --format=json), written with llvm::json.
#include "DiagnosticJson.h"

namespace tcp {

void writeDiagnosticJson(llvm::json::OStream &j, const DiagnosticRecord &r) {
  j.object([&] {
    j.attribute("severity", r.severity);
    if (r.line) {
      j.attribute("file", r.file);
      j.attribute("line", r.line);
      j.attribute("column", r.column);
      j.attribute("end_line", r.endLine);
      j.attribute("end_column", r.endColumn);
    }
    j.attribute("message", r.message);
    if (r.line) j.attribute("source_line", r.sourceLine);
  });
}

void printDiagnosticsJson(const std::vector<DiagnosticRecord> &records, llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attributeArray("diagnostics", [&] {
      for (const DiagnosticRecord &r : records) writeDiagnosticJson(j, r);
    });
  });
  os << "\n";
}

}  // namespace tcp
