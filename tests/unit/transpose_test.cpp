// transpose_test.cpp — the Transpose Engine: configurations and cycles of the manual's examples, its constraints, and the CPU model on every element width against a positional answer key.
#include "DeviceTestUtil.h"
#include "TransposeEngine.h"

#include <random>
#include <sstream>

using namespace tcp;
using namespace tcp::interp;
using namespace tcp::devtest;

namespace {

// Axes from "A = 8, B = 2".
tcp::testing::Axes axesOf(const std::string &spec) {
  tcp::testing::Axes axes({});
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    axes.table.add(AxisInfo{name, std::stoull(item.substr(eq + 1)), "", ""});
  }
  return axes;
}

// A stream type of the given Time and Packet (Chip/Cluster/Slice m![1]).
TensorType streamType(const tcp::testing::Axes &axes, num::DType d, const std::string &time, const std::string &packet) {
  TensorType t;
  t.tier = Tier::Stream;
  t.stage = Stage::Collect;
  t.dtype = d;
  t.chip = t.cluster = t.slice = parseMapping(axes, "1");
  t.time = parseMapping(axes, time);
  t.packet = parseMapping(axes, packet);
  return t;
}

struct Example {
  const char *axes, *dtype, *time, *packet, *outTime, *outPacket;
  uint64_t inRows, packetsPerCol, inCols, outRows, n, cycles;
  bool doubleBuffered;
};

// "Transpose Engine" > Examples: Basic 8×8, Small Matrix, Large Column (single buffering), bf16.
const Example kExamples[] = {
    {"C = 8, D = 8, E = 8", "i8", "C, D", "E # 32", "C, E", "D # 32", 8, 1, 8, 8, 8, 72, true},
    {"A = 4, B = 2", "i8", "A", "B # 32", "B", "A # 32", 4, 1, 8, 2, 1, 6, true},
    {"B = 2, C = 8, D = 4, E = 8", "i8", "B, C, D", "E # 32", "B, D, E", "C # 32", 8, 4, 32, 32, 2, 128, false},
    {"C = 8, D = 4, E = 8", "bf16", "C, D", "E # 16", "C, E", "D # 16", 4, 1, 8, 8, 8, 68, true},
};

TEST(TransposeEngine, ManualExamplesConfigurationAndCycles) {
  for (const Example &e : kExamples) {
    tcp::testing::Axes axes = axesOf(e.axes);
    num::DType d = *num::parseDType(e.dtype);
    TensorType in = streamType(axes, d, e.time, e.packet), out = streamType(axes, d, e.outTime, e.outPacket);
    TransposeCheck chk = checkTranspose(in, out);
    ASSERT_TRUE(chk.config) << e.time << " -> " << e.outTime << ": " << (chk.errors.empty() ? "" : chk.errors[0]);
    const TransposeConfig &c = *chk.config;
    EXPECT_EQ(c.inRows, e.inRows) << e.outTime;
    EXPECT_EQ(c.packetsPerCol, e.packetsPerCol) << e.outTime;
    EXPECT_EQ(c.inCols(), e.inCols) << e.outTime;
    EXPECT_EQ(c.outRows, e.outRows) << e.outTime;
    EXPECT_EQ(c.n, e.n) << e.outTime;
    EXPECT_EQ(c.doubleBuffered(), e.doubleBuffered) << e.outTime;
    EXPECT_EQ(c.cycles(), e.cycles) << e.outTime;
  }
}

TEST(TransposeEngine, CycleFormulaBothBufferingModes) {
  TransposeConfig c;
  c.elementsPerPacket = 8;
  c.inRows = 8;
  c.packetsPerCol = 2;  // in_cols 16: still double-buffered
  c.outRows = 16;
  c.n = 3;
  EXPECT_TRUE(c.doubleBuffered());
  EXPECT_EQ(c.cyclesPerIter(), 16u);            // max(16, 16)
  EXPECT_EQ(c.cycles(), 16u + 2 * 16u + 16u);   // fill + overlap + drain
  c.packetsPerCol = 4;  // in_cols 32 > 16: single buffering
  c.outRows = 32;
  EXPECT_FALSE(c.doubleBuffered());
  EXPECT_EQ(c.cyclesPerIter(), 32u + 32u);
  EXPECT_EQ(c.cycles(), 3u * 64u);
}

TEST(TransposeEngine, LimitsPerWidth) {
  EXPECT_EQ(transposeLimits(num::DType::i4).maxInRows, 16u);
  EXPECT_EQ(transposeLimits(num::DType::i4).elementsPerPacket, 16u);
  EXPECT_EQ(transposeLimits(num::DType::i4).outputAlignment, 64u);
  EXPECT_EQ(transposeLimits(num::DType::f8e4m3).maxInRows, 8u);
  EXPECT_EQ(transposeLimits(num::DType::f16).maxInRows, 4u);
  EXPECT_EQ(transposeLimits(num::DType::bf16).outputAlignment, 16u);
  EXPECT_EQ(transposeLimits(num::DType::f32).maxInRows, 2u);
  EXPECT_EQ(transposeLimits(num::DType::i32).outputAlignment, 8u);
  EXPECT_EQ(transposeLimits(num::DType::i4).validInCols, (std::vector<uint64_t>{16, 32}));
  EXPECT_EQ(transposeLimits(num::DType::i16).validInCols, (std::vector<uint64_t>{8, 16, 32}));
}

TEST(TransposeEngine, RejectsEachConstraint) {
  tcp::testing::Axes axes = axesOf("C = 8, D = 16, E = 8, F = 3, W = 16");
  auto check = [&](const char *dt, const char *t, const char *p, const char *ot, const char *op) {
    num::DType d = *num::parseDType(dt);
    TransposeCheck chk = checkTranspose(streamType(axes, d, t, p), streamType(axes, d, ot, op));
    EXPECT_FALSE(chk.config) << t << " -> " << ot;
    return chk.errors.empty() ? std::string() : chk.errors[0];
  };
  EXPECT_NE(check("i8", "C, D", "E # 32", "C, E", "D # 32").find("Max in_rows"), std::string::npos);
  EXPECT_NE(check("i8", "C, E, F", "E # 32", "C, F, E", "E # 32").find("Valid in_cols"), std::string::npos);
  EXPECT_NE(check("i8", "C, E", "W # 32", "C, W", "E # 32").find("Input Bus Constraints"), std::string::npos);
  EXPECT_NE(check("i8", "C, E", "E # 16", "C, E", "E # 16").find("32 bytes"), std::string::npos);
  EXPECT_NE(check("i8", "C, E", "D = 8 # 32", "C, D = 4", "E # 32").find("Trim"), std::string::npos);
  EXPECT_NE(check("i8", "C, E", "D = 8 # 32", "D = 8, C", "E # 32").find("closest configuration"), std::string::npos);
}

// Every output position holds what OutTime × OutPacket say: the engine's positional gather equals a
// relayout by tensor index, for a sweep of row counts, packets per column and trims per width.
TEST(TransposeEngine, PositionMapAgreesWithTensorIndices) {
  for (num::DType d : {num::DType::i4, num::DType::i8, num::DType::bf16, num::DType::f32}) {
    TransposeLimits L = transposeLimits(d);
    for (uint64_t rows = 1; rows <= L.maxInRows; rows *= 2)
      for (uint64_t ppc : {uint64_t(1), uint64_t(2)})
        for (uint64_t data : {L.elementsPerPacket, L.elementsPerPacket / 2}) {
          std::string spec = "N = 3, R = " + std::to_string(rows) + ", Q = " + std::to_string(ppc) + ", E = " + std::to_string(data);
          tcp::testing::Axes axes = axesOf(spec);
          std::string flit = std::to_string(num::elementsPerFlit(d));
          TensorType in = streamType(axes, d, "N, R, Q", "E # " + flit);
          // Only the last packet's padding can be trimmed (Trim keeps a prefix of the rows).
          std::string cols = ppc == 1 ? "E" : "[Q, E # " + std::to_string(L.elementsPerPacket) + "] = " +
                                                  std::to_string(L.elementsPerPacket + data);
          TensorType out = streamType(axes, d, "N, " + cols, "R # " + flit);
          TransposeCheck chk = checkTranspose(in, out);
          ASSERT_TRUE(chk.config) << spec << " " << num::dtypeName(d) << ": " << (chk.errors.empty() ? "" : chk.errors[0]);
          const TransposeConfig &c = *chk.config;
          if (rows > 1) {  // with one row, one packet per column moves the data the same way
            EXPECT_EQ(c.inRows, rows);
            EXPECT_EQ(c.packetsPerCol, ppc);
            EXPECT_EQ(c.outRows, (ppc - 1) * L.elementsPerPacket + data);
          }
          for (uint64_t t = 0; t < out.time->size(); ++t)
            for (uint64_t p = 0; p < out.packet->size(); ++p) {
              auto want = out.time->map(t), pw = out.packet->map(p);
              int64_t src = c.source(t, p);
              if (!want || !pw) continue;
              ASSERT_GE(src, 0);
              auto have = in.time->map(uint64_t(src) / c.inLanes), ph = in.packet->map(uint64_t(src) % c.inLanes);
              ASSERT_TRUE(have && ph);
              want->add(*pw);
              have->add(*ph);
              ASSERT_TRUE(*want == *have) << spec << " t " << t << " p " << p << ": " << want->str() << " vs " << have->str();
            }
        }
  }
}

// ---- the CPU model: a kernel fetch → collect → transpose → commit per element type ----------------

std::string kernelSource(num::DType d) {
  TransposeLimits L = transposeLimits(d);
  std::string T = num::dtypeName(d), flit = std::to_string(num::elementsPerFlit(d));
  return "axes![P = 256, C = 4, D = " + std::to_string(L.maxInRows) + ", E = " + std::to_string(L.elementsPerPacket) +
         "];\n"
         "#[device(chip = 1)]\n"
         "fn kernel(ctx: &mut Context, x: &HbmTensor<" + T + ", m![1], m![P, C, D, E]>) -> HbmTensor<" + T +
         ", m![1], m![P, C, E, D]> {\n"
         "    let x_dm = x.to_dm::<m![1 # 2], m![P], m![C, D, E]>(&mut ctx.tdma, 0);\n"
         "    let y = ctx.main.begin(x_dm.view())\n"
         "        .fetch::<" + T + ", m![C, D], m![E]>()\n"
         "        .collect::<m![C, D], m![E # " + flit + "]>()\n"
         "        .transpose::<m![C, E], m![D # " + flit + "]>()\n"
         "        .commit::<m![C, E, D]>(1 << 12);\n"
         "    y.to_hbm(&mut ctx.tdma, 1 << 28)\n"
         "}\n";
}

// Random values of any storable type: integers in range (sign-extended), finite normal floats.
HostData randomValues(num::DType d, MappingRef m, uint32_t seed) {
  std::mt19937 rng(seed);
  HostData h;
  h.dtype = d;
  h.mapping = m;
  h.bits.assign(m->size(), 0);
  for (uint32_t &b : h.bits) {
    if (num::isInteger(d))
      b = uint32_t(int32_t(num::intMin(d) + int64_t(rng() % uint64_t(num::intMax(d) - num::intMin(d) + 1))));
    else
      b = num::f32ToFloat(d, std::uniform_real_distribution<float>(-4.f, 4.f)(rng));
  }
  return h;
}

class TransposeDevice : public ::testing::TestWithParam<num::DType> {};

TEST_P(TransposeDevice, MovesEveryElementToItsTransposedPosition) {
  num::DType d = GetParam();
  std::string src = kernelSource(d);
  Kernel k = compileKernel(std::string("transpose_") + num::dtypeName(d) + ".tcp", src.c_str());
  ASSERT_TRUE(k.fn && k.cfg);
  const TensorType &xt = k.fn->params[0].second;
  HostData x = randomValues(d, xt.element, 17);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, num::dtypeName(d));
  // Read the result in its own HBM layout [P, C, E, D] and compare positions with the input [P, C, D, E].
  HostData y = dev.toHost(*k.fn->result, out, k.fn->result->element);
  TransposeLimits L = transposeLimits(d);
  const uint64_t P = 256, C = 4, D = L.maxInRows, E = L.elementsPerPacket;
  ASSERT_EQ(y.bits.size(), P * C * D * E);
  for (uint64_t p = 0; p < P; ++p)
    for (uint64_t c = 0; c < C; ++c)
      for (uint64_t r = 0; r < D; ++r)
        for (uint64_t e = 0; e < E; ++e)
          ASSERT_EQ(y.bits[((p * C + c) * E + e) * D + r], x.bits[((p * C + c) * D + r) * E + e])
              << num::dtypeName(d) << " p " << p << " c " << c << " d " << r << " e " << e;
}

INSTANTIATE_TEST_SUITE_P(EveryWidth, TransposeDevice,
                         ::testing::Values(num::DType::i4, num::DType::i8, num::DType::f8e4m3, num::DType::f8e5m2,
                                           num::DType::i16, num::DType::bf16, num::DType::f16, num::DType::i32,
                                           num::DType::f32),
                         [](const ::testing::TestParamInfo<num::DType> &i) { return std::string(num::dtypeName(i.param)); });

// The manual's single-buffered Large Column example in a kernel: four packets per column.
TEST(TransposeDevice, LargeColumnExample) {
  const char *src = R"tcp(axes![P = 256, B = 2, C = 8, D = 4, E = 8];
#[device(chip = 1)]
fn kernel(ctx: &mut Context, x: &HbmTensor<i8, m![1], m![P, B, C, D, E]>) -> HbmTensor<i8, m![1], m![P, B, D, E, C]> {
    let x_dm = x.to_dm::<m![1 # 2], m![P], m![B, C, D, E]>(&mut ctx.tdma, 0);
    let y = ctx.main.begin(x_dm.view())
        .fetch::<i8, m![B, C, D], m![E]>()
        .collect::<m![B, C, D], m![E # 32]>()
        .transpose::<m![B, D, E], m![C # 32]>()
        .commit::<m![B, D, E, C]>(1 << 12);
    y.to_hbm(&mut ctx.tdma, 1 << 28)
}
)tcp";
  Kernel k = compileKernel("large_col.tcp", src);
  ASSERT_TRUE(k.fn && k.cfg);
  const TensorType &xt = k.fn->params[0].second;
  HostData x = randomValues(num::DType::i8, xt.element, 23);
  Device dev(1);
  dev.toHbm(x, xt, 0);
  uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, "large column transpose");
  HostData y = dev.toHost(*k.fn->result, out, k.fn->result->element);
  const uint64_t P = 256, B = 2, C = 8, D = 4, E = 8;
  for (uint64_t p = 0; p < P; ++p)
    for (uint64_t b = 0; b < B; ++b)
      for (uint64_t c = 0; c < C; ++c)
        for (uint64_t dd = 0; dd < D; ++dd)
          for (uint64_t e = 0; e < E; ++e)
            ASSERT_EQ(y.bits[(((p * B + b) * D + dd) * E + e) * C + c], x.bits[(((p * B + b) * C + c) * D + dd) * E + e]);
}

}  // namespace
