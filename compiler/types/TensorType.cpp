// TensorType.cpp — names, sizes and the manual's spelling of tensor types.
#include "TensorType.h"

namespace tcp {

const char *tierName(Tier t) {
  switch (t) {
    case Tier::Host: return "HostTensor";
    case Tier::Hbm: return "HbmTensor";
    case Tier::Dm: return "DmTensor";
    case Tier::Trf: return "TrfTensor";
    case Tier::Vrf: return "VrfTensor";
    case Tier::Stream: return "StreamTensor";
  }
  return "?";
}

const char *stageTypeName(Stage s) {
  switch (s) {
    case Stage::Begin: return "BeginTensor";
    case Stage::Fetch: return "FetchTensor";
    case Stage::Switch: return "SwitchTensor";
    case Stage::Collect: return "CollectTensor";
    case Stage::Aligned: return "AlignedPair";
    case Stage::Contraction: return "ContractionTensor";
    case Stage::Accumulation: return "AccumulationTensor";
    case Stage::VectorInit: return "VectorInitTensor";
    case Stage::VectorBranch: return "VectorBranchTensor";
    case Stage::VectorLogic: return "VectorLogicTensor";
    case Stage::VectorFxp: return "VectorFxpTensor";
    case Stage::VectorFxpToFp: return "VectorFxpToFpTensor";
    case Stage::VectorNarrow: return "VectorNarrowTensor";
    case Stage::VectorFp: return "VectorFpTensor";
    case Stage::VectorIntraSliceReduce: return "VectorIntraSliceReduceTensor";
    case Stage::VectorFpDiv: return "VectorFpDivTensor";
    case Stage::VectorWiden: return "VectorWidenTensor";
    case Stage::VectorFpToFxp: return "VectorFpToFxpTensor";
    case Stage::VectorClip: return "VectorClipTensor";
    case Stage::VectorFilter: return "VectorFilterTensor";
    case Stage::VectorInterSliceReduce: return "VectorInterSliceReduceTensor";
    case Stage::VectorPair: return "VectorTensorPair";
    case Stage::VectorFinal: return "VectorFinalTensor";
    case Stage::Cast: return "CastTensor";
    case Stage::Transpose: return "TransposeTensor";
  }
  return "?";
}

const char *ctxName(Ctx c) {
  switch (c) {
    case Ctx::Main: return "main";
    case Ctx::Sub: return "sub";
    case Ctx::Unknown: return "T";
  }
  return "?";
}

std::vector<std::pair<const char *, MappingRef>> TensorType::dims() const {
  switch (tier) {
    case Tier::Host: return {{"Element", element}};
    case Tier::Hbm: return {{"Chip", chip}, {"Element", element}};
    case Tier::Dm:
    case Tier::Vrf: return {{"Chip", chip}, {"Cluster", cluster}, {"Slice", slice}, {"Element", element}};
    case Tier::Trf: return {{"Chip", chip}, {"Cluster", cluster}, {"Slice", slice}, {"Row", row}, {"Element", element}};
    case Tier::Stream:
      if (stage == Stage::Aligned || stage == Stage::Contraction)
        return {{"Chip", chip}, {"Cluster", cluster}, {"Slice", slice}, {"Row", row}, {"Time", time}, {"Packet", packet}};
      return {{"Chip", chip}, {"Cluster", cluster}, {"Slice", slice}, {"Time", time}, {"Packet", packet}};
  }
  return {};
}

std::string TensorType::str() const {
  std::string s = tier == Tier::Stream ? stageTypeName(stage) : tierName(tier);
  s += "<";
  if (tier == Tier::Stream) s += std::string("'l, ") + (ctx == Ctx::Main ? "{ Tu::Main }" : ctx == Ctx::Sub ? "{ Tu::Sub }" : "T") + ", ";
  s += num::dtypeName(dtype);
  for (const auto &[name, m] : dims()) s += ", " + (m ? m->str() : std::string("_"));
  return s + ">";
}

uint64_t TensorType::packetBytes() const { return packet ? num::storageBytes(dtype, packet->size()) : 0; }
uint64_t TensorType::elementBytes() const { return element ? num::storageBytes(dtype, element->size()) : 0; }

TensorType atRest(const TensorType &stream, Tier tier) {
  TensorType out;
  out.tier = tier;
  out.dtype = stream.dtype;
  out.chip = stream.chip;
  out.cluster = stream.cluster;
  out.slice = stream.slice;
  return out;
}

}  // namespace tcp
