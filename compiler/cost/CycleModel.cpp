// CycleModel.cpp — per-engine cycles of each Tensor Unit operation and the DMA ops of each function.
#include "CycleModel.h"

#include <llvm/Support/ErrorHandling.h>

#include "SwitchTopology.h"
#include "TransposeEngine.h"
#include "BankStarvation.h"
#include "DmaCost.h"
#include "DmaLowering.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tcp {

const char *resourceName(Resource r) {
  switch (r) {
    case Resource::Main: return "main";
    case Resource::Sub: return "sub";
    case Resource::Dma: return "dma";
  }
  return "?";
}

const char *memTierName(MemTier t) {
  switch (t) {
    case MemTier::Hbm: return "hbm";
    case MemTier::Dm: return "dm";
    case MemTier::Trf: return "trf";
    case MemTier::Vrf: return "vrf";
  }
  return "?";
}

bool overlaps(const MemRange &a, const MemRange &b) {
  if (a.tier != b.tier) return false;
  if (a.whole || b.whole) return true;
  return a.begin < b.end && b.begin < a.end;
}

namespace {

// Positions of one mapping holding a tensor index (padding positions excluded).
uint64_t activeMappingPositions(const MappingRef &m) {
  constexpr uint64_t kEnumerated = uint64_t(1) << 16;
  if (!m) return 1;
  if (m->size() > kEnumerated) return activeSize(m);
  uint64_t n = 0;
  for (uint64_t i = 0; i < m->size(); ++i) n += m->map(i).has_value();
  return n;
}

}  // namespace

uint64_t activePositions(const TensorType &t) {
  uint64_t n = 1;
  for (const MappingRef *m : {&t.chip, &t.cluster, &t.slice, &t.time, &t.row, &t.packet}) n *= activeMappingPositions(*m);
  return n;
}

namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
uint64_t sizeOf(const MappingRef &m) { return m ? m->size() : 1; }

// Slices × clusters × chips a tensor is spread over (padding positions hold nothing).
uint64_t placements(const TensorType &t) { return activeSize(t.slice) * activeSize(t.cluster) * activeSize(t.chip); }

// A stage function has no lowered configuration: derive its fetch cycles and commit writes as the
// lowering does ("Fetch Engine" / "Commit Engine"); nullopt when the sequencer cannot be derived.
std::optional<uint64_t> stageFetchCycles(const TypedOp &op, Ctx ctx) {
  unsigned inBits = num::storageBits(op.in.dtype);
  auto seq = fetchSequencer(op);
  const SeqResult &r = *seq;
  if (!r.ok()) return std::nullopt;
  unsigned outBits = op.out.dtype != op.in.dtype ? num::storageBits(op.out.dtype) : 0;
  FetchPlan p = planFetch(r, inBits, ctx == Ctx::Sub ? Context::Sub : Context::Main, outBits);
  return p.cycles;
}

std::optional<uint64_t> stageCommitWrites(const TypedOp &op, Ctx ctx) {
  unsigned bits = num::storageBits(op.out.dtype);
  auto seq = commitSequencer(op);
  const SeqResult &r = *seq;
  if (!r.ok()) return std::nullopt;
  return planCommit(r, bits, ctx == Ctx::Sub ? Context::Sub : Context::Main).writesPerPacket;
}

MemTier memTier(Tier t) {
  switch (t) {
    case Tier::Hbm: return MemTier::Hbm;
    case Tier::Trf: return MemTier::Trf;
    case Tier::Vrf: return MemTier::Vrf;
    default: return MemTier::Dm;
  }
}

// Where tensor `id` of the function lives (its placed address); `whole` when it has none (kernel
// parameters, TRF regions) or the op names no tensor.
MemRange rangeOf(const TypedFunction &f, int id, const TensorType &t) {
  MemRange r;
  r.tier = memTier(t.tier);
  if (id >= 0 && id < static_cast<int>(f.tensors.size()) && f.tensors[id].address) {
    r.begin = *f.tensors[id].address;
    r.end = r.begin + t.elementBytes();
    return r;
  }
  r.whole = true;
  return r;
}

// The cost of Tensor Unit chain `chain` (ops in program order) with its lowered configuration.
OpCost chainCost(const TypedFunction &f, int chain, const TuConfig *tu) {
  using namespace cost;
  OpCost c;
  c.resource = Resource::Main;
  bool first = true;
  bool vectorSeen = false, vectorCosted = false;
  uint64_t vectorAlus = 0, vectorFlits = 0, vectorTail = 0;
  std::string names;
  for (size_t i = 0; i < f.ops.size(); ++i) {
    const TypedOp &op = f.ops[i];
    if (op.chain != chain || isDmaOp(op)) continue;
    if (first) {
      c.line = op.line;
      Ctx ctx = op.name == "begin" ? op.out.ctx : op.in.ctx;
      c.resource = ctx == Ctx::Sub ? Resource::Sub : Resource::Main;
      first = false;
    }
    const std::string &n = op.name;
    if (n == "begin") {
      // The streamed DM tensor: its address is the begin's.
      MemRange r{MemTier::Dm, op.address.value_or(0), op.address.value_or(0) + op.in.elementBytes(), !op.address};
      c.reads.push_back(r);
      // `begin_interleaved` reads its second tensor too (the scheduler's RAW and WAR edges need both).
      for (size_t k = 0; k < op.operands.size(); ++k)
        c.reads.push_back(rangeOf(f, k < op.operandTensors.size() ? op.operandTensors[k] : -1, op.operands[k]));
      continue;
    }
    // The op's name lists its engines in order; the Vector Engine's steps appear as one "vector".
    bool vectorStep = n.rfind("vector_", 0) == 0;
    if (!vectorStep || !vectorSeen) names += (names.empty() ? "" : ".") + (vectorStep ? "vector" : n);
    uint64_t places = placements(op.out.tier == Tier::Stream ? op.out : op.in);
    uint64_t inTime = sizeOf(op.in.time), outTime = sizeOf(op.out.time);
    uint64_t inFlits = ceilDiv(op.in.packetBytes(), kFlitBytes);
    if (n == "fetch") {
      // "Fetch Engine": #cycles = Time::SIZE × ceil(packet bytes / fetch_size), from the lowering.
      const FetchConfig *e = tu ? tu->find<FetchConfig>() : nullptr;
      uint64_t cyc = e ? e->cycles() : stageFetchCycles(op, op.in.ctx).value_or(outTime);
      c.engines.push_back({"fetch", cyc, kStageLatency});
      // "Table Indexing" > Performance: "additional latency" without a figure; one lookup stage at the
      // fetch's rate with the per-engine latency (docs/cycle-model.md).
      if (op.arg == "table") c.engines.push_back({"table", cyc, kStageLatency});
      c.bytes[MemTier::Dm].read += outTime * op.out.packetBytes() * places;
      // Without `.switch`, the Switch Engine forwards (ring_size 1, "Forwarding").
      bool switched = false;
      for (const TypedOp &o : f.ops)
        if (o.chain == chain && o.name == "switch") switched = true;
      if (!switched)
        c.engines.push_back(
            {"switch", outTime * std::max<uint64_t>(ceilDiv(op.out.packetBytes(), kFlitBytes), 1), kStageLatency});
    } else if (n == "switch") {
      // "Switch Engine": ring_size × input_time × cycles_per_packet (packet bytes / 32), the ring of
      // the matched topology (SwitchTopology.h).
      const SwitchEngineConfig *e = tu ? tu->find<SwitchEngineConfig>() : nullptr;
      uint64_t ring = op.switchPlan ? op.switchPlan->ringSize : activeSize(op.in.slice);
      c.engines.push_back({"switch", e ? e->cycles() : ring * inTime * std::max<uint64_t>(inFlits, 1), kStageLatency});
    } else if (n == "collect") {
      // "Collect Engine": one 32-byte flit out per cycle.
      c.engines.push_back({"collect", outTime, kStageLatency});
    } else if (n == "to_trf") {
      c.engines.push_back({"trf_load", inTime, kStageLatency});
      uint64_t rows = sizeOf(op.out.row);
      uint64_t bytes = op.out.elementBytes() * rows;
      c.bytes[MemTier::Trf].write += bytes * placements(op.out);
      c.writes.push_back({MemTier::Trf, 0, bytes, false});
    } else if (n == "to_vrf") {
      c.engines.push_back({"vrf_load", inTime, kStageLatency});
      uint64_t bytes = op.out.elementBytes();
      c.bytes[MemTier::Vrf].write += bytes * placements(op.out);
      uint64_t a = op.address.value_or(0);
      c.writes.push_back({MemTier::Vrf, a, a + bytes, !op.address});
    } else if (n == "align") {
      // Aligner: one computation packet per cycle; Stream Adapter / TRF sequencer overhead unquantified.
      c.engines.push_back({"aligner", outTime, kStageLatency});
      for (const TensorType &t : op.operands) {
        if (t.tier != Tier::Trf) continue;
        // TRF tensors are placed by region, not address: any TRF write overlaps.
        c.reads.push_back({MemTier::Trf, 0, 0, true});
        const AlignerConfig *a = tu ? tu->find<AlignerConfig>() : nullptr;
        uint64_t readSize = a && a->regReadSize() ? a->regReadSize() : 64;
        c.bytes[MemTier::Trf].read += outTime * readSize * sizeOf(t.row) * placements(t);
      }
    } else if (n == "contract") {
      // Reducer: one computation packet per cycle; spatial tree depth 5/6/7 cycles of latency.
      c.engines.push_back({"reducer", inTime, num::reducerTreeDepth(op.in.dtype)});
      // Roofline: one MAC per data position of the Reducer's input (Time × Row × Packet per slice).
      c.macs += activePositions(op.in);
      c.macType = op.in.dtype;
    } else if (n == "accumulate") {
      // Temporal accumulation: one packet per cycle ("the accumulator requires approximately N cycles"
      // is this throughput term). A group's output leaves one cycle after its last packet, so the
      // group length delays the first output but not the end of the stream: latency 1.
      c.engines.push_back({"accumulate", inTime, kStageLatency});
    } else if (n.rfind("vector_", 0) == 0) {
      // "Vector Engine" > Performance: Way8 stages take one 8-lane flit per cycle, Way4 stages one
      // 4-lane packet per cycle (split doubles the packets: the float path's halved throughput), so
      // the engine streams max(Time) packets over its stages; each ALU adds one cycle of latency, an
      // intra-slice reduce delays its first output by the n time steps it accumulates, and an
      // inter-slice reduce adds about one ring traversal of the r slices it reduces.
      vectorSeen = true;
      vectorFlits = std::max({vectorFlits, inTime, outTime});
      static const char *const kAluOps[] = {"vector_logic", "vector_fxp", "vector_fxp_with_mode", "vector_fxp_zip",
                                            "vector_fxp_zip_with_mode", "vector_fp_unary", "vector_fp_binary",
                                            "vector_fp_binary_with_mode", "vector_fp_ternary", "vector_fp_zip",
                                            "vector_fp_unary_with_mode", "vector_fp_ternary_with_mode",
                                            "vector_fp_zip_with_mode", "vector_fp_div", "vector_clip", "vector_clip_zip",
                                            "vector_logic_with_mode", "vector_logic_zip", "vector_logic_zip_with_mode",
                                            "vector_fp_div_with_mode", "vector_clip_with_mode", "vector_clip_zip_with_mode"};
      bool alu = false;
      for (const char *a : kAluOps) alu = alu || n == a;
      vectorAlus += alu;
      // Roofline: one operation per element per ALU step, and per input element of a reduce.
      bool reduce = n == "vector_intra_slice_reduce" || n == "vector_inter_slice_reduce";
      if (alu || reduce) c.vectorOps += activePositions(op.in);
      if (op.ve && n == "vector_intra_slice_reduce") vectorTail += op.ve->reduceTime;
      if (op.ve && n == "vector_inter_slice_reduce") vectorTail += op.ve->slices;
      for (size_t k = 0; k < op.operands.size(); ++k) {
        const TensorType &t = op.operands[k];
        if (t.tier != Tier::Vrf) continue;
        c.reads.push_back(rangeOf(f, k < op.operandTensors.size() ? op.operandTensors[k] : -1, t));
        c.bytes[MemTier::Vrf].read += std::max(inTime, outTime) * kFlitBytes * placements(t);
      }
      if (n == "vector_final") {
        const VectorConfig *v = tu ? tu->find<VectorConfig>() : nullptr;
        uint64_t alus = v ? v->aluSteps() : vectorAlus;
        c.engines.push_back({"vector", vectorFlits, std::max<uint64_t>(alus, 1) + vectorTail});
        vectorCosted = true;
      }
    } else if (n == "cast") {
      // Cast Engine: consumes one input flit per cycle.
      const CastConfig *e = tu ? tu->find<CastConfig>() : nullptr;
      c.engines.push_back({"cast", e ? e->cycles() : inTime * std::max<uint64_t>(inFlits, 1), kStageLatency});
    } else if (n == "transpose") {
      // "Transpose Engine" > Cycle Calculation: double buffering input + (n − 1) × max(input, output)
      // + output, single buffering n × (input + output) flits per iteration (TransposeEngine.h).
      const TransposeConfig *e = tu ? tu->find<TransposeConfig>() : nullptr;
      std::optional<TransposeConfig> t = e ? std::optional<TransposeConfig>(*e) : checkTranspose(op.in, op.out).config;
      uint64_t cyc = t ? t->cycles() : std::max(inTime, outTime);
      c.engines.push_back({"transpose", cyc, kStageLatency});
    } else if (n == "commit") {
      // "Commit Engine": Time × writes_per_packet DM writes of commit_size bytes.
      const CommitConfig *e = tu ? tu->find<CommitConfig>() : nullptr;
      uint64_t writes = e ? e->writesPerPacket() : stageCommitWrites(op, op.in.ctx).value_or(1);
      c.engines.push_back({"commit", inTime * writes, kStageLatency});
      uint64_t a = op.address.value_or(0);
      uint64_t bytes = op.out.elementBytes();
      c.writes.push_back({MemTier::Dm, a, a + bytes, !op.address});
      c.bytes[MemTier::Dm].write += bytes * placements(op.out);
    } else {  // every typed op has a cost (nothing is lost silently)
      llvm::report_fatal_error("internal error: the cycle model has no cost for the typed op `" + llvm::Twine(n) + "`");
    }
  }
  // A stage function may end inside the Vector Engine (before vector_final): its steps still cost.
  if (vectorSeen && !vectorCosted) {
    uint64_t flits = vectorFlits ? vectorFlits : 1;
    c.engines.push_back({"vector", flits, std::max<uint64_t>(vectorAlus, 1) + vectorTail});
  }
  c.name = names;
  uint64_t slowest = 0, fill = 0;
  for (const EngineCost &e : c.engines) {
    slowest = std::max(slowest, e.cycles);
    fill += e.latency;
  }
  c.cycles = slowest + fill;
  return c;
}

// The cost of DMA op i from its lowered configuration (`config`), or from its plan without one.
OpCost dmaOpCost(const TypedFunction &f, size_t i, const DmaConfig *config) {
  const TypedOp &op = f.ops[i];
  OpCost c = config ? dmaCost(*config) : dmaPlanCost(dmaPlanOf(f, op));
  c.name = op.name;
  c.line = op.line;
  // Kernel parameters have no address in the kernel: they are assumed disjoint from its writes.
  MemRange src = rangeOf(f, op.source, op.in);
  if (!src.whole || op.in.tier != Tier::Hbm) c.reads.push_back(src);
  uint64_t a = op.address.value_or(0);
  c.writes.push_back({memTier(op.out.tier), a, a + op.out.elementBytes(), !op.address});
  return c;
}

}  // namespace

ProgramCost costProgram(const TypedProgram &typed, const LoweredProgram &lowered) {
  ProgramCost out;
  for (size_t fi = 0; fi < typed.functions.size(); ++fi) {
    const TypedFunction &f = typed.functions[fi];
    const FunctionConfig *fc = fi < lowered.functions.size() ? &lowered.functions[fi] : nullptr;
    FunctionCost fcost;
    fcost.name = f.name;
    fcost.isDevice = f.isDevice;
    fcost.chips = std::max(f.chips, 1u);
    std::vector<bool> placed(std::max(f.chains, 0), false);
    bool stagePlaced = false;
    // The lowering gives each DMA op one TU at the op's line, in program order.
    std::map<unsigned, std::vector<const DmaConfig *>> dmaByLine;
    if (fc)
      for (const TuConfig &t : fc->tus)
        if (const DmaConfig *d = t.chain < 0 && !t.stage ? t.find<DmaConfig>() : nullptr) dmaByLine[t.line].push_back(d);
    std::map<unsigned, size_t> dmaTaken;
    for (size_t i = 0; i < f.ops.size(); ++i) {
      const TypedOp &op = f.ops[i];
      if (isDmaOp(op)) {
        const std::vector<const DmaConfig *> &atLine = dmaByLine[op.line];
        size_t k = dmaTaken[op.line]++;
        fcost.ops.push_back(dmaOpCost(f, i, k < atLine.size() ? atLine[k] : nullptr));
      } else if (op.chain < 0 && !stagePlaced) {
        // A stage function (or ops outside any chain): one Tensor Unit operation from its input stream.
        stagePlaced = true;
        const TuConfig *tu = nullptr;  // the lowering's stage TU (chain -1)
        if (fc)
          for (const TuConfig &t : fc->tus)
            if (t.stage) tu = &t;
        fcost.ops.push_back(chainCost(f, -1, tu));
      } else if (op.chain >= 0 && op.chain < f.chains && !placed[op.chain]) {
        // A chain is scheduled at its first stage (`begin`, or a stage function's first op).
        placed[op.chain] = true;
        const TuConfig *tu = nullptr;
        if (fc)
          for (const TuConfig &t : fc->tus)
            if (t.chain == op.chain) tu = &t;
        fcost.ops.push_back(chainCost(f, op.chain, tu));
        if (tu) {  // "Bank Starvation": consecutive same-bank accesses of its fetch/commit sequencers
          BankRun run = operationBankRun(*tu, &fcost.ops.back().sameBankRunEngine);
          fcost.ops.back().sameBankRun = run.length;
          fcost.ops.back().sameBankRunBank = run.bank;
          fcost.ops.back().range = op.range;
        }
      }
    }
    fcost.peakBytes = peakFootprint(fcost.ops);
    out.functions.push_back(std::move(fcost));
  }
  return out;
}

}  // namespace tcp
