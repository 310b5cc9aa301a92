// conformance_test.cpp — every listing extracted from the manual (tests/conformance/manual) parses cleanly.
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> manualListings() {
  std::vector<fs::path> files;
  fs::path dir = fs::path(TCP_SOURCE_DIR) / "tests" / "conformance" / "manual";
  if (!fs::exists(dir)) return files;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tcp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Conformance, EveryManualListingParses) {
  std::vector<fs::path> files = manualListings();
  ASSERT_GE(files.size(), 112u) << "run scripts/extract_manual_listings.py";
  size_t parsed = 0;
  for (const fs::path &f : files) {
    auto buf = llvm::MemoryBuffer::getFile(f.string());
    ASSERT_TRUE(static_cast<bool>(buf)) << f;
    llvm::SourceMgr sm;
    unsigned id = sm.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
    std::string out;
    llvm::raw_string_ostream os(out);
    tcp::Diagnostics diags(sm, os);
    auto program = tcp::parseProgram(sm, id, diags);
    os.flush();
    EXPECT_EQ(diags.errorCount(), 0u) << f.filename().string() << ":\n" << out;
    EXPECT_FALSE(program->items.empty()) << f.filename().string();
    if (diags.errorCount() == 0 && !program->items.empty()) ++parsed;
  }
  std::cout << "parsed " << parsed << " of " << files.size() << " manual listings\n";
  EXPECT_EQ(parsed, files.size());
}

}  // namespace
