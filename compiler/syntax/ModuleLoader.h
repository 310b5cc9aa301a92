// ModuleLoader.h — a program spanning files: loads the module tree (`mod name;`, `use` of library modules on the search path) into one SourceMgr, reporting missing modules and cycles.
#pragma once

#include "Ast.h"
#include "Diagnostics.h"

#include <llvm/Support/SourceMgr.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tcp {

// One file of a program: the root file, a `mod name;` child, or a library module found on the
// search path (`use gemm::gemm;` loads `gemm.tcp`).
struct Module {
  std::string path;       // "crate", "crate::a", "gemm", "gemm::tiles"
  std::string file;       // the file as named in diagnostics
  std::string canonical;  // the real path (a file is one module)
  unsigned bufferId = 0;
  std::unique_ptr<ast::Program> program;
  int parent = -1;                      // the module whose `mod name;` loaded it (-1: a root)
  std::map<std::string, int> children;  // `mod name;` → module index
  bool library = false;                 // found on the search path (a crate of its own)
  std::set<std::string> externCrates;   // `extern crate name;`: Rust crates, not tcp modules
};

// The modules of a program, the root first. Library crates are found by their root's name.
struct ModuleTree {
  std::vector<Module> modules;
  std::map<std::string, int> crates;  // library crate name → module index (-1: not found)
  std::vector<int> postOrder;         // every module after the modules it loads
};

// Names of crates tcp provides itself: a `use` of them loads nothing (the engine and host API are
// built in): the manual's `use furiosa_visa_std::prelude::*;`, `use rand::rngs::SmallRng;`,
// `use std::marker::PhantomData;`.
bool isBuiltinCrate(llvm::StringRef name);

class ModuleLoader {
 public:
  // `searchPath`: directories searched in order for library modules (`-I DIR`s, then the stdlib).
  ModuleLoader(llvm::SourceMgr &sm, Diagnostics &diags, std::vector<std::string> searchPath)
      : sm_(sm), diags_(diags), searchPath_(std::move(searchPath)) {}

  // Parses the root buffer and every module it reaches. Errors (syntax, missing module, cycle, a
  // file loaded as two modules) go to diags; the tree holds what could be loaded.
  ModuleTree load(unsigned rootBuffer);
  // Loads library crate `name` (and every module it loads) into `tree` as a `use` at `site` does;
  // the REPL's way to grow its program. Returns its index, or -1 after reporting.
  int loadLibrary(ModuleTree &tree, const std::string &name, llvm::SMRange site);

 private:
  int loadFile(ModuleTree &tree, const std::string &file, const std::string &modPath, int parent, bool library,
               llvm::SMRange site);
  void loadDependencies(ModuleTree &tree, int index);
  // An import cycle when `canonical` is being loaded already: reported at `site`, true.
  bool reportCycle(const std::string &canonical, llvm::SMRange site);
  void reportMissing(const std::string &name, llvm::SMRange site);
  std::string findLibrary(const std::string &name, std::vector<std::string> &tried) const;

  llvm::SourceMgr &sm_;
  Diagnostics &diags_;
  std::vector<std::string> searchPath_;
  std::vector<std::pair<std::string, llvm::SMRange>> stack_;  // files being loaded and where each was imported
};

// The items of every module as one program (the checker's single namespace): library and child
// modules first (dependencies before dependents), the root file last. A non-root module's `fn main`
// and `#[test]` functions stay with that file (they run when it is the program). Leaves the tree's
// programs empty.
std::unique_ptr<ast::Program> mergeModules(ModuleTree &tree);

}  // namespace tcp
