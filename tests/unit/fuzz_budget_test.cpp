// fuzz_budget_test.cpp — the text fuzz targets' element budget read from the text (tests/fuzz/FuzzBudget.h) agrees with name resolution.
#include "../fuzz/FuzzBudget.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

using tcp::fuzz::literalAxisVolume;

// The product of the declared axes after parsing and resolving `text` (nullopt when that fails).
std::optional<uint64_t> resolvedVolume(const std::string &text) {
  std::string sink;
  llvm::raw_string_ostream diags(sink);
  tcp::Compilation comp(diags);
  if (!comp.loadText(text, "budget.tcp") || !comp.run(tcp::Phase::Resolved, nullptr)) return std::nullopt;
  return tcp::fuzz::axisVolume(comp.symbols());
}

TEST(FuzzBudget, PlainAxisListsAreReadFromTheText) {
  const std::string text = "axes![M = 64, N = 128,];\naxes![K = 4];\nfn main() {}\n";
  EXPECT_EQ(literalAxisVolume(text), std::optional<uint64_t>(64 * 128 * 4));
  EXPECT_EQ(resolvedVolume(text), literalAxisVolume(text));
  EXPECT_EQ(literalAxisVolume("fn main() {}\n"), std::optional<uint64_t>(1));
}

TEST(FuzzBudget, CommentsAndLiteralsDoNotDeclareAxes) {
  const std::string text =
      "// axes![A = 1048576]\n"
      "axes![M = 8];\n"
      "fn main() { let s = \"axes![B = 65536] \\\" axes![C = 3]\"; let c = '\"'; }\n";
  EXPECT_EQ(literalAxisVolume(text), std::optional<uint64_t>(8));
  EXPECT_EQ(resolvedVolume(text), std::optional<uint64_t>(8));
}

TEST(FuzzBudget, OtherFormsAreLeftToResolution) {
  for (const char *text : {"axes![M = 1 << 20];\n", "axes![M = 0x100];\n", "axes![M = 1_024];\n",
                           "axes![M = 8usize];\n", "axes![M = 8, N = M - M];\n", "/* x */ axes![M = 8];\n",
                           "axes![M = 8\n"})
    EXPECT_EQ(literalAxisVolume(text), std::nullopt) << text;
  // The element budget of such a program comes from resolution: 2^20 elements are over it.
  EXPECT_FALSE(tcp::fuzz::textWithinBudget("axes![M = 1 << 20];\nfn main() {}\n"));
  EXPECT_TRUE(tcp::fuzz::textWithinBudget("axes![M = 1 << 4];\nfn main() {}\n"));
}

TEST(FuzzBudget, ProductsSaturate) {
  EXPECT_EQ(literalAxisVolume("axes![A = 99999999999999999999999, B = 4];\n"), std::optional<uint64_t>(UINT64_MAX));
  EXPECT_FALSE(tcp::fuzz::textWithinBudget("axes![A = 4294967296, B = 4294967296];\nfn main() {}\n"));
}

// The REPL target's session estimate reads plain lists as literalAxisVolume does, and past another form
// it goes on counting: a bracket inside `axes![...]` does not end the list (4096 elements by default).
TEST(FuzzBudget, SessionsAreEstimatedPastNestedBrackets) {
  if (tcp::fuzz::maxElements() != 4096) GTEST_SKIP() << "TCP_FUZZ_MAX_ELEMENTS is set";
  EXPECT_TRUE(tcp::fuzz::sessionWithinBudget("axes![A = 64, B = 64];\n:type A\n"));
  EXPECT_FALSE(tcp::fuzz::sessionWithinBudget("axes![A = 64, B = 128];\n"));
  EXPECT_FALSE(tcp::fuzz::sessionWithinBudget("axes![A = 64, X = m![A # 128], B = 128];\n"));
  EXPECT_TRUE(tcp::fuzz::sessionWithinBudget("axes![A = 64, X = m![A # 128], B = 2];\n"));
  EXPECT_FALSE(tcp::fuzz::sessionWithinBudget("axes![A = 99999999999999999999999, B = 1 << 2];\n"));
}

}  // namespace
