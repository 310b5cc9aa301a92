// mapping_bench.cpp — normalization cost and map() throughput: deep trees vs their normal forms.
#include "MappingFactor.h"
#include "MappingNormalForm.h"
#include "MappingTestUtil.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace {
using namespace tcp;
using tcp::testing::Axes;
using tcp::testing::M;
using tcp::testing::RandomMappings;

// The chapter's mappings (and the sequencer chapter's), parsed once.
struct Manual {
  Axes ax{{"A", 8}, {"B", 512}, {"C", 13}, {"D", 61}, {"N", 8}, {"H", 8}, {"W", 32}, {"F", 3}};
  std::vector<MappingRef> all;
  Manual() {
    for (const char *body :
         {"A, B", "C, D # 64", "A, B = 2 # 4", "A, B / 32 = 2 # 16, B % 32", "B / 64, B % 64", "B / 64, B % 32, B / 32 % 2",
          "(D # 64) / 8, (D # 64) % 8", "A / 8 # 256", "1, A", "[A, B] / 512", "N, C, H, W",
          "W / 16, H % 2, H / 2, N / 2, N % 2, W / 8 % 2, W % 8", "A % 2, B % 4, A / 2, B / 4, D # 64", "$(N:1, F:2)",
          "# 2 + B + # 4", "A + 1#"})
      all.push_back(M(ax, body));
  }
};
const Manual &manual() {
  static const Manual m;
  return m;
}

// A deep but simple tree: m![N, C, H, W] rewritten by the manual's laws into 60+ nodes
// (`[[N / 2, N % 2] / 1, 1], [C # 13, ...]`); its normal form is m![N, C, H, W] again.
MappingRef deepNchw(const Axes &ax) {
  std::string n = "[[N / 4, N % 4] / 1, 1] # 8", c = "[1, (C / 1) # 13] = 13", h = "[H / 2 # 4, H % 2] % 8",
              w = "[[W / 16, W / 8 % 2] # 4 # 8 = 4, W % 8] / 1";
  return M(ax, "[" + n + ", " + c + "], [" + h + ", [" + w + ", 1] # 32]");
}

std::vector<MappingRef> randomDeep(unsigned depth, size_t count) {
  static const Axes ax{{"A", 2}, {"B", 3}, {"C", 4}, {"D", 6}, {"F", 5}, {"G", 8}};
  RandomMappings::Options opt;
  opt.maxDepth = depth;
  opt.maxSize = 1 << 16;
  RandomMappings gen(ax.table, 42, opt);
  std::vector<MappingRef> out;
  while (out.size() < count) {
    MappingRef m = gen.next();
    if (m->size() >= 64) out.push_back(m);
  }
  return out;
}

// ---------------------------------------------------------------- normalization

void BM_NormalizeManual(benchmark::State &state) {
  const auto &all = manual().all;
  for (auto _ : state)
    for (const MappingRef &m : all) benchmark::DoNotOptimize(normalize(m));
  state.SetItemsProcessed(state.iterations() * all.size());
}
BENCHMARK(BM_NormalizeManual);

// Reference for the one above: printing the same trees (a walk of each tree, no algebra).
void BM_PrintManual_Reference(benchmark::State &state) {
  const auto &all = manual().all;
  for (auto _ : state)
    for (const MappingRef &m : all) benchmark::DoNotOptimize(m->str());
  state.SetItemsProcessed(state.iterations() * all.size());
}
BENCHMARK(BM_PrintManual_Reference);

void BM_NormalizeRandomDeep(benchmark::State &state) {
  std::vector<MappingRef> all = randomDeep(static_cast<unsigned>(state.range(0)), 256);
  for (auto _ : state)
    for (const MappingRef &m : all) benchmark::DoNotOptimize(normalize(m));
  state.SetItemsProcessed(state.iterations() * all.size());
}
BENCHMARK(BM_NormalizeRandomDeep)->Arg(4)->Arg(7);

void BM_PrintRandomDeep_Reference(benchmark::State &state) {
  std::vector<MappingRef> all = randomDeep(static_cast<unsigned>(state.range(0)), 256);
  for (auto _ : state)
    for (const MappingRef &m : all) benchmark::DoNotOptimize(m->str());
  state.SetItemsProcessed(state.iterations() * all.size());
}
BENCHMARK(BM_PrintRandomDeep_Reference)->Arg(4)->Arg(7);

void BM_EquivalentManualPairs(benchmark::State &state) {
  const Axes &ax = manual().ax;
  std::vector<std::pair<MappingRef, MappingRef>> pairs{{M(ax, "B / 64, B % 64"), M(ax, "B")},
                                                       {M(ax, "(D # 64) / 8, (D # 64) % 8"), M(ax, "D # 64")},
                                                       {M(ax, "[A, B] / 512"), M(ax, "A")},
                                                       {deepNchw(ax), M(ax, "N, C, H, W")}};
  for (auto _ : state)
    for (const auto &[a, b] : pairs) benchmark::DoNotOptimize(equivalent(a, b));
  state.SetItemsProcessed(state.iterations() * pairs.size());
}
BENCHMARK(BM_EquivalentManualPairs);

// ---------------------------------------------------------------- map() throughput (positions/s)

enum Form { Tree, NormalizedTree, NormalFormDirect, Factors };

template <Form F>
void mapAllPositions(benchmark::State &state, const std::vector<MappingRef> &trees) {
  std::vector<MappingRef> norm;
  std::vector<NormalForm> nfs;
  std::vector<Factorization> fs;
  uint64_t positions = 0;
  for (const MappingRef &m : trees) {
    norm.push_back(normalize(m));
    nfs.push_back(normalForm(m));
    fs.push_back(factorization(m));
    positions += m->size();
  }
  for (auto _ : state) {
    for (size_t k = 0; k < trees.size(); ++k)
      for (uint64_t i = 0; i < trees[k]->size(); ++i) {
        if constexpr (F == Tree) benchmark::DoNotOptimize(trees[k]->map(i));
        if constexpr (F == NormalizedTree) benchmark::DoNotOptimize(norm[k]->map(i));
        if constexpr (F == NormalFormDirect) benchmark::DoNotOptimize(nfs[k].map(i));
        if constexpr (F == Factors) benchmark::DoNotOptimize(fs[k].map(i));
      }
  }
  state.SetItemsProcessed(state.iterations() * positions);
}

// The deep NCHW tree (reference: the unnormalized tree itself).
void BM_MapDeepNchw_Tree_Reference(benchmark::State &s) { mapAllPositions<Tree>(s, {deepNchw(manual().ax)}); }
void BM_MapDeepNchw_Normalized(benchmark::State &s) { mapAllPositions<NormalizedTree>(s, {deepNchw(manual().ax)}); }
void BM_MapDeepNchw_NormalForm(benchmark::State &s) { mapAllPositions<NormalFormDirect>(s, {deepNchw(manual().ax)}); }
void BM_MapDeepNchw_Factors(benchmark::State &s) { mapAllPositions<Factors>(s, {deepNchw(manual().ax)}); }
BENCHMARK(BM_MapDeepNchw_Tree_Reference);
BENCHMARK(BM_MapDeepNchw_Normalized);
BENCHMARK(BM_MapDeepNchw_NormalForm);
BENCHMARK(BM_MapDeepNchw_Factors);

// 64 random deep mappings (depth 7).
const std::vector<MappingRef> &deep64() {
  static const std::vector<MappingRef> all = randomDeep(7, 64);
  return all;
}
void BM_MapRandomDeep_Tree_Reference(benchmark::State &s) { mapAllPositions<Tree>(s, deep64()); }
void BM_MapRandomDeep_Normalized(benchmark::State &s) { mapAllPositions<NormalizedTree>(s, deep64()); }
void BM_MapRandomDeep_NormalForm(benchmark::State &s) { mapAllPositions<NormalFormDirect>(s, deep64()); }
BENCHMARK(BM_MapRandomDeep_Tree_Reference);
BENCHMARK(BM_MapRandomDeep_Normalized);
BENCHMARK(BM_MapRandomDeep_NormalForm);

// The manual's mappings (reference: their trees as written).
void BM_MapManual_Tree_Reference(benchmark::State &s) { mapAllPositions<Tree>(s, manual().all); }
void BM_MapManual_Normalized(benchmark::State &s) { mapAllPositions<NormalizedTree>(s, manual().all); }
BENCHMARK(BM_MapManual_Tree_Reference);
BENCHMARK(BM_MapManual_Normalized);

}  // namespace
