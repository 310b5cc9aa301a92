// switch_topology_test.cpp — Switch Engine topologies: the manual's bitmap tables, ring sizes, and ring routing that delivers what the mappings say.
#include "MappingTestUtil.h"
#include "SwitchTopology.h"

#include <gtest/gtest.h>

#include <set>

using namespace tcp;
using namespace tcp::testing;

namespace {

struct Case {
  MappingRef inSlice, inTime, outSlice, outTime;
};

Case parse(const Axes &ax, const char *is, const char *it, const char *os, const char *ot) {
  return {MappingParser(ax.table, is).parse(), MappingParser(ax.table, it).parse(), MappingParser(ax.table, os).parse(),
          MappingParser(ax.table, ot).parse()};
}

SwitchMatch run(const Case &c, const std::string &name, std::vector<std::pair<std::string, uint64_t>> fields) {
  return matchSwitch({name, std::move(fields)}, c.inSlice, c.inTime, c.outSlice, c.outTime);
}

// The ring routing of SwitchPlan: per output slice, the (input slice, input time) of each packet it outputs.
std::vector<std::vector<std::pair<uint32_t, uint64_t>>> route(const SwitchPlan &p) {
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> out(p.slices);
  for (uint64_t g = 0; g < p.slices / p.ringSize; ++g)
    for (const auto &[s, t] : p.emissions(g))
      for (uint64_t o = g * p.ringSize; o < (g + 1) * p.ringSize; ++o)
        if (p.accepts(o, s, t)) out[o].push_back({s, t});
  return out;
}

// Every packet the ring delivers to (o, τ) carries the tensor coordinates the output mappings give
// (o, τ) — on the axes of the input; new (broadcast) axes are free.
void expectRoutingMatchesMappings(const Case &c, const SwitchPlan &p) {
  std::set<std::string> inAxes;
  for (const MappingRef &m : {c.inSlice, c.inTime})
    for (const AxisInfo &a : m->axes()) inAxes.insert(a.name);
  auto restrict = [&](const Index &i) {
    Index r;
    for (const auto &[axis, v] : i.entries())
      if (inAxes.count(axis)) r.set(axis, v);
    return r;
  };
  auto routed = route(p);
  for (uint64_t o = 0; o < p.slices; ++o) {
    auto so = c.outSlice->map(o);
    if (!so) continue;
    ASSERT_EQ(routed[o].size(), p.outTime) << "slice " << o;
    for (uint64_t tau = 0; tau < p.outTime; ++tau) {
      auto to = c.outTime->map(tau);
      if (!to) continue;
      auto [s, t] = routed[o][tau];
      Index want = restrict(*so), have;
      want.add(restrict(*to));
      if (auto si = c.inSlice->map(s)) have.add(*si);
      if (auto ti = c.inTime->map(t)) have.add(*ti);
      ASSERT_EQ(want, have) << "slice " << o << " time " << tau << ": " << want.str() << " vs " << have.str();
    }
  }
}

}  // namespace

TEST(SwitchTopology, Broadcast01ManualExample) {
  Axes ax{{"A", 256}, {"B", 64}, {"X", 4}};
  Case c = parse(ax, "A", "B", "A / 4, X", "B / 4, A / 2 % 2, B % 4, A % 2");
  SwitchMatch m = run(c, "Broadcast01", {{"slice1", 2}, {"slice0", 2}, {"time0", 4}});
  ASSERT_TRUE(m.plan) << (m.errors.empty() ? "" : m.errors[0]);
  const SwitchPlan &p = *m.plan;
  EXPECT_EQ(p.param("slice2"), 64u);  // "slice2 = 256 / (2 * 2) = 64"
  EXPECT_EQ(p.param("time1"), 16u);   // "time1 = 64 / 4 = 16"
  EXPECT_EQ(p.ringSize, 4u);
  // The table: rows 0-3 snoop {0, 1, 2, 3}, row 4 {4, 5, 6, 7}, row 255 {252, ..., 255}.
  for (int o = 0; o < 4; ++o) EXPECT_EQ(p.bitmaps[o], (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(p.bitmaps[4], (std::vector<uint32_t>{4, 5, 6, 7}));
  EXPECT_EQ(p.bitmaps[255], (std::vector<uint32_t>{252, 253, 254, 255}));
  EXPECT_EQ(p.cycles(64), 512u);  // i8 packets of 64 bytes: (2 × 2) × 64 × 2
  EXPECT_EQ(p.emissions(0).size(), 4u * 64u);
  expectRoutingMatchesMappings(c, p);
}

TEST(SwitchTopology, RegularTopologiesRouteWhatTheMappingsSay) {
  {
    Axes ax{{"A", 256}, {"B", 64}, {"X", 4}};
    Case c = parse(ax, "A", "B", "A / 32, X, A % 8", "B, A / 8 % 4");
    SwitchMatch m = run(c, "Broadcast1", {{"slice1", 4}, {"slice0", 8}});
    ASSERT_TRUE(m.plan);
    EXPECT_EQ(m.plan->bitmaps[0], (std::vector<uint32_t>{0, 8, 16, 24}));
    expectRoutingMatchesMappings(c, *m.plan);
  }
  {
    Axes ax{{"A", 256}, {"B", 64}};
    Case c = parse(ax, "A", "B", "A / 64, A % 2, A / 2 % 32", "B");
    SwitchMatch m = run(c, "Transpose", {{"slice1", 32}, {"slice0", 2}});
    ASSERT_TRUE(m.plan);
    EXPECT_EQ(m.plan->bitmaps[1], (std::vector<uint32_t>{2}));   // output slice 1 = (A % 2 = 0, A / 2 % 32 = 1)
    EXPECT_EQ(m.plan->bitmaps[32], (std::vector<uint32_t>{1}));  // output slice 32 = (A % 2 = 1, A / 2 % 32 = 0)
    expectRoutingMatchesMappings(c, *m.plan);
  }
  {
    Axes ax{{"A", 8}, {"C", 256}};
    Case c = parse(ax, "C", "A", "C / 32, A / 2 % 2, C % 16", "A / 4, A % 2, C / 16 % 2");
    SwitchMatch m = run(c, "InterTranspose", {{"slice1", 2}, {"slice0", 16}, {"time0", 2}});
    ASSERT_TRUE(m.plan);
    EXPECT_EQ(m.plan->param("slice2"), 8u);  // "The compiler derives: slice2 = 8, time2 = 2"
    EXPECT_EQ(m.plan->param("time2"), 2u);
    expectRoutingMatchesMappings(c, *m.plan);
  }
}

TEST(SwitchTopology, CustomBitmapsOfTheManualTables) {
  Axes ax{{"A", 16}, {"B", 16}, {"C", 8}, {"X", 4}, {"Y", 2}, {"Z", 2}};
  // Example 1: rows 0-3 and 255 of the table; rows 4 and 5 follow the mapping (A % 4 = 1 is A = 1,
  // input slice 16), not the table's (A, B) = (0, 1) (docs/manual-errata.md).
  Case c1 = parse(ax, "A, B", "C", "B % 4, B / 4, A % 4, A / 4", "C");
  SwitchMatch m1 = run(c1, "CustomBroadcast", {{"ring_size", 256}});
  ASSERT_TRUE(m1.plan);
  std::vector<std::vector<uint32_t>> rows = {{0}, {64}, {128}, {192}, {16}, {80}};
  for (size_t o = 0; o < rows.size(); ++o) EXPECT_EQ(m1.plan->bitmaps[o], rows[o]) << o;
  EXPECT_EQ(m1.plan->bitmaps[255], (std::vector<uint32_t>{255}));
  EXPECT_EQ(requiredRingSize(m1.plan->bitmaps), 256u);
  EXPECT_EQ(m1.plan->cycles(64), 4096u);
  expectRoutingMatchesMappings(c1, *m1.plan);
  // Example 2: bitmap[0] = bitmap[1] = {0, 1, 16, 17}, bitmap[255] = {238, 239, 254, 255}, ring 32.
  Case c2 = parse(ax, "A, B", "C", "A / 2, Y, B / 2, Z", "C, A % 2, B % 2");
  SwitchMatch m2 = run(c2, "CustomBroadcast", {{"ring_size", 32}});
  ASSERT_TRUE(m2.plan);
  EXPECT_EQ(m2.plan->bitmaps[0], (std::vector<uint32_t>{0, 1, 16, 17}));
  EXPECT_EQ(m2.plan->bitmaps[1], (std::vector<uint32_t>{0, 1, 16, 17}));
  EXPECT_EQ(m2.plan->bitmaps[2], (std::vector<uint32_t>{2, 3, 18, 19}));
  EXPECT_EQ(m2.plan->bitmaps[255], (std::vector<uint32_t>{238, 239, 254, 255}));
  EXPECT_EQ(requiredRingSize(m2.plan->bitmaps), 32u);
  EXPECT_EQ(m2.plan->cycles(64), 512u);
  expectRoutingMatchesMappings(c2, *m2.plan);
  // Example 3: bitmap[0] = {0, 1, 2}, bitmap[4] = {4, 5, 6}, bitmap[255] = {252, 253, 254}, ring 4.
  Case c3 = parse(ax, "A, B", "C", "A, B / 4, X", "C, B % 4 = 3");
  SwitchMatch m3 = run(c3, "CustomBroadcast", {{"ring_size", 4}});
  ASSERT_TRUE(m3.plan);
  EXPECT_EQ(m3.plan->bitmaps[0], (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(m3.plan->bitmaps[4], (std::vector<uint32_t>{4, 5, 6}));
  EXPECT_EQ(m3.plan->bitmaps[255], (std::vector<uint32_t>{252, 253, 254}));
  EXPECT_EQ(m3.plan->cycles(64), 64u);  // 4 × 8 × 2; the manual prints 128
  expectRoutingMatchesMappings(c3, *m3.plan);
}

TEST(SwitchTopology, RouterDecisionExampleOrder) {
  // The 2-slice example inside a cluster: slice 0 holds packets [0, 1], slice 1 [2, 3] (value = 2A + B).
  // Both output slices deliver Time m![B / 2, B % 2, A % 2]: [0, 2, 1, 3], B-major as the stated
  // output mapping says; the manual's cycle table lists [0, 1, 2, 3].
  Axes ax{{"A", 2}, {"B", 2}, {"X", 2}};
  Case c = parse(ax, "A # 256", "B", "A / 2 # 128, X", "B / 2, B % 2, A % 2");
  SwitchMatch m = run(c, "Broadcast01", {{"slice1", 1}, {"slice0", 2}, {"time0", 2}});
  ASSERT_TRUE(m.plan) << (m.errors.empty() ? "" : m.errors[0]);
  auto routed = route(*m.plan);
  for (int o = 0; o < 2; ++o) {
    std::vector<uint64_t> values;
    for (auto [s, t] : routed[o]) values.push_back(2 * s + t);
    EXPECT_EQ(values, (std::vector<uint64_t>{0, 2, 1, 3})) << "slice " << o;
  }
  expectRoutingMatchesMappings(c, *m.plan);
}

TEST(SwitchTopology, ConstraintViolationsNameTheRule) {
  Axes ax{{"A", 16}, {"B", 16}, {"C", 8}, {"X", 4}, {"Y", 2}, {"Z", 2}};
  auto firstError = [&](const char *os, const char *ot, uint64_t ring) {
    SwitchMatch m = run(parse(ax, "A, B", "C", os, ot), "CustomBroadcast", {{"ring_size", ring}});
    EXPECT_FALSE(m.plan);
    return m.errors.empty() ? std::string() : m.errors[0];
  };
  EXPECT_NE(firstError("A, B / 4, X", "C, B % 2, B / 2 % 2", 4).find("Constraint 1: Order Preservation"), std::string::npos);
  EXPECT_NE(firstError("A / 2, Y, B / 2, Z", "A % 2, C, B % 2", 32).find("Constraint 2: Innermost Time Position"), std::string::npos);
  EXPECT_NE(firstError("A / 2, Y, B / 2, Z", "C, A % 2, B % 2", 16).find("needs ring_size 32"), std::string::npos);
  // The valid order of Constraint 1.
  EXPECT_TRUE(run(parse(ax, "A, B", "C", "A, B / 4, X", "C, B / 2 % 2, B % 2"), "CustomBroadcast", {{"ring_size", 4}}).plan);
}
