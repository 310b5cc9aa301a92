// numerics_bench.cpp — Highway-dispatched numeric kernels vs their scalar references (same run, same data).
#include "NumericKernels.h"
#include "Numerics.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {
using namespace tcp::num;

constexpr size_t kN = 1 << 14;  // elements per call (L1/L2 resident)

// Records the dispatch target in the benchmark context header.
[[maybe_unused]] const int kContext = (benchmark::AddCustomContext("numerics_dispatch_target", kernelTargetName()), 0);

struct Data {
  std::vector<uint16_t> bf16a, bf16b;
  std::vector<int8_t> i8a, i8b;
  std::vector<int32_t> i32a, i32b;
  std::vector<float> f32a, f32b;
  Data() {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> uni(-4.0f, 4.0f);
    for (size_t i = 0; i < kN; ++i) {
      bf16a.push_back(f32ToBf16(uni(rng)));
      bf16b.push_back(f32ToBf16(uni(rng)));
      i8a.push_back(int8_t(rng()));
      i8b.push_back(int8_t(rng()));
      i32a.push_back(int32_t(rng()));
      i32b.push_back(int32_t(rng() % 4096));
      f32a.push_back(uni(rng));
      f32b.push_back(uni(rng));
    }
  }
};
const Data &data() {
  static const Data d;
  return d;
}

void finish(benchmark::State &st, size_t bytesPerIter) {
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kN));
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(bytesPerIter));
}

void Bf16ToF32(benchmark::State &st, void (*fn)(const uint16_t *, float *, size_t)) {
  std::vector<float> out(kN);
  for (auto _ : st) {
    fn(data().bf16a.data(), out.data(), kN);
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 6);
}
void F32ToBf16(benchmark::State &st, void (*fn)(const float *, uint16_t *, size_t)) {
  std::vector<uint16_t> out(kN);
  for (auto _ : st) {
    fn(data().f32a.data(), out.data(), kN);
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 6);
}
void TreeBf16(benchmark::State &st, void (*fn)(const uint16_t *, const uint16_t *, size_t, unsigned, float *)) {
  std::vector<float> out(kN / kBf16PacketLanes);
  for (auto _ : st) {
    fn(data().bf16a.data(), data().bf16b.data(), kN / kBf16PacketLanes, 5, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 4);
}
// The contraction fast path's tree over gathered packets (pre-widened f32, packet indices), with and
// without the flushes; same packets as TreeBf16, so items_per_second compares with it directly.
void TreeF32Packets(benchmark::State &st, void (*fn)(const float *, const uint32_t *, const float *, const uint32_t *,
                                                      size_t, unsigned, bool, float *),
                    bool noSubnormals) {
  const size_t packets = kN / kBf16PacketLanes;
  std::vector<float> x(kN), w(kN), out(packets);
  ref::bf16ToF32(data().bf16a.data(), x.data(), kN);
  ref::bf16ToF32(data().bf16b.data(), w.data(), kN);
  std::vector<uint32_t> idx(packets);
  for (size_t k = 0; k < packets; ++k) idx[k] = uint32_t(k);
  for (auto _ : st) {
    fn(x.data(), idx.data(), w.data(), idx.data(), packets, 5, noSubnormals, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 8);
}
BENCHMARK_CAPTURE(TreeF32Packets, reduceTreeF32Packets_vector_flushing, &tcp::num::reduceTreeF32Packets, false);
BENCHMARK_CAPTURE(TreeF32Packets, reduceTreeF32Packets_vector_no_subnormals, &tcp::num::reduceTreeF32Packets, true);
BENCHMARK_CAPTURE(TreeF32Packets, reduceTreeF32Packets_scalar, &tcp::num::ref::reduceTreeF32Packets, false);

// The blocked path's tree over transposed tiles: the same number of packets as TreeBf16, as a GEMM's
// step has them (tasks of 8 packets sharing a broadcast packet, 4 tasks per tile, affine outputs).
void TreeF32Tiles(benchmark::State &st, void (*fn)(const float *, const float *, const TileTask *, size_t,
                                                    const uint32_t *, unsigned, size_t, bool, float *),
                  bool noSubnormals) {
  const size_t packets = kN / kBf16PacketLanes, tasks = packets / kTileLanes, tiles = tasks / 4;
  std::vector<float> tile(tiles * kTileLanes * kBf16PacketLanes), bcast(tasks * kBf16PacketLanes), out(packets);
  ref::bf16ToF32(data().bf16a.data(), tile.data(), tile.size());
  ref::bf16ToF32(data().bf16b.data(), bcast.data(), bcast.size());
  std::vector<TileTask> ts(tasks);
  for (size_t t = 0; t < tasks; ++t) ts[t] = TileTask{uint32_t(t / 4), uint32_t(t), uint32_t(t), int32_t(tasks)};
  for (auto _ : st) {
    fn(tile.data(), bcast.data(), ts.data(), tasks, nullptr, 5, 1, noSubnormals, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 8);
}
BENCHMARK_CAPTURE(TreeF32Tiles, reduceTreeF32Tiles_vector_flushing, &tcp::num::reduceTreeF32Tiles, false);
BENCHMARK_CAPTURE(TreeF32Tiles, reduceTreeF32Tiles_vector_no_subnormals, &tcp::num::reduceTreeF32Tiles, true);
BENCHMARK_CAPTURE(TreeF32Tiles, reduceTreeF32Tiles_scalar, &tcp::num::ref::reduceTreeF32Tiles, false);

void TreeI8(benchmark::State &st, void (*fn)(const int8_t *, const int8_t *, size_t, unsigned, int32_t *)) {
  std::vector<int32_t> out(kN / kI8PacketLanes);
  for (auto _ : st) {
    fn(data().i8a.data(), data().i8b.data(), kN / kI8PacketLanes, 6, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 2);
}
void DotBf16(benchmark::State &st, float (*fn)(const uint16_t *, const uint16_t *, size_t)) {
  for (auto _ : st) benchmark::DoNotOptimize(fn(data().bf16a.data(), data().bf16b.data(), kN));
  finish(st, kN * 4);
}
void DotI8(benchmark::State &st, int32_t (*fn)(const int8_t *, const int8_t *, size_t)) {
  for (auto _ : st) benchmark::DoNotOptimize(fn(data().i8a.data(), data().i8b.data(), kN));
  finish(st, kN * 2);
}
void BinI32(benchmark::State &st, void (*fn)(const int32_t *, const int32_t *, int32_t *, size_t)) {
  std::vector<int32_t> out(kN);
  for (auto _ : st) {
    fn(data().i32a.data(), data().i32b.data(), out.data(), kN);
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 12);
}
void BinF32(benchmark::State &st, void (*fn)(const float *, const float *, float *, size_t)) {
  std::vector<float> out(kN);
  for (auto _ : st) {
    fn(data().f32a.data(), data().f32b.data(), out.data(), kN);
    benchmark::DoNotOptimize(out.data());
  }
  finish(st, kN * 12);
}

// Each kernel twice: vector (dispatched) then scalar reference; compare items_per_second pairwise.
#define TCP_NUM_BENCH(Harness, name)                                  \
  BENCHMARK_CAPTURE(Harness, name##_vector, &tcp::num::name);         \
  BENCHMARK_CAPTURE(Harness, name##_scalar, &tcp::num::ref::name)

TCP_NUM_BENCH(Bf16ToF32, bf16ToF32);
TCP_NUM_BENCH(F32ToBf16, f32ToBf16);
TCP_NUM_BENCH(TreeBf16, reduceTreeBf16);
TCP_NUM_BENCH(TreeI8, reduceTreeI8);
TCP_NUM_BENCH(DotBf16, dotBf16);
TCP_NUM_BENCH(DotI8, dotI8);
TCP_NUM_BENCH(BinI32, addWrapI32);
TCP_NUM_BENCH(BinI32, addSatI32);
TCP_NUM_BENCH(BinI32, subSatI32);
TCP_NUM_BENCH(BinI32, mulWrapI32);
TCP_NUM_BENCH(BinI32, mulSatI32);
TCP_NUM_BENCH(BinF32, addF32);
TCP_NUM_BENCH(BinF32, mulF32);

}  // namespace
