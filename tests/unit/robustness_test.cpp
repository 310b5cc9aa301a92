// robustness_test.cpp — no input crashes the front end: truncations, mutations, nesting, size, binary.
#include "Driver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace {

namespace fs = std::filesystem;

// Runs the whole front end over `text`; returns whether it succeeded. Diagnostics are discarded.
bool frontEnd(const std::string &text, std::string *diag = nullptr) {
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tcp::Compilation comp(os);
  bool ok = comp.loadText(text, "input.tcp") && comp.run(tcp::Phase::Resolved, nullptr);
  if (diag) *diag = os.str();
  return ok;
}

std::vector<std::string> corpus() {
  std::vector<std::string> out;
  fs::path dir = fs::path(TCP_SOURCE_DIR) / "tests/conformance/manual";
  if (!fs::exists(dir)) return out;
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto &f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

TEST(Robustness, TruncatedListingsEndInDiagnostics) {
  auto files = corpus();
  ASSERT_FALSE(files.empty());
  for (const std::string &text : files)
    for (size_t cut = 1; cut < text.size(); cut += std::max<size_t>(1, text.size() / 13)) frontEnd(text.substr(0, cut));
}

TEST(Robustness, MutatedListingsEndInDiagnostics) {
  auto files = corpus();
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(1234);
  const std::string junk = "()[]{}<>#!:;,.=/%@$'\"\\|&*+-0123456789AZaz_ \n\x80\xff";
  for (const std::string &text : files) {
    for (int round = 0; round < 4; ++round) {
      std::string t = text;
      for (int k = 0; k < 6 && !t.empty(); ++k) t[rng() % t.size()] = junk[rng() % junk.size()];
      frontEnd(t);
    }
  }
}

TEST(Robustness, DeepNestingIsADiagnosticNotAStackOverflow) {
  std::string diag;
  EXPECT_FALSE(frontEnd("fn main() { let x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "; }", &diag));
  EXPECT_FALSE(frontEnd("axes![A = 2];\ntype E = m![" + std::string(50000, '[') + "A" + std::string(50000, ']') + "];", &diag));
  EXPECT_FALSE(frontEnd(std::string(200000, '{'), &diag));
  EXPECT_FALSE(diag.empty());
}

TEST(Robustness, BinaryInputIsRejected) {
  std::string diag;
  EXPECT_FALSE(frontEnd(std::string("axes![A = 8];\0\1\2", 16), &diag));
  EXPECT_NE(diag.find("is not a text file"), std::string::npos) << diag;
  EXPECT_FALSE(frontEnd("\xff\xfe\xfd garbage \x80", &diag));
}

TEST(Robustness, LargeProgramsAreHandled) {
  std::string text = "axes![A = 8, B = 512];\n";
  for (int k = 0; k < 20000; ++k) text += "type T" + std::to_string(k) + " = m![A, B / 64, B % 64];\n";
  std::string diag;
  EXPECT_TRUE(frontEnd(text, &diag)) << diag.substr(0, 500);
}

TEST(Robustness, HugeLiteralsAreDiagnosed) {
  std::string diag;
  EXPECT_FALSE(frontEnd("axes![A = 99999999999999999999999999];", &diag));
  EXPECT_NE(diag.find("does not fit in 64 bits"), std::string::npos) << diag;
}

}  // namespace
