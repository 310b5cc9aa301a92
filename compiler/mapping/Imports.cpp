// Imports.cpp — resolves `use` paths against the module tree and checks that each module names only what it defines or imports.
#include "Imports.h"

#include "Suggest.h"

#include <llvm/Support/Path.h>

#include <map>
#include <set>

namespace tcp {

namespace {

struct Definition {
  int module = -1;
  llvm::SMRange range;
  bool isPub = false;
  bool topLevel = true;  // importable (items inside function bodies are the module's own)
  const char *kind = "";
};

class ImportChecker {
 public:
  ImportChecker(ModuleTree &tree, Diagnostics &diags) : tree_(tree), diags_(diags) {
    defs_.resize(tree.modules.size());
    imports_.resize(tree.modules.size());
    importedModules_.resize(tree.modules.size());
    renames_.resize(tree.modules.size());
  }

  bool run(const std::vector<std::pair<std::string, llvm::SMRange>> &rootNames) {
    unsigned before = diags_.errorCount();
    for (const auto &[name, range] : rootNames) define(0, name, range, true, true, "definition");
    for (size_t m = 0; m < tree_.modules.size(); ++m)
      for (const auto &item : tree_.modules[m].program->items) collectDefs(int(m), *item, true);
    for (size_t m = 0; m < tree_.modules.size(); ++m)
      for (const auto &item : tree_.modules[m].program->items) resolveUses(int(m), *item);
    for (size_t m = 0; m < tree_.modules.size(); ++m) checkNames(int(m));
    return diags_.errorCount() == before;
  }

 private:
  ModuleTree &tree_;
  Diagnostics &diags_;
  std::vector<std::map<std::string, Definition>> defs_;  // per module: the names it defines
  std::map<std::string, Definition> owner_;               // program-wide: the first definition of a name
  std::vector<std::map<std::string, int>> imports_;       // per module: imported name → defining module
  std::vector<std::map<std::string, std::string>> renames_;  // per module: `as` name → the item's name
  std::vector<std::map<std::string, int>> importedModules_;  // per module: `use a::b;` of a module b

  std::string fileOf(int m) const { return tree_.modules[m].file; }
  std::string describe(int m) const {
    return "module `" + tree_.modules[m].path + "` ('" + fileOf(m) + "')";
  }
  // The path a module's items are imported by: `crate::a` for the root's tree, `gemm::x` for a library.
  std::string usePathOf(int m) const { return tree_.modules[m].path; }

  void define(int m, const std::string &name, llvm::SMRange range, bool isPub, bool topLevel, const char *kind) {
    Definition d{m, range, isPub, topLevel, kind};
    auto [it, fresh] = owner_.insert({name, d});
    if (!fresh && it->second.module != m) {
      diags_.error(range, std::string(kind) + " `" + name + "` collides with " + it->second.kind + " `" + name +
                              "` of " + describe(it->second.module) +
                              ": the modules of a program share one namespace; rename one of them");
      diags_.note(it->second.range, "`" + name + "` is first defined here, in " + describe(it->second.module));
    }
    defs_[m].insert({name, d});  // duplicates inside one file are the resolver's to report
  }

  void collectDefs(int m, const ast::Item &item, bool topLevel) {
    switch (item.kind) {
      case ast::Item::Axes:
        for (const ast::AxisDecl &a : item.axes) define(m, a.name, a.range, item.isPub, topLevel, "axis");
        break;
      case ast::Item::TypeAlias:
        define(m, item.name, item.range, item.isPub, topLevel, "type alias");
        break;
      case ast::Item::Const:
        define(m, item.name, item.range, item.isPub, topLevel, "constant");
        break;
      case ast::Item::Fn:
        // A library file's `main` and tests stay with that file (ModuleLoader.h, mergeModules).
        if (m != 0 && topLevel && item.isEntry()) return;
        if (!(m == 0 && item.name == "main")) define(m, item.name, item.range, item.isPub, topLevel, "function");
        if (item.body)
          for (const auto &s : item.body->stmts)
            if (s->kind == ast::Stmt::ItemS && s->item) collectDefs(m, *s->item, false);
        break;
      default:
        break;
    }
  }

  bool isAncestor(int a, int m) const {
    if (a == 0) return true;  // the root file: every module is part of the program it roots
    for (int k = m; k >= 0; k = tree_.modules[k].parent)
      if (k == a) return true;
    return false;
  }

  // The module a `use` path's prefix (all segments but the last, or all of a glob) denotes; -1 after
  // reporting, -2 for a built-in crate (nothing to check).
  int prefixModule(int m, const ast::UseEntry &use, size_t count) {
    int at = m;
    for (size_t k = 0; k < count; ++k) {
      const std::string &seg = use.path[k];
      llvm::SMRange r = use.segmentRanges[k];
      if (k == 0 && (isBuiltinCrate(seg) || tree_.modules[m].externCrates.count(seg))) return -2;
      if (seg == "crate" && k == 0) { at = 0; continue; }
      if (seg == "self" && k == 0) continue;
      if (seg == "super") {
        if (tree_.modules[at].parent < 0) {
          diags_.error(r, "`super` in " + describe(at) + ", which has no parent module");
          return -1;
        }
        at = tree_.modules[at].parent;
        continue;
      }
      auto child = tree_.modules[at].children.find(seg);
      if (child != tree_.modules[at].children.end()) { at = child->second; continue; }
      if (k == 0) {
        auto lib = tree_.crates.find(seg);
        if (lib == tree_.crates.end() || lib->second < 0) return -1;  // the loader reported it
        at = lib->second;
        continue;
      }
      std::vector<std::string> names;
      for (const auto &[n, _] : tree_.modules[at].children) names.push_back(n);
      diags_.error(r, describe(at) + " has no module `" + seg + "`" + didYouMean(seg, names));
      return -1;
    }
    return at;
  }

  void import(int m, const std::string &name, int from, llvm::SMRange r) {
    imports_[m][name] = from;
    (void)r;
  }

  void resolveUse(int m, const ast::UseEntry &use) {
    if (use.path.empty()) return;
    if (use.glob) {
      int target = prefixModule(m, use, use.path.size());
      if (target < 0) return;
      for (const auto &[name, d] : defs_[target])
        if (d.topLevel && (d.isPub || isAncestor(target, m))) import(m, name, target, use.range);
      for (const auto &[name, child] : tree_.modules[target].children) importedModules_[m][name] = child;
      return;
    }
    int target = prefixModule(m, use, use.path.size() - 1);
    if (target == -2 || target == -1) return;
    const std::string &name = use.path.back();
    llvm::SMRange r = use.segmentRanges.back();
    bool renamed = !use.rename.empty() && use.rename != "_" && use.rename != name;
    bool isModule = (use.path.size() == 1 && (tree_.crates.count(name) || tree_.modules[m].children.count(name))) ||
                    tree_.modules[target].children.count(name);
    if (renamed && isModule) {
      diags_.error(use.range, "renaming a module (`as " + use.rename + "`) is not supported yet; name it `" + name + "`");
      return;
    }
    if (use.path.size() == 1) {
      // `use gemm;` (a library or child module): loads it, imports no item.
      if (tree_.crates.count(name) || tree_.modules[m].children.count(name)) {
        int mod = tree_.crates.count(name) ? tree_.crates.at(name) : tree_.modules[m].children.at(name);
        if (mod >= 0) importedModules_[m][name] = mod;
        return;
      }
      if (name == "crate" || name == "self" || name == "super") return;
      if (isBuiltinCrate(name) || tree_.modules[m].externCrates.count(name)) return;  // `use std;`
    }
    auto child = tree_.modules[target].children.find(name);
    if (child != tree_.modules[target].children.end()) {
      importedModules_[m][name] = child->second;
      return;
    }
    auto def = defs_[target].find(name);
    if ((def == defs_[target].end() || !def->second.topLevel) && target == 0 && m != 0) {
      // A library generic over the program (stdlib/README.md): the program supplies the name.
      diags_.error(r, describe(m) + " imports `" + name + "` from the program (`crate`), which does not define it; "
                          "define `" + name + "` in the program as the module's header describes");
      return;
    }
    if (def == defs_[target].end() || !def->second.topLevel) {
      std::vector<std::string> names;
      for (const auto &[n, d] : defs_[target])
        if (d.topLevel) names.push_back(n);
      diags_.error(r, "unresolved import `" + name + "`: " + describe(target) + " defines no item `" + name + "`" +
                          didYouMean(name, names));
      return;
    }
    if (!def->second.isPub && !isAncestor(target, m)) {
      diags_.error(r, std::string(def->second.kind) + " `" + name + "` is private to " + describe(target) +
                          "; declare it `pub` to import it");
      diags_.note(def->second.range, "`" + name + "` is defined here");
      return;
    }
    if (renamed) {
      // `use shapes::Slice as S;`: `S` names `Slice` in this module (its uses are rewritten to the
      // item's own name: the program is one namespace).
      if (defs_[m].count(use.rename) || owner_.count(use.rename)) {
        auto other = owner_.find(use.rename);
        diags_.error(use.range, "`" + use.rename + "` cannot name the import of `" + name + "`: `" + use.rename +
                                    "` is already an item of the program");
        if (other != owner_.end()) diags_.note(other->second.range, "`" + use.rename + "` is defined here");
        return;
      }
      renames_[m][use.rename] = name;
      return;
    }
    if (use.rename != "_") import(m, name, target, r);
  }

  void resolveUses(int m, const ast::Item &item) {
    if (item.kind == ast::Item::Use)
      for (const ast::UseEntry &use : item.uses) resolveUse(m, use);
    if (item.kind == ast::Item::Fn && item.body)
      for (const auto &s : item.body->stmts)
        if (s->kind == ast::Stmt::ItemS && s->item) resolveUses(m, *s->item);
  }

  // ---- names used in a module's items
  std::set<std::string> locals_;  // bindings and generic parameters of the function being walked
  int current_ = 0;
  std::set<std::string> reported_;  // one error per module and name

  void use(std::string &name, llvm::SMRange r) {
    if (name.empty() || locals_.count(name)) return;
    if (auto rn = renames_[current_].find(name); rn != renames_[current_].end()) {
      name = rn->second;
      return;
    }
    auto own = owner_.find(name);
    if (own == owner_.end() || own->second.module == current_) return;
    if (defs_[current_].count(name) || imports_[current_].count(name)) return;
    if (!reported_.insert(name).second) return;
    int from = own->second.module;
    diags_.error(r, "`" + name + "` is not in scope in " + describe(current_) + ": it is defined in " +
                        describe(from) + "; import it with `use " + usePathOf(from) + "::" + name + ";`");
    diags_.note(own->second.range, "`" + name + "` is defined here");
  }

  // The module a path's first segment names in the current module, or -1.
  int pathModule(const std::string &first) const {
    if (locals_.count(first)) return -1;
    if (first == "crate") return 0;
    if (first == "self") return current_;
    if (first == "super") return tree_.modules[current_].parent;
    if (auto it = importedModules_[current_].find(first); it != importedModules_[current_].end()) return it->second;
    if (auto it = tree_.modules[current_].children.find(first); it != tree_.modules[current_].children.end())
      return it->second;
    if (auto it = tree_.crates.find(first); it != tree_.crates.end()) return it->second;
    return -1;
  }

  void path(ast::Path &p, bool firstIsName) {
    if (p.qualifiedSelf) type(*p.qualifiedSelf);
    if (!p.segments.empty() && firstIsName) {
      int mod = p.segments.size() > 1 ? pathModule(p.segments[0].name) : -1;
      if (mod >= 0) {
        // `shapes::Slice`, `crate::kernels::add_one`: the item is the segment after the modules.
        size_t k = 1;
        for (; k + 1 < p.segments.size(); ++k) {
          const std::string &seg = p.segments[k].name;
          if (seg == "super" && tree_.modules[mod].parent >= 0) mod = tree_.modules[mod].parent;
          else if (tree_.modules[mod].children.count(seg)) mod = tree_.modules[mod].children.at(seg);
          else break;
        }
        const std::string name = p.segments[k].name;
        auto def = defs_[mod].find(name);
        if (def == defs_[mod].end() || !def->second.topLevel) {
          std::vector<std::string> names;
          for (const auto &[n, d] : defs_[mod])
            if (d.topLevel) names.push_back(n);
          diags_.error(p.segments[k].range, describe(mod) + " defines no item `" + name + "`" + didYouMean(name, names));
        } else if (!def->second.isPub && !isAncestor(mod, current_)) {
          diags_.error(p.segments[k].range, std::string(def->second.kind) + " `" + name + "` is private to " +
                                                describe(mod) + "; declare it `pub` to name it here");
          diags_.note(def->second.range, "`" + name + "` is defined here");
        } else {
          // The program is one namespace (Imports.h): the item's own name denotes it.
          p.segments.erase(p.segments.begin(), p.segments.begin() + long(k));
        }
      } else {
        use(p.segments[0].name, p.segments[0].range);
      }
    }
    for (auto &s : p.segments)
      for (auto &g : s.generics) {
        if (g.type) type(*g.type);
        if (g.expr) expr(*g.expr);
      }
  }

  void mapping(ast::MapExpr &m) {
    if (m.kind == ast::MapExpr::Symbol || m.kind == ast::MapExpr::Escape) use(m.name, m.range);
    for (auto &c : m.children)
      if (c) mapping(*c);
    if (m.amount) expr(*m.amount);
    for (auto &s : m.strides)
      if (s) expr(*s);
  }

  void type(ast::Type &t) {
    if (t.mapping) mapping(*t.mapping);
    if (t.kind == ast::Type::PathT || t.kind == ast::Type::ImplTrait || t.kind == ast::Type::DynTrait) path(t.path, true);
    for (auto &e : t.elems)
      if (e) type(*e);
    if (t.arrayLen) expr(*t.arrayLen);
    if (t.ret) type(*t.ret);
  }

  void bind(ast::Pattern &p) {
    if (p.kind == ast::Pattern::Ident) locals_.insert(p.name);
    for (auto &e : p.elems)
      if (e) bind(*e);
  }

  void expr(ast::Expr &e) {
    using K = ast::Expr::Kind;
    if (e.kind == K::PathE || e.kind == K::StructLit) path(e.path, true);
    if (e.kind == K::MethodCall) path(e.path, false);
    for (auto &o : e.operands)
      if (o) expr(*o);
    if (e.type) type(*e.type);
    for (auto &f : e.fields)
      if (f.value) expr(*f.value);
    for (auto &p : e.params) {
      if (p.pattern) bind(*p.pattern);
      if (p.type) type(*p.type);
    }
    if (e.closureRet) type(*e.closureRet);
    if (e.pattern) bind(*e.pattern);
    if (e.block) block(*e.block);
    if (e.elseExpr) expr(*e.elseExpr);
    for (auto &arm : e.arms) {
      if (arm.pattern) bind(*arm.pattern);
      if (arm.guard) expr(*arm.guard);
      if (arm.body) expr(*arm.body);
    }
    if (e.macro) {
      for (auto &a : e.macro->args)
        if (a) expr(*a);
      for (auto &[key, value] : e.macro->indexEntries) {
        if (key) mapping(*key);
        if (value) expr(*value);
      }
      if (e.macro->mapping) mapping(*e.macro->mapping);
    }
  }

  void block(ast::Block &b) {
    for (auto &s : b.stmts) {
      if (s->type) type(*s->type);
      if (s->init) expr(*s->init);
      if (s->pattern) bind(*s->pattern);
      if (s->elseBlock) block(*s->elseBlock);
      if (s->item) item(*s->item);
    }
  }

  void item(ast::Item &it) {
    std::set<std::string> saved = locals_;
    for (auto &g : it.generics) {
      locals_.insert(g.name);
      if (g.constType) type(*g.constType);
    }
    for (ast::AxisDecl &a : it.axes) {
      if (a.size) expr(*a.size);
      if (a.padded) mapping(*a.padded);
      use(a.skewBase, a.range);
      use(a.skewBy, a.range);
    }
    for (auto &p : it.params) {
      if (p.pattern) bind(*p.pattern);
      if (p.type) type(*p.type);
    }
    if (it.type) type(*it.type);
    if (it.value) expr(*it.value);
    if (it.ret) type(*it.ret);
    for (auto &a : it.attrs)
      for (auto &[_, v] : a.args)
        if (v) expr(*v);
    if (it.body) block(*it.body);
    locals_ = saved;
  }

  void checkNames(int m) {
    current_ = m;
    reported_.clear();
    for (auto &it : tree_.modules[m].program->items) item(*it);
  }
};

}  // namespace

bool checkImports(ModuleTree &tree, Diagnostics &diags,
                  const std::vector<std::pair<std::string, llvm::SMRange>> &rootNames) {
  return ImportChecker(tree, diags).run(rootNames);
}

}  // namespace tcp
