// device_dma_replay_test.cpp — to_dm / to_hbm by tensor index and by replaying the derived DMA sequencers give the same bytes.
#include "DeviceTestUtil.h"

#include <gtest/gtest.h>

namespace {

using namespace tcp::devtest;

// Runs `path` (one HBM parameter) with and without sequencer replay and compares the results.
void crossCheck(const std::string &path, tcp::num::DType d, unsigned seed) {
  Kernel k = compileKernel(path);
  ASSERT_TRUE(k.fn && k.fn->result);
  const tcp::TensorType &t = k.fn->params[0].second;
  tcp::interp::HostData in = randomHost(d, t.element, seed);
  tcp::interp::HostData results[2];
  for (int replay = 0; replay < 2; ++replay) {
    tcp::interp::Device dev(1);
    dev.setReplayDma(replay == 1);
    dev.toHbm(in, t, 0);
    uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, {0}, replay ? "replay" : "index");
    results[replay] = dev.toHost(*k.fn->result, out, k.fn->result->element);
  }
  ASSERT_EQ(results[0].bits.size(), results[1].bits.size());
  for (size_t i = 0; i < results[0].bits.size(); ++i) ASSERT_EQ(results[0].bits[i], results[1].bits[i]) << path << " " << i;
}

TEST(DeviceDmaReplay, ConstantAddMatchesIndexTables) { crossCheck("tests/conformance/manual/002_kernel.tcp", tcp::num::DType::i32, 3); }

TEST(DeviceDmaReplay, GemvMatchesIndexTables) {
  Kernel k = compileKernel("samples/hello/gemv.tcp");
  ASSERT_TRUE(k.fn && k.fn->result);
  std::vector<tcp::interp::HostData> ins;
  for (size_t p = 0; p < k.fn->params.size(); ++p)
    ins.push_back(randomHost(k.fn->params[p].second.dtype, k.fn->params[p].second.element, 11 + unsigned(p)));
  tcp::interp::HostData results[2];
  for (int replay = 0; replay < 2; ++replay) {
    tcp::interp::Device dev(1);
    dev.setReplayDma(replay == 1);
    std::vector<uint64_t> args;
    for (size_t p = 0; p < ins.size(); ++p) {
      args.push_back(uint64_t(p) << 24);
      dev.toHbm(ins[p], k.fn->params[p].second, args.back());
    }
    uint64_t out = timedLaunch(dev, *k.fn, *k.cfg, args, replay ? "gemv replay" : "gemv index");
    results[replay] = dev.toHost(*k.fn->result, out, k.fn->result->element);
  }
  ASSERT_EQ(results[0].bits.size(), results[1].bits.size());
  size_t nonzero = 0;
  for (size_t i = 0; i < results[0].bits.size(); ++i) {
    ASSERT_EQ(results[0].bits[i], results[1].bits[i]) << i;
    nonzero += results[0].bits[i] != 0;
  }
  EXPECT_GT(nonzero, 0u);
}

}  // namespace
