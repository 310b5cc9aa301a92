// modules_test.cpp — use trees flattened into paths, and the module loader over files in a scratch directory.
#include "Diagnostics.h"
#include "Imports.h"
#include "ModuleLoader.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <fstream>

namespace {

std::vector<std::string> entries(const std::string &text) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "t.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  tcp::Diagnostics diags(sm, os);
  auto program = tcp::parseProgram(sm, id, diags);
  EXPECT_EQ(diags.errorCount(), 0u) << os.str();
  std::vector<std::string> flat;
  for (const auto &item : program->items)
    for (const tcp::ast::UseEntry &e : item->uses) {
      std::string s;
      for (const std::string &seg : e.path) s += (s.empty() ? "" : "::") + seg;
      if (e.glob) s += "::*";
      if (!e.rename.empty()) s += " as " + e.rename;
      EXPECT_EQ(e.path.size(), e.segmentRanges.size());
      flat.push_back(s);
    }
  return flat;
}

TEST(Modules, UseTreesFlattenIntoOnePathPerImport) {
  EXPECT_EQ(entries("use a::b;"), (std::vector<std::string>{"a::b"}));
  EXPECT_EQ(entries("use a::{b, c::*, d as e, f::{g, h}};"),
            (std::vector<std::string>{"a::b", "a::c::*", "a::d as e", "a::f::g", "a::f::h"}));
  EXPECT_EQ(entries("use crate::x as _; use super::*;"), (std::vector<std::string>{"crate::x as _", "super::*"}));
}

// A scratch directory with a root file and a library directory.
struct Scratch {
  llvm::SmallString<128> dir;
  Scratch() { llvm::sys::fs::createUniqueDirectory("tcp_modules_test", dir); }
  ~Scratch() { llvm::sys::fs::remove_directories(dir); }
  std::string write(const std::string &name, const std::string &text) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(p));
    std::ofstream(std::string(p.str())) << text;
    return std::string(p.str());
  }
};

struct Loaded {
  llvm::SourceMgr sm;
  std::string out;
  unsigned errors = 0;
  tcp::ModuleTree tree;
};

void load(Loaded &l, const std::string &root, std::vector<std::string> searchPath) {
  llvm::raw_string_ostream os(l.out);
  tcp::Diagnostics diags(l.sm, os);
  auto buf = llvm::MemoryBuffer::getFile(root);
  ASSERT_TRUE(bool(buf));
  unsigned id = l.sm.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
  l.tree = tcp::ModuleLoader(l.sm, diags, std::move(searchPath)).load(id);
  if (!diags.hasErrors()) tcp::checkImports(l.tree, diags);
  os.flush();
  l.errors = diags.errorCount();
}

TEST(Modules, ChildrenLibrariesAndADiamondLoadOnceEach) {
  Scratch s;
  std::string root = s.write("main.tcp", "mod child;\nuse left::L;\nuse right::R;\nfn main() {}\n");
  s.write("child/mod.tcp", "pub mod leaf;\n");
  s.write("child/leaf.tcp", "pub axes![Q = 4];\n");
  s.write("lib/left.tcp", "use common::C;\npub type L = m![C];\n");
  s.write("lib/right.tcp", "use common::C;\npub type R = m![C];\n");
  s.write("lib/common.tcp", "pub axes![C = 8];\n");
  Loaded l;
  load(l, root, {std::string(s.dir) + "/lib"});
  EXPECT_EQ(l.errors, 0u) << l.out;
  std::vector<std::string> paths;
  for (const tcp::Module &m : l.tree.modules) paths.push_back(m.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"crate", "crate::child", "crate::child::leaf", "left", "common", "right"}));
  // Dependencies come before the modules that load them; the root is last.
  EXPECT_EQ(l.tree.postOrder.back(), 0);
  auto merged = tcp::mergeModules(l.tree);
  // leaf: axes; child: mod; common: axes; left, right: use + alias; the root's 4 items last.
  ASSERT_EQ(merged->items.size(), 11u);
  EXPECT_EQ(merged->items.back()->name, "main");
  EXPECT_EQ(merged->items[0]->kind, tcp::ast::Item::Axes);
}

TEST(Modules, ACycleThroughTheSearchPathIsAnError) {
  Scratch s;
  std::string root = s.write("main.tcp", "use a::X;\n");
  s.write("lib/a.tcp", "use b::Y;\npub axes![X = 2];\n");
  s.write("lib/b.tcp", "use a::X;\npub axes![Y = 2];\n");
  Loaded l;
  load(l, root, {std::string(s.dir) + "/lib"});
  EXPECT_EQ(l.errors, 1u);
  EXPECT_NE(l.out.find("import cycle: 'a.tcp' → 'b.tcp' → 'a.tcp'"), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("note: '" + std::string(s.dir) + "/lib/a.tcp' is imported from here"), std::string::npos) << l.out;
}

TEST(Modules, ALibraryMayNameTheProgramsItemsThroughCrate) {
  Scratch s;
  std::string root = s.write("main.tcp", "use k::Twice;\naxes![N = 4];\ntype T = m![{Twice}];\n");
  s.write("lib/k.tcp", "use crate::N;\npub type Twice = m![N # 8];\n");
  Loaded l;
  load(l, root, {std::string(s.dir) + "/lib"});
  EXPECT_EQ(l.errors, 0u) << l.out;
  // Without the import, the library may not name `N`.
  s.write("lib/k.tcp", "pub type Twice = m![N # 8];\n");
  Loaded l2;
  load(l2, root, {std::string(s.dir) + "/lib"});
  EXPECT_EQ(l2.errors, 1u);
  EXPECT_NE(l2.out.find("`N` is not in scope in module `k`"), std::string::npos) << l2.out;
}

}  // namespace
