// DiagnosticJson.h — diagnostics as JSON (tcpc --format=json): one object per diagnostic, written with llvm::json.
#pragma once

#include "Diagnostics.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <vector>

namespace tcp {

// {"severity", "file", "line", "column", "end_line", "end_column", "message", "source_line"};
// positions count from 1, and a diagnostic without a position has only severity and message.
void writeDiagnosticJson(llvm::json::OStream &j, const DiagnosticRecord &r);
// {"diagnostics": [...]} and a newline.
void printDiagnosticsJson(const std::vector<DiagnosticRecord> &records, llvm::raw_ostream &os);

}  // namespace tcp
