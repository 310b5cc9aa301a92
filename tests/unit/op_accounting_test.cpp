// op_accounting_test.cpp — nothing is lost silently: for every golden, sample and manual listing that
// checks, the engine ops its source calls are exactly the typed program's ops, and each typed op has
// its engine configuration, its binary record and its row in the cycle report.
#include "BinaryReader.h"
#include "BinaryWriter.h"
#include "Driver.h"
#include "DmaLowering.h"
#include "OpAccounting.h"

#include <gtest/gtest.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const char *dir : {"tests/golden", "samples", "tests/conformance/manual"}) {
    fs::path root = fs::path(TCP_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto &e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() == ".tcp") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The engine a typed op is configured by ("" for ops folded into another: begin opens the
// operation, accumulate is the reducer's, the Vector Engine's steps share one engine).
std::string engineOf(const std::string &op) {
  static const std::map<std::string, std::string> kEngines = {
      {"fetch", "fetch"},     {"switch", "switch"},      {"collect", "collect"}, {"to_trf", "trf_load"},
      {"to_vrf", "vrf_load"}, {"align", "aligner"},      {"contract", "reducer"}, {"cast", "cast"},
      {"transpose", "transpose"}, {"commit", "commit"},
  };
  auto it = kEngines.find(op);
  return it == kEngines.end() ? "" : it->second;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::string configText(const tcp::LoweredProgram &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  tcp::printConfig(p, os);
  os.flush();
  return s;
}

TEST(OpAccounting, EveryCalledEngineOpReachesTypedConfigBinaryAndCycles) {
  std::vector<fs::path> files = corpus();
  ASSERT_GE(files.size(), 300u);
  size_t checked = 0, ops = 0;
  for (const fs::path &f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    tcp::Compilation c(llvm::nulls());
    c.setRngdS(text.str().find("--target=rngd-s") != std::string::npos);
    if (!c.load(f.string()) || !c.run(tcp::Phase::Cycles, nullptr)) continue;
    ++checked;
    std::string where = fs::relative(f, TCP_SOURCE_DIR).string();
    const tcp::TypedProgram &typed = c.typed();
    ASSERT_EQ(c.lowered().functions.size(), typed.functions.size()) << where;
    ASSERT_EQ(c.costs().functions.size(), typed.functions.size()) << where;
    for (size_t fi = 0; fi < typed.functions.size(); ++fi) {
      const tcp::TypedFunction &tf = typed.functions[fi];
      std::string at = where + ": " + tf.name;
      // Source → typed: the same multiset of ops.
      auto info = c.symbols().fns.find(tf.name);
      ASSERT_NE(info, c.symbols().fns.end()) << at;
      ASSERT_TRUE(info->second.item && info->second.item->body) << at;
      std::vector<std::string> names;
      for (const tcp::TypedOp &op : tf.ops) names.push_back(op.name);
      // A call of a stage function runs its body in place (a kernel that checks calls no other function).
      tcp::BodyOf bodyOf = [&](const std::string &callee) -> const tcp::ast::Block * {
        auto g = c.symbols().fns.find(callee);
        if (g == c.symbols().fns.end() || g->second.isDevice || !g->second.item) return nullptr;
        return g->second.item->body.get();
      };
      EXPECT_TRUE(tcp::opsAccountFor(*info->second.item->body, names, bodyOf)) << at;
      ops += tf.ops.size();
      // Typed → config: one DMA configuration per DMA op, and per Tensor Unit operation one engine
      // per configured stage (and one Vector Engine for its steps).
      const tcp::FunctionConfig &fc = c.lowered().functions[fi];
      size_t dmaOps = 0, dmaTus = 0;
      std::map<int, std::vector<std::string>> expected;
      for (const tcp::TypedOp &op : tf.ops) {
        if (tcp::isDmaOp(op)) {
          ++dmaOps;
          continue;
        }
        auto &list = expected[op.chain];
        std::string e = op.name.rfind("vector_", 0) == 0 ? "vector" : engineOf(op.name);
        if (!e.empty() && !(e == "vector" && std::count(list.begin(), list.end(), "vector"))) list.push_back(e);
      }
      std::map<int, std::vector<std::string>> configured;
      for (const tcp::TuConfig &tu : fc.tus) {
        if (tu.chain < 0 && !tu.stage) {
          ++dmaTus;
          continue;
        }
        for (const tcp::EngineConfig &e : tu.engines) configured[tu.chain].push_back(tcp::engineName(tcp::engineKind(e)));
      }
      EXPECT_EQ(dmaTus, dmaOps) << at;
      for (const auto &[chain, engines] : expected) EXPECT_EQ(sorted(configured[chain]), sorted(engines)) << at << " chain " << chain;
      // Typed → cycle report: a row per DMA op and per Tensor Unit operation, naming its stages.
      const tcp::FunctionCost &cost = c.costs().functions[fi];
      EXPECT_EQ(cost.ops.size(), dmaOps + expected.size()) << at;
    }
    // Config → binary → config: the binary holds every configuration.
    tcp::BinaryReadResult back = tcp::decodeBinary(tcp::encodeBinary(c.lowered()), where);
    ASSERT_TRUE(back.ok()) << where << ": " << back.error;
    EXPECT_EQ(configText(*back.program), configText(c.lowered())) << where;
  }
  std::cout << checked << " of " << files.size() << " files check; " << ops << " typed ops accounted for\n";
  EXPECT_GE(checked, 200u);
}

}  // namespace
