// ModuleLoader.cpp — finds, reads and parses the files of a program's module tree; missing modules and cycles.
#include "ModuleLoader.h"
#include "SourceRead.h"

#include "Parser.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace tcp {

namespace {
constexpr int kLoading = -2;  // ModuleTree::crates: the crate's file is being loaded

std::string canonicalOf(const std::string &file) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(file, real)) return std::string(real.str());
  llvm::SmallString<256> abs(file);
  llvm::sys::fs::make_absolute(abs);
  return std::string(abs.str());
}

bool isFile(const std::string &p) { return llvm::sys::fs::is_regular_file(p); }

std::string joinPath(llvm::StringRef dir, llvm::StringRef a, llvm::StringRef b = "") {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, a);
  if (!b.empty()) llvm::sys::path::append(p, b);
  return std::string(p.str());
}

// The items of a file that can load modules: its top-level items and the `use` items in function
// bodies (the manual's wrapper `fn main() { use ...; }`).
void collectUses(const ast::Block &block, std::vector<const ast::Item *> &out) {
  for (const auto &s : block.stmts) {
    if (s->kind != ast::Stmt::ItemS || !s->item) continue;
    if (s->item->kind == ast::Item::Use || s->item->kind == ast::Item::Mod) out.push_back(s->item.get());
    if (s->item->kind == ast::Item::Fn && s->item->body) collectUses(*s->item->body, out);
  }
}
}  // namespace

bool isBuiltinCrate(llvm::StringRef name) {
  return name == "furiosa_visa_std" || name == "std" || name == "core" || name == "alloc" || name == "rand" ||
         name == "tokio";
}

ModuleTree ModuleLoader::load(unsigned rootBuffer) {
  ModuleTree tree;
  Module root;
  root.path = "crate";
  root.file = sm_.getMemoryBuffer(rootBuffer)->getBufferIdentifier().str();
  root.canonical = canonicalOf(root.file);
  root.bufferId = rootBuffer;
  root.program = parseProgram(sm_, rootBuffer, diags_);
  tree.modules.push_back(std::move(root));
  stack_.push_back({tree.modules[0].canonical, {}});
  loadDependencies(tree, 0);
  stack_.pop_back();
  tree.postOrder.push_back(0);
  return tree;
}

std::string ModuleLoader::findLibrary(const std::string &name, std::vector<std::string> &tried) const {
  for (const std::string &dir : searchPath_) {
    for (const std::string &candidate : {joinPath(dir, name + ".tcp"), joinPath(dir, name, "mod.tcp")}) {
      tried.push_back(candidate);
      if (isFile(candidate)) return candidate;
    }
  }
  return "";
}

void ModuleLoader::loadDependencies(ModuleTree &tree, int index) {
  std::vector<const ast::Item *> items;
  for (const auto &it : tree.modules[index].program->items) {
    if (it->kind == ast::Item::ExternCrate) tree.modules[index].externCrates.insert(it->name);
    if (it->kind == ast::Item::Use || it->kind == ast::Item::Mod) items.push_back(it.get());
    if (it->kind == ast::Item::Fn && it->body) {
      std::vector<const ast::Item *> nested;
      collectUses(*it->body, nested);
      for (const ast::Item *n : nested) {
        if (n->kind == ast::Item::Mod)
          diags_.error(n->range, "`mod " + n->name + ";` must be at the top of a file, not inside a function");
        else items.push_back(n);
      }
    }
  }
  for (const ast::Item *item : items) {
    if (item->kind == ast::Item::Mod) {
      // `mod name;` loads `name.tcp` beside the declaring file, or `name/mod.tcp` (docs/language.md, "Modules").
      std::string dir = llvm::sys::path::parent_path(tree.modules[index].file).str();
      std::string flat = joinPath(dir, item->name + ".tcp"), nested = joinPath(dir, item->name, "mod.tcp");
      bool hasFlat = isFile(flat), hasNested = isFile(nested);
      if (tree.modules[index].children.count(item->name)) {
        diags_.error(item->range, "module `" + item->name + "` is declared twice in '" + tree.modules[index].file + "'");
        continue;
      }
      if (hasFlat && hasNested) {
        diags_.error(item->range, "module `" + item->name + "` is ambiguous: both '" + flat + "' and '" + nested +
                                      "' exist; remove one");
        continue;
      }
      if (!hasFlat && !hasNested) {
        diags_.error(item->range, "cannot find module `" + item->name + "`: neither '" + flat + "' nor '" + nested +
                                      "' exists");
        continue;
      }
      std::string modPath = tree.modules[index].path + "::" + item->name;
      int child = loadFile(tree, hasFlat ? flat : nested, modPath, index, tree.modules[index].library, item->range);
      if (child >= 0) tree.modules[index].children[item->name] = child;
      continue;
    }
    for (const ast::UseEntry &use : item->uses) {
      if (use.path.empty()) continue;
      const std::string &first = use.path[0];
      if (first == "crate" || first == "self" || first == "super" || isBuiltinCrate(first)) continue;
      if (tree.modules[index].externCrates.count(first)) continue;  // `extern crate first;`: not a tcp module
      if (tree.modules[index].children.count(first)) continue;
      // A `mod first;` later in the same file declares it.
      bool declaredHere = false;
      for (const ast::Item *other : items) declaredHere |= other->kind == ast::Item::Mod && other->name == first;
      if (declaredHere) continue;
      auto known = tree.crates.find(first);
      if (known != tree.crates.end() && known->second != kLoading) continue;  // loaded, or reported missing
      std::vector<std::string> tried;
      std::string file = findLibrary(first, tried);
      if (known != tree.crates.end()) {
        // Still loading: this `use` comes from a module it (indirectly) imports.
        reportCycle(canonicalOf(file), use.segmentRanges[0]);
        continue;
      }
      if (file.empty()) {
        reportMissing(first, use.segmentRanges[0]);
        tree.crates[first] = -1;
        continue;
      }
      tree.crates[first] = kLoading;  // a `use` of it while it loads is a cycle
      int lib = loadFile(tree, file, first, -1, /*library=*/true, use.segmentRanges[0]);
      tree.crates[first] = lib;
    }
  }
}

void ModuleLoader::reportMissing(const std::string &name, llvm::SMRange site) {
  // The search path is the -I directories, then the stdlib (its absolute path: --print-stdlib-dir).
  std::string where;
  for (size_t k = 0; k + 1 < searchPath_.size(); ++k) where += (where.empty() ? "" : ", ") + ("'" + searchPath_[k] + "'");
  diags_.error(site, "cannot find module `" + name + "`: it is not declared with `mod " + name +
                         ";` in this file and no '" + name + ".tcp' or '" + name + "/mod.tcp' is in " +
                         (where.empty() ? std::string() : "the -I directories (" + where + ") or ") +
                         "the stdlib (--print-stdlib-dir); add its directory with -I DIR");
}

int ModuleLoader::loadLibrary(ModuleTree &tree, const std::string &name, llvm::SMRange site) {
  if (auto known = tree.crates.find(name); known != tree.crates.end() && known->second >= 0) return known->second;
  std::vector<std::string> tried;
  std::string file = findLibrary(name, tried);
  if (file.empty()) {
    reportMissing(name, site);
    return -1;
  }
  tree.crates[name] = kLoading;
  int lib = loadFile(tree, file, name, -1, /*library=*/true, site);
  tree.crates[name] = lib;
  return lib;
}

bool ModuleLoader::reportCycle(const std::string &canonical, llvm::SMRange site) {
  for (size_t k = 0; k < stack_.size(); ++k)
    if (stack_[k].first == canonical) {
      std::string chain;
      for (size_t j = k; j < stack_.size(); ++j) chain += "'" + llvm::sys::path::filename(stack_[j].first).str() + "' → ";
      diags_.error(site, "import cycle: " + chain + "'" + llvm::sys::path::filename(canonical).str() +
                             "'; modules may not import each other");
      return true;
    }
  return false;
}

int ModuleLoader::loadFile(ModuleTree &tree, const std::string &file, const std::string &modPath, int parent,
                           bool library, llvm::SMRange site) {
  std::string canonical = canonicalOf(file);
  if (reportCycle(canonical, site)) return -1;
  for (size_t k = 0; k < tree.modules.size(); ++k)
    if (tree.modules[k].canonical == canonical) {
      diags_.error(site, "'" + file + "' is already loaded as module `" + tree.modules[k].path +
                             "`; a file is one module (import its items with `use` instead)");
      return -1;
    }
  std::string text;
  std::string readError = readSourceBounded(file, text);  // bounded like the root file: a FIFO or /dev/zero is refused
  if (!readError.empty()) {
    diags_.error(site, "module: " + readError);
    return -1;
  }
  if (text.find('\0') != std::string::npos) {
    diags_.error(site, "module '" + file + "' is not a text file of at most 64 MiB");
    return -1;
  }
  Module m;
  m.path = modPath;
  m.file = file;
  m.canonical = canonical;
  m.parent = parent;
  m.library = library;
  // The import site is the buffer's include location: diagnostics in the module name the chain.
  m.bufferId = sm_.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, file), site.Start);
  m.program = parseProgram(sm_, m.bufferId, diags_);
  int index = int(tree.modules.size());
  tree.modules.push_back(std::move(m));
  stack_.push_back({canonical, site});
  loadDependencies(tree, index);
  stack_.pop_back();
  tree.postOrder.push_back(index);
  return index;
}

std::unique_ptr<ast::Program> mergeModules(ModuleTree &tree) {
  auto merged = std::make_unique<ast::Program>();
  Module &root = tree.modules[0];
  merged->bufferId = root.bufferId;
  merged->innerAttrs = std::move(root.program->innerAttrs);
  for (int index : tree.postOrder) {
    if (index == 0) continue;
    for (auto &item : tree.modules[index].program->items) {
      if (item->isEntry()) continue;
      merged->items.push_back(std::move(item));
    }
  }
  for (auto &item : root.program->items) merged->items.push_back(std::move(item));
  return merged;
}

}  // namespace tcp
