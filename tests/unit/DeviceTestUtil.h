// DeviceTestUtil.h — helpers of the device tests: host tensors, HBM types, compiling kernels, timed launches.
#pragma once

#include "Device.h"
#include "Driver.h"
#include "MappingTestUtil.h"
#include "NumericKernels.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <llvm/Support/raw_ostream.h>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace tcp::devtest {

using namespace tcp::interp;

inline MappingRef parseMapping(const tcp::testing::Axes &axes, const std::string &text) {
  return tcp::testing::MappingParser(axes.table, text).parse();
}

inline TensorType hbmType(num::DType d, MappingRef chip, MappingRef element) {
  TensorType t;
  t.tier = Tier::Hbm;
  t.dtype = d;
  t.chip = std::move(chip);
  t.element = std::move(element);
  return t;
}

inline HostData randomHost(num::DType d, MappingRef m, uint32_t seed) {
  std::mt19937 rng(seed);
  HostData h;
  h.dtype = d;
  h.mapping = m;
  h.bits.assign(m->size(), 0);
  for (uint64_t i = 0; i < m->size(); ++i) {
    if (!m->map(i)) continue;
    uint32_t r = rng();
    switch (d) {
      case num::DType::i8: h.bits[i] = uint32_t(int32_t(int8_t(r))); break;
      case num::DType::i4: h.bits[i] = uint32_t(int32_t(r % 16) - 8); break;
      case num::DType::i16: h.bits[i] = uint32_t(int32_t(int16_t(r))); break;
      case num::DType::bf16: h.bits[i] = num::f32ToBf16(std::uniform_real_distribution<float>(-1.f, 1.f)(rng)); break;
      default: h.bits[i] = r; break;
    }
  }
  return h;
}

// The value at each tensor index, for comparing tensors laid out by different mappings.
inline std::map<std::string, uint32_t> byIndex(const HostData &h, const AxisTable &axes) {
  std::map<std::string, uint32_t> out;
  for (uint64_t i = 0; i < h.mapping->size(); ++i)
    if (auto idx = h.mapping->map(i)) {
      idx->sortBy(axes);
      out[idx->str()] = h.bits[i];
    }
  return out;
}

struct Kernel {
  std::unique_ptr<Compilation> comp;
  const TypedFunction *fn = nullptr;
  const FunctionConfig *cfg = nullptr;
};

inline Kernel compileKernel(const std::string &relPath, const char *text = nullptr) {
  Kernel k;
  k.comp = std::make_unique<Compilation>(llvm::errs());
  EXPECT_TRUE(text ? k.comp->loadText(text, relPath) : k.comp->load(std::string(TCP_SOURCE_DIR) + "/" + relPath));
  EXPECT_TRUE(k.comp->run(Phase::Config, nullptr)) << relPath;
  for (const TypedFunction &f : k.comp->typed().functions)
    if (f.isDevice) k.fn = &f;
  if (k.fn)
    for (const FunctionConfig &c : k.comp->lowered().functions)
      if (c.name == k.fn->name) k.cfg = &c;
  EXPECT_TRUE(k.fn && k.cfg) << relPath;
  return k;
}

// Launches and reports the wall time in the test log.
inline uint64_t timedLaunch(Device &dev, const TypedFunction &fn, const FunctionConfig &cfg, const std::vector<uint64_t> &args,
                     const char *what) {
  auto t0 = std::chrono::steady_clock::now();
  std::optional<uint64_t> out;
  try {
    out = dev.launch(fn, cfg, args);
  } catch (const DeviceError &e) {
    ADD_FAILURE() << what << ": " << e.message;
    return 0;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing   ] %s: launch %.1f ms\n", what, ms);
  EXPECT_TRUE(out.has_value());
  return out.value_or(0);
}

inline float bf(uint32_t bits) { return num::bf16ToF32(uint16_t(bits)); }

// The skeleton of the contraction test kernels: x (`xMap`) and w (`wMap`) of element type `d` moved
// to DM at 0 and 4 KiB; w fetched by the sub context into the TRF (`trfChain`, Row `trfRow`, Element
// `trfElement`); x fetched by the main context through `mainChain` and committed at 8 KiB as `out`
// (`outD`, `outMap`), which goes back to HBM. The chains are the `.fetch…` lines between `.begin` and
// `.to_trf` / `.commit`.
struct ContractionKernel {
  std::string axes, d, xMap, wMap, outD, outMap, trfRow, trfElement, trfChain, mainChain;
  std::string source() const {
    return "axes![" + axes + "];\n\ntype Chip = m![1];\ntype Cluster = m![1 # 2];\ntype Slice = m![1 # 256];\n\n"
           "#[device(chip = 1)]\nfn kernel(\n    ctx: &mut Context,\n"
           "    x: &HbmTensor<" + d + ", Chip, m![" + xMap + "]>,\n"
           "    w: &HbmTensor<" + d + ", Chip, m![" + wMap + "]>,\n"
           ") -> HbmTensor<" + outD + ", Chip, m![" + outMap + "]> {\n"
           "    let x: DmTensor<" + d + ", Chip, Cluster, Slice, m![" + xMap + "]> = x.to_dm(&mut ctx.tdma, 0);\n"
           "    let w: DmTensor<" + d + ", Chip, Cluster, Slice, m![" + wMap + "]> = w.to_dm(&mut ctx.tdma, 1 << 12);\n"
           "    let wt: TrfTensor<" + d + ", Chip, Cluster, Slice, m![" + trfRow + "], m![" + trfElement + "]> = ctx\n"
           "        .sub\n        .begin(w.view())\n" + trfChain + "        .to_trf(TrfAddress::Full);\n"
           "    let r: DmTensor<" + outD + ", Chip, Cluster, Slice, m![" + outMap + "]> = ctx\n"
           "        .main\n        .begin(x.view())\n" + mainChain + "        .commit(1 << 13);\n"
           "    r.to_hbm(&mut ctx.tdma, 2 << 28)\n}\n";
  }
};

}  // namespace tcp::devtest
