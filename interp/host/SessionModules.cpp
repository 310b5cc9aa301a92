// SessionModules.cpp — library modules in the REPL: `use gemm::gemm;` loads stdlib/gemm.tcp (and what it loads) into the session.
#include "Imports.h"
#include "Session.h"

namespace tcp::interp {

bool Session::useLibraries(std::vector<ast::StmtP> &stmts, unsigned buffer, std::vector<std::string> &defined) {
  Diagnostics &diags = comp_.diags();
  unsigned before = diags.errorCount();
  std::vector<size_t> uses;
  for (size_t k = 0; k < stmts.size(); ++k) {
    const ast::Stmt &s = *stmts[k];
    if (s.kind != ast::Stmt::ItemS || !s.item) continue;
    if (s.item->kind == ast::Item::Mod)
      diags.error(s.item->range, "`mod " + s.item->name + ";` loads a file beside the file that declares it, and "
                                 "REPL input is in no file: run a file with `tcpi FILE`, or put the module on the "
                                 "search path (-I DIR) and `use` it");
    if (s.item->kind == ast::Item::Use) uses.push_back(k);
    if (s.item->kind == ast::Item::Use)
      for (const ast::UseEntry &e : s.item->uses)
        if (!e.rename.empty() && e.rename != "_" && (e.path.empty() || e.rename != e.path.back()))
          diags.error(e.range, "renaming an import (`as " + e.rename +
                                   "`) in the REPL is not supported yet (the session is one scope); import it under its own name");
  }
  if (diags.errorCount() != before) return false;
  if (uses.empty()) return true;
  if (!modules_) {
    modules_ = std::make_unique<ModuleTree>();
    Module root;
    root.path = "crate";
    root.file = "<stdin>";
    root.canonical = "<the REPL session>";
    root.bufferId = buffer;
    root.program = std::make_unique<ast::Program>();
    modules_->modules.push_back(std::move(root));
    modules_->postOrder.push_back(0);
  }
  ModuleTree &tree = *modules_;
  size_t oldSize = tree.modules.size();
  std::vector<int> oldPost = tree.postOrder;
  std::map<std::string, int> oldCrates = tree.crates;

  // The input's `use` items are the root's while the imports are checked.
  ast::Program &root = *tree.modules[0].program;
  for (size_t k : uses) root.items.push_back(std::move(stmts[k]->item));
  ModuleLoader loader(comp_.sourceMgr(), diags, comp_.searchPath());
  for (const auto &item : root.items)
    for (const ast::UseEntry &use : item->uses) {
      if (use.path.empty()) continue;
      const std::string &first = use.path[0];
      if (first == "crate" || first == "self" || first == "super" || isBuiltinCrate(first)) continue;
      loader.loadLibrary(tree, first, use.segmentRanges[0]);
    }
  if (diags.errorCount() == before) {
    // The session's own definitions are the root's items (a library's `use crate::M` names them).
    std::set<std::string> library;
    for (size_t m = 1; m < tree.modules.size(); ++m)
      for (const auto &item : tree.modules[m].program->items) {
        library.insert(item->name);
        for (const ast::AxisDecl &a : item->axes) library.insert(a.name);
      }
    const Symbols &syms = comp_.symbols();
    std::vector<std::pair<std::string, llvm::SMRange>> session;
    for (const auto &[name, range] : syms.axisRanges)
      if (!library.count(name)) session.push_back({name, range});
    for (const auto &[name, info] : syms.aliases)
      if (!library.count(name) && info.item) session.push_back({name, info.item->range});
    for (const auto &[name, info] : syms.fns)
      if (!library.count(name) && info.item && name != "main") session.push_back({name, info.item->range});
    checkImports(tree, diags, session);
  }
  for (size_t j = 0; j < uses.size(); ++j) stmts[uses[j]]->item = std::move(root.items[j]);
  root.items.clear();
  if (diags.errorCount() != before) {
    tree.modules.resize(oldSize);
    tree.postOrder = oldPost;
    tree.crates = oldCrates;
    return false;
  }
  // The new modules' items join the session, dependencies first (a library's main and tests stay with its file).
  std::vector<const ast::Item *> items;
  for (int m : tree.postOrder)
    if (size_t(m) >= oldSize)
      for (const auto &item : tree.modules[m].program->items) {
        if (item->isEntry()) continue;
        items.push_back(item.get());
      }
  for (const ast::Item *item : items) {
    declare(*item);
    if (item->kind == ast::Item::Fn) defined.push_back(item->name);
  }
  for (const ast::Item *item : items) eval_.resolver().checkItem(*item);
  return diags.errorCount() == before;
}

}  // namespace tcp::interp
