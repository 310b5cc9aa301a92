// EngineConfig.cpp — the quantities engine configurations derive from their fields, and the names of their enums.
#include "EngineConfig.h"

#include "EngineFields.h"
#include "SequencerMetrics.h"
#include "TrfSequencer.h"

#include <algorithm>

namespace tcp {

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
}  // namespace

uint64_t FetchConfig::fetchesPerPacket() const { return ::tcp::fetchesPerPacket(packetBytes, fetchSize); }

uint64_t FetchConfig::cycles() const { return fetchCycles(timeSize, packetBytes, fetchSize); }

const std::vector<const char *> &switchParamNames(SwitchTopology t) {
  static const std::vector<const char *> none, b01 = {"slice2", "slice1", "slice0", "time1", "time0"},
                                               slices = {"slice2", "slice1", "slice0"},
                                               inter = {"slice2", "slice1", "slice0", "time2", "time1", "time0"},
                                               custom = {"ring_size"};
  switch (t) {
    case SwitchTopology::Forwarding: return none;
    case SwitchTopology::Broadcast01: return b01;
    case SwitchTopology::Broadcast1:
    case SwitchTopology::Transpose: return slices;
    case SwitchTopology::InterTranspose: return inter;
    case SwitchTopology::CustomBroadcast: return custom;
  }
  return none;
}

uint64_t SwitchEngineConfig::param(const std::string &name) const {
  if (name == "slice2") return slice2;
  if (name == "slice1") return slice1;
  if (name == "slice0") return slice0;
  if (name == "time2") return time2;
  if (name == "time1") return time1;
  if (name == "time0") return time0;
  if (name == "ring_size") return ringSize;
  return 0;
}

uint64_t SwitchEngineConfig::cyclesPerPacket() const { return std::max<uint64_t>(ceilDiv(inputPacketBytes, kPacketFlitBytes), 1); }

uint64_t SwitchEngineConfig::cycles() const { return ringSize * inputTime * cyclesPerPacket(); }

uint64_t CollectConfig::flitsPerPacket() const { return ceilDiv(inputPacketBytes, kPacketFlitBytes); }

uint64_t CollectConfig::paddingBytes() const { return flitsPerPacket() * kPacketFlitBytes - inputPacketBytes; }

int TrfLoadConfig::regType() const { return trfRegType(dtype); }

uint64_t TrfLoadConfig::capacity() const { return trfElementsPerRow(dtype, region != TrfRegion::Full); }

uint64_t TrfLoadConfig::bytesPerRow() const { return num::storageBytes(dtype, elements); }

uint64_t AlignerConfig::regReadSize() const { return trf ? trf->packetSize : 0; }

uint64_t AlignerConfig::packetBroadcast() const { return regReadSize() ? kMacWidthBytes / regReadSize() : 0; }

unsigned ReducerConfig::treeDepth() const { return num::reducerTreeDepth(input); }


uint64_t CastConfig::outputDataBytes() const { return num::storageBytes(to, elements); }

uint64_t CastConfig::outputPaddingBytes() const {
  return outputDataBytes() <= kPacketFlitBytes ? kPacketFlitBytes - outputDataBytes() : 0;
}

uint64_t DmaConfig::commandsPerChip() const {
  uint64_t n = 0;
  for (const DmaEngineWork &w : engines) n += w.commands.size();
  return n;
}

const char *engineName(EngineKind k) {
  const auto &names = enumNames(k);
  return unsigned(k) < names.size() ? names[unsigned(k)] : "?";
}

EngineConfig makeEngineConfig(EngineKind k) {
  switch (k) {
    case EngineKind::Fetch: return FetchConfig{};
    case EngineKind::Switch: return SwitchEngineConfig{};
    case EngineKind::Collect: return CollectConfig{};
    case EngineKind::TrfLoad: return TrfLoadConfig{};
    case EngineKind::VrfLoad: return VrfLoadConfig{};
    case EngineKind::Aligner: return AlignerConfig{};
    case EngineKind::Reducer: return ReducerConfig{};
    case EngineKind::Vector: return VectorConfig{};
    case EngineKind::Cast: return CastConfig{};
    case EngineKind::Transpose: return TransposeConfig{};
    case EngineKind::Commit: return CommitConfig{};
    case EngineKind::Dma: return DmaConfig{};
  }
  return FetchConfig{};
}

// ---- enum spellings (the value is the index)

const std::vector<const char *> &enumNames(num::DType) {
  static const std::vector<const char *> names = [] {
    std::vector<const char *> n;
    for (num::DType d : num::kAllDTypes) {
      if (size_t(d) != n.size()) return std::vector<const char *>{};  // kAllDTypes lists them in value order
      n.push_back(num::dtypeName(d));
    }
    return n;
  }();
  return names;
}
const std::vector<const char *> &enumNames(SwitchTopology) {
  static const std::vector<const char *> n = {"Forwarding", "Broadcast01", "Broadcast1", "Transpose", "InterTranspose",
                                              "CustomBroadcast"};
  return n;
}
const std::vector<const char *> &enumNames(TrfRegion) {
  static const std::vector<const char *> n = {"TrfAddress::Full", "TrfAddress::FirstHalf", "TrfAddress::SecondHalf"};
  return n;
}
const std::vector<const char *> &enumNames(ReduceOp) {
  static const std::vector<const char *> n = {"Add"};
  return n;
}
const std::vector<const char *> &enumNames(ReducerResize) {
  static const std::vector<const char *> n = {"none", "truncate to 32", "padding sliced"};
  return n;
}
const std::vector<const char *> &enumNames(AccumulationKind) {
  static const std::vector<const char *> n = {"Interleaved", "Sequential"};
  return n;
}
const std::vector<const char *> &enumNames(DmaMedia) {
  static const std::vector<const char *> n = {"HBM", "DM"};
  return n;
}
const std::vector<const char *> &enumNames(EngineKind) {
  static const std::vector<const char *> n = {"fetch",   "switch", "collect", "trf_load",  "vrf_load", "aligner",
                                              "reducer", "vector", "cast",    "transpose", "commit",   "dma"};
  return n;
}

// ---- range texts

std::string rangeText(uint64_t lo, uint64_t hi) { return std::to_string(lo) + " to " + std::to_string(hi); }

std::string rangeTextSigned(int64_t lo, int64_t hi) { return std::to_string(lo) + " to " + std::to_string(hi); }

std::string setText(std::initializer_list<uint64_t> values) {
  std::string s;
  size_t i = 0;
  for (uint64_t v : values) {
    s += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + std::to_string(v);
    ++i;
  }
  return s;
}

std::string enumText(const std::vector<const char *> &names) {
  std::string s = "0 to " + std::to_string(names.empty() ? 0 : names.size() - 1) + ":";
  for (size_t i = 0; i < names.size(); ++i) s += std::string(i ? ", " : " ") + names[i];
  return s;
}

}  // namespace tcp
