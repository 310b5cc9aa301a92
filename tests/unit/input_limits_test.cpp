// input_limits_test.cpp — the bounds issue 16 added: computed .get positions, byte counts, windowed diagnostics, parser pre-scans.
#include "Driver.h"
#include "HostLimits.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tcp::testing::Axes;
using tcp::testing::MappingParser;

// Row-major pairs of whole axes compute positions; they must agree with the table of map(p).
TEST(InputLimits, ComputedPositionsAgreeWithTheMapping) {
  Axes axes({{"A", 3}, {"B", 4}, {"C", 5}});
  for (const char *text : {"A", "A, B", "B, A", "A, B, C", "C, 1, A", "[A, B], C", "1"}) {
    tcp::MappingRef m = MappingParser(axes.table, text).parse();
    ASSERT_FALSE(tcp::IndexPositions::needsTable(*m)) << text;
    tcp::IndexPositions positions(*m);
    for (uint64_t p = 0; p < m->size(); ++p) {
      auto ix = m->map(p);
      ASSERT_TRUE(ix);
      EXPECT_EQ(positions.find(*ix), p) << text << " at " << p;
    }
    tcp::Index outside;
    outside.set("A", 3);
    EXPECT_FALSE(positions.find(outside)) << text;
  }
  tcp::Index other;
  other.set("B", 1);
  EXPECT_FALSE(tcp::IndexPositions(*MappingParser(axes.table, "A").parse()).find(other));  // an axis not held
  for (const char *text : {"A / 3", "A % 3, B", "A, A", "B # 8", "A + B"})
    EXPECT_TRUE(tcp::IndexPositions::needsTable(*MappingParser(axes.table, text).parse())) << text;
}

TEST(InputLimits, ByteCounts) {
  uint64_t v = 0;
  EXPECT_TRUE(tcp::interp::parseByteCount("4096", v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(tcp::interp::parseByteCount("512M", v));
  EXPECT_EQ(v, uint64_t(512) << 20);
  EXPECT_TRUE(tcp::interp::parseByteCount("2GiB", v));
  EXPECT_EQ(v, uint64_t(2) << 30);
  for (const char *bad : {"", "G", "12X", "1.5G", "99999999999999999999", "20000000T"})
    EXPECT_FALSE(tcp::interp::parseByteCount(bad, v)) << bad;
  EXPECT_EQ(tcp::interp::byteText(1536), "1.5 KiB");
}

std::string check(const std::string &text) {
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tcp::Compilation comp(os);
  if (comp.loadText(text, "t.tcp")) comp.run(tcp::Phase::Resolved, nullptr);
  return os.str();
}

TEST(InputLimits, DiagnosticsOnLongLinesShowAWindow) {
  std::string line = "type T = m![" + std::string(5000, ' ') + "Nope];";
  std::string out = check("axes![A = 4];\n" + line + "\n");
  EXPECT_NE(out.find("t.tcp:2:5013: error: unknown axis `Nope`"), std::string::npos) << out;
  EXPECT_LT(out.size(), 600u) << out;
  // The caret still points at the axis within the window.
  size_t nl = out.find('\n'), src = out.find('\n', nl + 1);
  std::string shown = out.substr(nl + 1, src - nl - 1), caret = out.substr(src + 1);
  EXPECT_EQ(shown.substr(caret.find('^'), 4), "Nope") << out;
}

TEST(InputLimits, PrefixRunsAndUnclosedBracketsAreRefusedBeforeParsing) {
  EXPECT_NE(check("fn main() { let x = " + std::string(300, '!') + "true; }\n").find("levels of prefix operators"),
            std::string::npos);
  EXPECT_EQ(check("fn main() { let x = " + std::string(200, '-') + "1; }\n").find("prefix operators"), std::string::npos);
  EXPECT_NE(check("fn main() {" + std::string(40, '(')).find("(41 brackets are still open at the end of the file)"),
            std::string::npos);
  std::string deep = "axes![A = 4];\ntype T = m![A";
  for (int k = 0; k < 600; ++k) deep += " / 1";
  EXPECT_NE(check(deep + "];\n").find("nested deeper than 512 levels"), std::string::npos);
}

}  // namespace
