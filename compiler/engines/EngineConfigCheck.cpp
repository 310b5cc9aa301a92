// EngineConfigCheck.cpp — validates an engine configuration: every field's range (EngineFields.h) and the rules tying fields together.
#include "EngineConfig.h"

#include "EngineFields.h"
#include "TrfSequencer.h"

#include <algorithm>

namespace tcp {

namespace {

std::string dec(uint64_t v) { return std::to_string(v); }

// Walks a configuration and records the first field outside its declared range.
class RangeCheck : FieldPaths {
 public:
  std::optional<FieldError> error;

  template <class T> void u(const char *n, T &x, uint64_t lo, uint64_t hi) {
    if (uint64_t(x) < lo || uint64_t(x) > hi) fail(n, "is " + dec(uint64_t(x)) + " (expected " + rangeText(lo, hi) + ")");
  }
  template <class T> void s(const char *n, T &x, int64_t lo, int64_t hi) {
    if (int64_t(x) < lo || int64_t(x) > hi)
      fail(n, "is " + std::to_string(int64_t(x)) + " (expected " + rangeTextSigned(lo, hi) + ")");
  }
  template <class T> void oneOf(const char *n, T &x, std::initializer_list<uint64_t> set) {
    if (std::find(set.begin(), set.end(), uint64_t(x)) == set.end())
      fail(n, "is " + dec(uint64_t(x)) + " (expected " + setText(set) + ")");
  }
  template <class E> void e(const char *n, E &x) {
    const auto &names = enumNames(x);
    if (size_t(x) >= names.size()) fail(n, "is " + dec(size_t(x)) + " (expected " + enumText(names) + ")");
  }
  void flag(const char *, bool &) {}
  void str(const char *n, std::string &x) {
    for (size_t k = 0; k < x.size(); ++k)
      if (uint8_t(x[k]) < 0x20 || x[k] == 0x7f) return fail(n, "contains a control byte at offset " + dec(k));
  }
  void bitmap(const char *, SliceBitmap &) {}
  template <class F> void sub(const char *n, F fn) { nested(path(n), fn); }
  template <class T, class F> void opt(const char *n, std::optional<T> &x, F fn) {
    if (x) nested(path(n), [&] { fn(*x); });
  }
  template <class T, class F> void list(const char *n, std::vector<T> &x, size_t max, F fn) {
    if (x.size() > max) return fail(n, "has " + dec(x.size()) + " elements (expected at most " + dec(max) + ")");
    for (size_t i = 0; i < x.size() && !error; ++i) nested(path(n) + "[" + dec(i) + "]", [&] { fn(x[i]); });
  }
  template <class F> void when(const char *, bool present, F fn) {
    if (present) fn();
  }

 private:
  void fail(const char *n, std::string problem) {
    if (!error) error = FieldError{path(n), std::move(problem)};
  }
};

using Problem = std::optional<FieldError>;
Problem bad(std::string field, std::string problem) { return FieldError{std::move(field), std::move(problem)}; }

bool powerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

Problem check(const FetchConfig &f, Ctx ctx) {
  if (!num::isStorable(f.inType)) return bad("in_type", std::string("is ") + num::dtypeName(f.inType) + " (a pipeline-only type is not in DM)");
  if (ctx == Ctx::Sub && f.fetchSize != 4 && f.fetchSize != 8)
    return bad("fetch_size", "is " + dec(f.fetchSize) + " (expected 4 or 8 in the sub context)");
  if (f.packetBytes % f.fetchSize)
    return bad("fetch_size", "is " + dec(f.fetchSize) + " (expected a divisor of packet_bytes " + dec(f.packetBytes) + ")");
  uint64_t outBytes = f.packetBytes * num::storageBits(f.outType) / num::storageBits(f.inType);
  if (outBytes % 8)
    return bad("packet_bytes", "is " + dec(f.packetBytes) + " (the output packet, " + dec(outBytes) + " bytes of " +
                                   num::dtypeName(f.outType) + ", must be a multiple of 8: FETCH_ALIGN_BYTES)");
  if (const auto &m = f.masking) {
    size_t entries = f.sequencer.entries.size();
    if (m->lastDim >= entries)
      return bad("masking.last_dim", "is " + dec(m->lastDim) + " (expected an entry of the sequencer's " + dec(entries) + ")");
    if (m->perIndex) {
      if (m->countDim >= entries)
        return bad("masking.last_dim_rightmost_valid_count_dim",
                   "is " + dec(m->countDim) + " (expected an entry of the sequencer's " + dec(entries) + ")");
      if (m->validCounts.empty())
        return bad("masking.last_dim_rightmost_valid_count", "is empty (expected one count per index, at most 8)");
      if (m->leftPad) return bad("masking.left_pad", "is " + dec(m->leftPad) + " (expected 0: per-index masking has no left pad)");
    } else {
      uint64_t limit = 1024 / num::storageBits(f.inType) - 1;
      if (m->validCounts.size() != 1)
        return bad("masking.last_dim_rightmost_valid_count", "has " + dec(m->validCounts.size()) + " counts (expected 1)");
      if (m->validCounts[0] > limit)
        return bad("masking.last_dim_rightmost_valid_count[0]",
                   "is " + dec(m->validCounts[0]) + " (expected 0 to " + dec(limit) + " for " + num::dtypeName(f.inType) + ")");
      if (m->countDim) return bad("masking.last_dim_rightmost_valid_count_dim", "is " + dec(m->countDim) + " (expected 0: one count)");
    }
  }
  if (const auto &t = f.table)
    if (!tableIndexType(t->type.in))
      return bad("table.index_type", std::string("is ") + num::dtypeName(t->type.in) + " (expected i4, i8, f8e4m3 or f8e5m2)");
  if (const auto &z = f.zeroPoints) {
    if (!z->perTensor && z->values.size() > 1) return bad("zero_points.values", "has " + dec(z->values.size()) + " values (expected 1)");
    if (num::isInteger(f.inType)) {  // i8 (the API's type) and the target type
      const num::DType bound = num::zeroPointBound(f.outType);
      int64_t lo = num::intMin(bound), hi = num::intMax(bound);
      for (size_t k = 0; k < z->values.size(); ++k)
        if (z->values[k] < lo || z->values[k] > hi)
          return bad("zero_points.values[" + dec(k) + "]", "is " + std::to_string(z->values[k]) + " (expected " +
                                                               rangeTextSigned(lo, hi) + ", the range of " + num::dtypeName(bound) + ")");
    }
  }
  return std::nullopt;
}

Problem check(const SwitchEngineConfig &c, Ctx) {
  const auto &names = switchParamNames(c.topology);
  for (const char *p : {"slice2", "slice1", "slice0", "time2", "time1", "time0"}) {
    bool used = std::any_of(names.begin(), names.end(), [&](const char *n) { return std::string(n) == p; });
    uint64_t v = c.param(p);
    if (used && v == 0) return bad(p, std::string("is 0 (expected at least 1: ") + topologyName(c.topology) + " has it)");
    if (!used && v != 0) return bad(p, "is " + dec(v) + " (expected 0: " + topologyName(c.topology) + " has no " + p + ")");
  }
  uint64_t ring = 1;
  if (c.topology == SwitchTopology::CustomBroadcast) ring = c.ringSize;
  else if (c.topology != SwitchTopology::Forwarding) {
    if (uint64_t(c.slice2) * c.slice1 * c.slice0 != kSlicesPerCluster)
      return bad("slice2", "× slice1 × slice0 is " + dec(uint64_t(c.slice2) * c.slice1 * c.slice0) + " (expected 256 slices)");
    ring = uint64_t(c.slice1) * c.slice0;
  }
  if (c.ringSize != ring) return bad("ring_size", "is " + dec(c.ringSize) + " (expected " + dec(ring) + " for " + topologyName(c.topology) + ")");
  if (c.topology == SwitchTopology::Broadcast01 && c.time1 * c.time0 != c.inputTime)
    return bad("time1", "× time0 is " + dec(c.time1 * c.time0) + " (expected input_time " + dec(c.inputTime) + ")");
  if (c.topology == SwitchTopology::InterTranspose) {
    if (c.time1 != c.slice1) return bad("time1", "is " + dec(c.time1) + " (expected slice1 " + dec(c.slice1) + ")");
    if (c.time2 * c.time1 * c.time0 != c.inputTime)
      return bad("time2", "× time1 × time0 is " + dec(c.time2 * c.time1 * c.time0) + " (expected input_time " + dec(c.inputTime) + ")");
  }
  if (c.snoop.size() != kSlicesPerCluster) return bad("snoop", "has " + dec(c.snoop.size()) + " bitmaps (expected one per slice, 256)");
  for (size_t o = 0; o < c.snoop.size(); ++o)
    for (size_t s = 0; s < kSlicesPerCluster; ++s)
      if (c.snoop[o][s] && s / ring != o / ring)
        return bad("snoop[" + dec(o) + "]", "accepts slice " + dec(s) + " (expected slices of its ring of " + dec(ring) + ", " +
                                               dec(o / ring * ring) + " to " + dec(o / ring * ring + ring - 1) + ")");
  return std::nullopt;
}

Problem check(const CollectConfig &, Ctx) { return std::nullopt; }

Problem check(const TrfLoadConfig &c, Ctx) {
  if (c.regType() < 0) return bad("dtype", std::string("is ") + num::dtypeName(c.dtype) + " (expected a TRF type: i4, i8, f8e4m3, f8e5m2 or bf16)");
  if (c.elements > c.capacity())
    return bad("elements", "is " + dec(c.elements) + " (expected at most " + dec(c.capacity()) + " per Row of the region)");
  if (c.bytesPerRow() > 8 * 1024) return bad("elements", "need " + dec(c.bytesPerRow()) + " bytes (expected at most 8 KB per Row)");
  return std::nullopt;
}

Problem check(const VrfLoadConfig &c, Ctx) {
  if (uint64_t(c.vrfAddress) + c.bytes > kVrfBytesPerSlice)
    return bad("bytes", "is " + dec(c.bytes) + " at address " + dec(c.vrfAddress) + " (expected to end within the 8 KB VRF)");
  return std::nullopt;
}

Problem check(const AlignerConfig &c, Ctx) {
  if (c.trf) {
    if (!powerOfTwo(c.trf->packetSize) || c.trf->packetSize > kMacWidthBytes)
      return bad("trf_sequencer.packet_size", "is " + dec(c.trf->packetSize) + " (expected reg_read_size 1, 2, 4, 8, 16, 32 or 64)");
    if (c.trf->baseOffset) return bad("trf_sequencer.base_offset", "is " + std::to_string(c.trf->baseOffset) + " (expected 0)");
  }
  return std::nullopt;
}

Problem check(const ReducerConfig &c, Ctx) {
  if (!num::isReducerInput(c.input)) return bad("input", std::string("is ") + num::dtypeName(c.input) + " (expected i4, i8, f8e4m3, f8e5m2 or bf16)");
  if (c.output != num::reducerOutputType(c.input))
    return bad("output", std::string("is ") + num::dtypeName(c.output) + " (expected " + num::dtypeName(num::reducerOutputType(c.input)) + ")");
  if (c.spatialDepth > c.treeDepth())
    return bad("spatial_depth", "is " + dec(c.spatialDepth) + " (expected at most the tree depth " + dec(c.treeDepth()) + ")");
  return std::nullopt;
}

// A kernel's program is init, an entry (intra_slice_branch, intra_slice_unzip or inter_slice_reduce),
// the stages in pipeline order, final; a stage function's is a run of it. Stash steps and the
// inter-slice block may sit between stages; the ALU stages may repeat, each ALU once per pass.
Problem checkVector(const VectorConfig &c, bool stage) {
  const auto &s = c.steps;
  if (s.empty()) return bad("steps", "is empty (expected the stages of the Vector Engine in order)");
  if (!stage && (s.size() < 3 || s.front().stage != VeStage::Init || s.back().stage != VeStage::Final))
    return bad("steps", "is not init, ..., final (the stages of the Vector Engine in order)");
  auto name = [](VeStage st) { return std::string(enumNames(st)[size_t(st)]); };
  std::optional<VeStage> last;
  uint32_t alus = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    const VectorStep &st = s[k];
    if (st.dtype != num::DType::i32 && st.dtype != num::DType::f32)
      return bad("steps[" + dec(k) + "].dtype", std::string("is ") + num::dtypeName(st.dtype) + " (the Vector Engine computes on i32 or f32)");
    if (st.stage == VeStage::Stash) continue;
    if (st.stage == VeStage::InterReduce || (st.stage == VeStage::Branch && last == VeStage::InterReduce)) {
      alus = 0;  // a block boundary: the next intra-slice block is a new pass
      last = st.stage;
      continue;
    }
    bool repeatable = st.stage == VeStage::Logic || st.stage == VeStage::Fxp || st.stage == VeStage::Fp || st.stage == VeStage::Clip;
    if (last && last != VeStage::InterReduce && (st.stage < *last || (st.stage == *last && !repeatable)))
      return bad("steps[" + dec(k) + "].stage",
                 "is " + name(st.stage) + " after " + name(*last) + " (the stages of the Vector Engine in order)");
    std::optional<VeAlu> alu;
    if (st.stage == VeStage::Logic) alu = logicAlu(LogicOp(st.op));
    if (st.stage == VeStage::Fxp) alu = fxpAlu(FxpOp(st.op));
    if (st.stage == VeStage::Fp) alu = fpAlu(FpOp(st.op));
    if (st.stage == VeStage::Clip) alu = clipAlu(ClipOp(st.op));
    if (alu) {
      if (alus & (1u << unsigned(*alu)))
        return bad("steps[" + dec(k) + "].op", std::string("uses the ALU ") + aluName(*alu) + " again (each ALU once per pass)");
      alus |= 1u << unsigned(*alu);
    }
    last = st.stage;
  }
  return std::nullopt;
}

Problem check(const CastConfig &c, Ctx) {
  bool ok = (c.from == num::DType::i32 && (c.to == num::DType::i4 || c.to == num::DType::i8 || c.to == num::DType::i16)) ||
            (c.from == num::DType::f32 && (c.to == num::DType::f8e5m2 || c.to == num::DType::f8e4m3 ||
                                           c.to == num::DType::f16 || c.to == num::DType::bf16));
  if (!ok) return bad("to", std::string("is ") + num::dtypeName(c.to) + " (the Cast Engine lowers i32 to i4, i8, i16 and f32 to f8e5m2, f8e4m3, f16, bf16; from is " + num::dtypeName(c.from) + ")");
  if (c.outputDataBytes() > kPacketFlitBytes)
    return bad("elements", "is " + dec(c.elements) + " (expected at most " + dec(num::elementsPerFlit(c.to)) + ": one 32-byte flit of " + num::dtypeName(c.to) + ")");
  return std::nullopt;
}

Problem check(const TransposeConfig &c, Ctx) {
  num::DType d = c.bits == 4 ? num::DType::i4 : c.bits == 8 ? num::DType::i8 : c.bits == 16 ? num::DType::bf16 : num::DType::f32;
  TransposeLimits L = transposeLimits(d);
  std::string width = dec(c.bits) + "-bit";
  if (c.elementsPerPacket != L.elementsPerPacket)
    return bad("elements_per_packet", "is " + dec(c.elementsPerPacket) + " (expected " + dec(L.elementsPerPacket) + " for " + width + " types)");
  if (c.outputAlignment != L.outputAlignment)
    return bad("output_alignment", "is " + dec(c.outputAlignment) + " (expected " + dec(L.outputAlignment) + " for " + width + " types)");
  if (c.inRows > L.maxInRows) return bad("in_rows", "is " + dec(c.inRows) + " (expected at most " + dec(L.maxInRows) + " for " + width + " types)");
  if (std::find(L.validInCols.begin(), L.validInCols.end(), c.inCols()) == L.validInCols.end())
    return bad("packets_per_col", "makes in_cols " + dec(c.inCols()) + " (expected " + (c.bits == 4 ? "16 or 32" : "8, 16 or 32") + ")");
  if (c.outRows > c.inCols()) return bad("out_rows", "is " + dec(c.outRows) + " (expected at most in_cols " + dec(c.inCols()) + ")");
  return std::nullopt;
}

Problem check(const CommitConfig &c, Ctx ctx) {
  if (!num::isStorable(c.dtype)) return bad("dtype", std::string("is ") + num::dtypeName(c.dtype) + " (a pipeline-only type is not in DM)");
  if (ctx == Ctx::Sub && c.commitSize != 8) return bad("commit_size", "is " + dec(c.commitSize) + " (expected 8 in the sub context)");
  if (c.commitInSize % c.commitSize)
    return bad("commit_size", "is " + dec(c.commitSize) + " (expected a divisor of commit_in_size " + dec(c.commitInSize) + ")");
  if (c.writeOffsets.size() != c.commitInSize / c.commitSize)
    return bad("write_offsets", "has " + dec(c.writeOffsets.size()) + " offsets (expected commit_in_size / commit_size = " +
                                    dec(c.commitInSize / c.commitSize) + ")");
  if (c.sliceBitmap && (c.sliceBitmap->none() || c.sliceBitmap->all()))
    return bad("slice_bitmap", std::string("enables ") + (c.sliceBitmap->none() ? "no slice" : "every slice") +
                                   " (expected some but not all of the 256 slices; without a bitmap every slice commits)");
  return std::nullopt;
}

Problem check(const DmaConfig &c, Ctx) {
  for (size_t e = 0; e < c.engines.size(); ++e) {
    if (c.engines[e].commands.empty()) return bad("engines[" + dec(e) + "].commands", "is empty (expected at least one command)");
    for (size_t k = 0; k < e; ++k)
      if (c.engines[k].cluster == c.engines[e].cluster && c.engines[k].pair == c.engines[e].pair)
        return bad("engines[" + dec(e) + "]", "is engine (" + dec(c.engines[e].cluster) + ", " + dec(c.engines[e].pair) + ") again");
  }
  return std::nullopt;
}

}  // namespace

std::optional<FieldError> checkEngineConfig(const EngineConfig &e, Ctx ctx, bool stage) {
  RangeCheck r;
  visitEngineFields(r, const_cast<EngineConfig &>(e));
  if (r.error) return r.error;
  return std::visit(
      [&](const auto &c) -> Problem {
        if constexpr (std::is_same_v<std::decay_t<decltype(c)>, VectorConfig>) return checkVector(c, stage);
        else return check(c, ctx);
      },
      e);
}

}  // namespace tcp
