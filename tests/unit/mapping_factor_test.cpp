// mapping_factor_test.cpp — factorization and term placement on the manual's sequencer examples.
#include "MappingFactor.h"
#include "MappingTestUtil.h"

#include <gtest/gtest.h>

namespace tcp::testing {
namespace {

// "size : stride" of every entry the stream terms give against the buffer, as in the manual's
// configurations ("[8 : 1, 8 : 8, 3 : 64, 4 : 192]"); failures print as "!message".
std::string entries(const Axes &ax, const std::string &buf, std::initializer_list<const char *> streams) {
  std::vector<FactorTerm> b = factorize(M(ax, buf));
  std::string out;
  for (const char *s : streams)
    for (const FactorTerm &t : factorize(M(ax, s))) {
      Placement p = locate(t, b);
      if (!out.empty()) out += ", ";
      if (p.status != Placement::Located && p.status != Placement::Broadcast) {
        out += "!" + p.message;
        continue;
      }
      for (size_t k = 0; k < p.pieces.size(); ++k)
        out += (k ? ", " : "") + std::to_string(p.pieces[k].count) + " : " + std::to_string(p.pieces[k].bufStride);
    }
  return out;
}

TEST(Factorization, TermsAndBufferStrides) {
  Axes ax{{"A", 8}, {"B", 8}, {"C", 8}};
  std::vector<FactorTerm> f = factorize(M(ax, "A, B, C # 32"));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].str(), "A");
  EXPECT_EQ(f[0].bufStride, 256u);
  EXPECT_EQ(f[1].bufStride, 32u);
  EXPECT_EQ(f[2].str(), "C # 32");
  EXPECT_EQ(f[2].count, 32u);
  EXPECT_EQ(f[2].valid(), 8u);
  EXPECT_EQ(f[2].bufStride, 1u);
  // Splits stay separate terms unless contiguous: `B / 4, B % 4` is one term.
  std::vector<FactorTerm> g = factorize(M(ax, "A % 2, B / 4, B % 4, A / 2"));
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].str(), "A % 2");
  EXPECT_EQ(g[1].str(), "B");
  EXPECT_EQ(g[2].str(), "A / 2");
  EXPECT_EQ(g[2].axisStride, 2u);
  EXPECT_EQ(g[0].bufStride, 32u);
  // Constant coordinates are carried by the first term of their axis, or by a size-1 term.
  std::vector<FactorTerm> h = factorize(M(ax, "(A / 2) @ 3 = 1, B @ 2"));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].str(), "A @ 6 = 1");
  EXPECT_EQ(h[0].base, 6u);
  EXPECT_EQ(h[1].str(), "B @ 2");
  EXPECT_EQ(h[1].base, 2u);
  Axes d{{"D", 61}};
  std::vector<FactorTerm> p = factorize(M(d, "1 # 2, (D # 64) / 8, (D # 64) % 8"));
  ASSERT_EQ(p.size(), 1u);  // `1 # 2` pads the term after it, which is one contiguous `D # 128`
  EXPECT_EQ(p[0].str(), "D # 128");
  EXPECT_EQ(p[0].valid(), 61u);
}

TEST(Factorization, ManualConfigurationExamples) {
  {  // [N, C, H, W] ↔ [W, H, C, N]: [8 : 1, 8 : 8, 3 : 64, 4 : 192] : 1
    Axes ax{{"N", 4}, {"C", 3}, {"H", 8}, {"W", 8}};
    EXPECT_EQ(entries(ax, "N, C, H, W", {"W, H, C, N", "1"}), "8 : 1, 8 : 8, 3 : 64, 4 : 192");
  }
  {  // Rearranging axes
    Axes ax{{"A", 8}, {"B", 8}, {"C", 8}};
    EXPECT_EQ(entries(ax, "A, B, C # 32", {"B, A", "C # 16"}), "8 : 32, 8 : 256, 16 : 1");
  }
  {  // Splitting axes
    Axes ax{{"A", 8}, {"B", 8}, {"C", 4}};
    EXPECT_EQ(entries(ax, "A, B, C # 8", {"A % 2, B % 4, A / 2, B / 4", "C # 32"}),
              "2 : 64, 4 : 8, 4 : 128, 2 : 32, 32 : 1");
  }
  {  // Slicing axes
    Axes ax{{"A", 16}, {"B", 8}, {"C", 8}};
    EXPECT_EQ(entries(ax, "A, B, C", {"A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C"}),
              "4 : 256, 3 : 64, 2 : 32, 2 : 8, 8 : 1");
  }
  {  // Broadcasting axes: absent from Buf, stride 0
    Axes ax{{"A", 16}, {"T", 4}, {"P", 4}};
    EXPECT_EQ(entries(ax, "A", {"T, A", "P"}), "4 : 0, 16 : 1, 4 : 0");
  }
  {  // Merging entries: C / 2, C % 2 and N / 2, N % 2 are single terms already
    Axes ax{{"N", 8}, {"C", 8}, {"H", 8}, {"W", 32}};
    EXPECT_EQ(entries(ax, "N, C, H, W", {"W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "W % 8"}),
              "2 : 16, 2 : 32, 4 : 64, 8 : 256, 8 : 2048, 2 : 8, 8 : 1");
  }
  {  // Strided access: 8 x 512 as 128 packets of 32
    Axes ax{{"A", 8}, {"B", 512}};
    EXPECT_EQ(entries(ax, "A, B", {"A, B / 32", "B % 32"}), "8 : 512, 16 : 32, 32 : 1");
  }
}

TEST(Factorization, ConfigurationFailures) {
  {  // Insufficient input: Time needs N / 512, Buf only holds N % 512.
    Axes ax{{"N", 2048}};
    std::vector<FactorTerm> buf = factorize(M(ax, "N % 512"));
    Placement time = locate(factorize(M(ax, "N / 512"))[0], buf);
    EXPECT_EQ(time.status, Placement::Insufficient);
    EXPECT_EQ(time.message,
              "insufficient input: `N / 512` needs axis `N` at stride 512, which the buffer does not hold");
    EXPECT_EQ(locate(factorize(M(ax, "N % 512"))[0], buf).status, Placement::Located);
  }
  {  // Incompatible shapes: base-5 buffer, base-3 packet.
    Axes ax{{"A", 15}};
    std::vector<FactorTerm> buf = factorize(M(ax, "A % 5, A / 5"));
    std::vector<FactorTerm> packet = factorize(M(ax, "A % 3, A / 3"));
    ASSERT_EQ(packet.size(), 2u);
    Placement lo = locate(packet[0], buf), hi = locate(packet[1], buf);
    EXPECT_EQ(lo.status, Placement::Located);
    EXPECT_EQ(hi.status, Placement::Incompatible);
    EXPECT_EQ(hi.message, "incompatible shapes: `A / 3` and the buffer's `A % 5` split axis `A` differently");
    AxisOverlap o = overlap(packet[1], buf[0]);
    EXPECT_FALSE(o.disjoint);
    EXPECT_FALSE(o.aligned);
  }
  {  // A slice of the buffer cannot give more than it holds.
    Axes ax{{"B", 8}};
    std::vector<FactorTerm> buf = factorize(M(ax, "B = 2 # 4"));
    EXPECT_EQ(locate(factorize(M(ax, "B = 2"))[0], buf).status, Placement::Located);
    Placement p = locate(factorize(M(ax, "B = 3"))[0], buf);
    EXPECT_EQ(p.status, Placement::Insufficient);
    EXPECT_EQ(p.message, "insufficient input: `B = 3` needs more of axis `B` than the buffer's `B = 2 # 4` holds");
  }
  {  // Parts that do not decompose are reported, not guessed.
    Axes ax{{"B", 90}, {"A", 4}};
    std::vector<FactorTerm> buf = factorize(M(ax, "A, # 2 + B + # 4"));
    Placement p = locate(factorize(M(ax, "B"))[0], buf);
    EXPECT_EQ(p.status, Placement::Unsupported);
    EXPECT_EQ(p.message, "axis `B` sits in the buffer part `2# + B + 4#`, which does not decompose into axis terms");
    EXPECT_EQ(locate(factorize(M(ax, "A"))[0], buf).status, Placement::Located);
  }
}

TEST(Factorization, TermsSplitAcrossBufferTerms) {
  Axes ax{{"A", 16}, {"B", 2}};
  std::vector<FactorTerm> buf = factorize(M(ax, "A / 4, B, A % 4"));
  Placement p = locate(factorize(M(ax, "A"))[0], buf);
  ASSERT_EQ(p.status, Placement::Located);
  ASSERT_EQ(p.pieces.size(), 2u);
  EXPECT_EQ(p.pieces[0].count, 4u);
  EXPECT_EQ(p.pieces[0].bufStride, 8u);
  EXPECT_EQ(p.pieces[0].bufTerm, 0u);
  EXPECT_EQ(p.pieces[1].count, 4u);
  EXPECT_EQ(p.pieces[1].bufStride, 1u);
  EXPECT_EQ(p.pieces[1].bufTerm, 2u);
  // `A / 2` steps every other element of A % 4 and then A / 4.
  Placement q = locate(factorize(M(ax, "A / 2"))[0], buf);
  ASSERT_EQ(q.status, Placement::Located);
  ASSERT_EQ(q.pieces.size(), 2u);
  EXPECT_EQ(q.pieces[0].count, 4u);
  EXPECT_EQ(q.pieces[1].count, 2u);
  EXPECT_EQ(q.pieces[1].bufStride, 2u);
  AxisOverlap o = overlap(factorize(M(ax, "A"))[0], buf[0]);
  EXPECT_TRUE(o.aligned);
  EXPECT_EQ(o.inner, 4u);
  EXPECT_EQ(o.common, 4u);
  EXPECT_EQ(o.outer, 1u);
}

TEST(Factorization, BufferOffsets) {
  Axes ax{{"A", 8}, {"B", 512}};
  std::vector<FactorTerm> buf = factorize(M(ax, "A, B"));
  EXPECT_EQ(bufferOffset("A", 3, buf), 3u * 512);
  EXPECT_EQ(bufferOffset("B", 7, buf), 7u);
  EXPECT_EQ(bufferOffset("C", 1, buf), std::nullopt);
  std::vector<FactorTerm> shifted = factorize(M(ax, "A @ 2, B / 4, B % 4"));
  EXPECT_EQ(bufferOffset("A", 3, shifted), 512u);
  EXPECT_EQ(bufferOffset("A", 1, shifted), std::nullopt);
  EXPECT_EQ(bufferOffset("B", 9, shifted), 9u);
}

}  // namespace
}  // namespace tcp::testing
