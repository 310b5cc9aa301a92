// LspQueries.h — what the language server answers: hover, go-to-definition, completion.
#pragma once

#include "LspAnalysis.h"

#include <optional>
#include <string>
#include <vector>

namespace tcp::lsp {

// Markdown describing what is at `offset`: the type of a tensor expression (a variable, or the
// chain up to a method), an axis, an alias (a mapping's size and normal form), an `m![...]`, or a
// kernel's or stage function's signature. nullopt when there is nothing to say.
struct Hover {
  std::string markdown;
  size_t begin = 0, end = 0;  // the range it describes
};
std::optional<Hover> hover(Analysis &a, size_t offset);

// Where the name at `offset` is declared: an axis, an alias, a function, or a variable's binding.
struct Definition {
  size_t begin = 0, end = 0;
  // A declaration in another file of the program (a module it imports): that file, and the name's
  // line and columns there (from 1; byte columns). Empty: in the document, at [begin, end).
  std::string file;
  unsigned line = 0, column = 0, endColumn = 0;
};
std::optional<Definition> definition(Analysis &a, size_t offset);

// Completions at `offset`: after `receiver.`, the engine methods the op catalog lists for the
// receiver's type (with their support status); elsewhere, the axes, aliases and functions.
struct Completion {
  std::string label;
  int kind = 0;            // LSP CompletionItemKind: 2 method, 3 function, 21 constant, 7 class
  std::string detail;
  std::string documentation;
};
// `receiverAt`: the analysis and offset to type the receiver in (see LspServer.cpp: the text may
// not parse while the method is being typed); nullptr when the completion is not after a `.`.
std::vector<Completion> complete(Analysis &current, size_t offset, Analysis *receiverIn, size_t receiverEnd);
// The offset of the `.` before the word being completed at `offset`, if the word follows one.
std::optional<size_t> memberDot(const std::string &text, size_t offset);

}  // namespace tcp::lsp
