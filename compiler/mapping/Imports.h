// Imports.h — module scopes of a multi-file program: `use` resolution, privacy, name collisions and names used without an import.
#pragma once

#include "Diagnostics.h"
#include "ModuleLoader.h"

namespace tcp {

// Checks the module tree before its items are merged into the program's one namespace
// (docs/language.md, "Modules"):
// - every `use` path names a module and an item (or `*`) of it, and a private item only from a
//   module inside its own (the root file's items are visible everywhere through `crate::`);
// - no two modules define the same name (the checker, the lowering and the binary name axes,
//   aliases and kernels program-wide): the error names both definitions;
// - `use m::item as other;` makes `other` name `item` in the importing module: its uses are
//   rewritten to `item` in the AST;
// - a module uses another module's item only after importing it (`use gemm::gemm;`) or through a
//   path (`gemm::gemm`, `crate::shapes::Slice`, `super::A`): such a path is checked like an import
//   and shortened to the item's name in the AST (the program is one namespace).
// Returns false after reporting an error.
// `rootNames`: names the root defines besides its file's items (the REPL session's definitions).
bool checkImports(ModuleTree &tree, Diagnostics &diags,
                  const std::vector<std::pair<std::string, llvm::SMRange>> &rootNames = {});

}  // namespace tcp
