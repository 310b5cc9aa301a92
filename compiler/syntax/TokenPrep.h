// TokenPrep.h — token-stream preparation between lexer and parser (excerpt signatures, lexer leftovers).
#pragma once

#include <antlr4-runtime.h>

#include <memory>
#include <vector>

namespace tcp {

using TokenList = std::vector<std::unique_ptr<antlr4::Token>>;

// Runs the lexer to EOF and returns every token, EOF last; stops early (without EOF) once the list
// holds more than `limit` tokens.
TokenList lexAll(antlr4::Lexer &lexer, size_t limit = static_cast<size_t>(-1));

// Library excerpts in the manual show `pub fn` signatures whose bodies the renderer hid:
//   #[primitive(CollectTensor::vector_init)]
//   pub fn vector_init(self) -> VectorInitTensor<...> where D: VeScalar,
//   #[primitive(...)] ...
// After such a signature (a `pub fn` followed, outside all brackets, by `#`, `pub`, `fn`, `impl`,
// `}` or the end of the file instead of `{` or `;`) a zero-width `;` is inserted, so the grammar
// stays LL-friendly and the builder can recognise the excerpt (isSyntheticSemi).
void insertExcerptSemicolons(TokenList &tokens);
bool isSyntheticSemi(const antlr4::Token *tok);

}  // namespace tcp
