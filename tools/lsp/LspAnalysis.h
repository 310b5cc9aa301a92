// LspAnalysis.h — one document text compiled through every phase, and the lookups the language server answers from it.
#pragma once

#include "Diagnostics.h"
#include "Driver.h"
#include "TensorType.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp::lsp {

// A text run through the pipeline as `tcpc --check` runs it. The phases stop at the first that
// fails, so an analysis may hold an AST and symbols but no typed program (or a partial one).
struct Analysis {
  std::string text;
  std::unique_ptr<Compilation> comp;
  std::vector<DiagnosticRecord> diagnostics;
  bool parsed = false;  // the AST exists (the text parses)

  size_t offsetOf(llvm::SMLoc loc) const;  // byte offset of a location of the main buffer
  llvm::SMLoc locAt(size_t offset) const;
};
// Where documents' `use` finds library modules (tcp-lsp -I DIR ..., then the stdlib); until set,
// the stdlib alone.
void setLibrarySearchPath(std::vector<std::string> dirs);
std::unique_ptr<Analysis> analyze(const std::string &text, const std::string &path);

// What a receiver of `.method` is: a tensor or stream type, or a Tensor Unit context.
struct ReceiverType {
  std::string manualName;         // the manual's type name the op catalog uses ("FetchTensor", "TuContext")
  std::optional<TensorType> type;  // absent for contexts
};
std::string manualTypeName(const TensorType &t);  // "DmTensorView", "CollectTensor", ...

// The identifier around a byte offset (`[A-Za-z0-9_']`): [begin, end), empty when there is none.
std::pair<size_t, size_t> wordAt(const std::string &text, size_t offset);
// The kernel, stage function or host function whose item contains the offset.
const ast::Item *enclosingFunction(const Analysis &a, size_t offset);
const TypedFunction *typedFunction(const Analysis &a, const std::string &name);
// The type of the expression that ends at `end` (a method chain, a variable, `ctx.main`).
std::optional<ReceiverType> expressionType(Analysis &a, size_t end, unsigned depth = 0);
// The type of variable `name` as bound where `offset` is (a `let` before it, or a parameter).
std::optional<ReceiverType> variableType(Analysis &a, const std::string &name, size_t offset, unsigned depth = 0);
// The `let` or parameter pattern that binds `name` where `offset` is; nullptr when none does.
const ast::Pattern *binding(const Analysis &a, const std::string &name, size_t offset);
// The typed op whose method name starts at `offset`.
const TypedOp *opAt(const Analysis &a, size_t offset);

}  // namespace tcp::lsp
