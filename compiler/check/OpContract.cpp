// OpContract.cpp — rules of the Contraction Engine: align (Aligner), contract (spatial reduction) and
// accumulate (temporal reduction, Interleaved / Sequential output).
#include "MappingFactor.h"
#include "MappingNormalForm.h"
#include "TensorCoverage.h"
#include "StreamAdapter.h"
#include "TrfSequencer.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {

bool sameTerm(const FactorTerm &a, const FactorTerm &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == FactorTerm::Padding) return a.count == b.count;
  if (a.kind == FactorTerm::Opaque) return a.sub && b.sub && a.sub->str() == b.sub->str();
  return a.axis.name == b.axis.name && a.axisStride == b.axisStride && a.valid() == b.valid() && a.base == b.base;
}

// `q` is `want` with trailing padding positions cut: the same lanes first, only padding after.
bool paddingSliced(const MappingRef &want, const MappingRef &q) {
  std::string err;
  MappingRef head = Mapping::resize(want, q->size(), &err);
  if (!head || !equivalent(head, q)) return false;
  for (uint64_t i = q->size(); i < want->size(); ++i)
    if (want->map(i)) return false;
  return true;
}

// The Time terms no output term covers are reduced. OutTime must be Time without them (same
// indices in the same order) followed by `tail`; returns the kept terms, or nullopt.
std::optional<std::vector<FactorTerm>> keptByCoordinates(const MappingRef &time, const MappingRef &outTime,
                                                         const MappingRef &tail, const std::vector<MappingRef> &outs) {
  std::string err;
  uint64_t ts = tail->size();
  if (ts == 0 || outTime->size() % ts) return std::nullopt;
  MappingRef prefix = ts > 1 ? Mapping::stride(outTime, ts, &err) : outTime;
  MappingRef suffix = ts > 1 ? Mapping::modulo(outTime, ts, &err) : Mapping::identity();
  if (!prefix || !suffix || !equivalent(suffix, tail)) return std::nullopt;
  std::vector<FactorTerm> outTerms;
  for (const MappingRef &m : outs)
    for (FactorTerm &u : factorize(m)) outTerms.push_back(std::move(u));
  std::vector<FactorTerm> kept;
  for (const FactorTerm &t : factorize(time)) {
    bool covered = t.kind != FactorTerm::Axis;
    for (const FactorTerm &u : outTerms) {
      if (covered) break;
      if (u.kind != FactorTerm::Axis || u.axis.name != t.axis.name) continue;
      uint64_t tLo = t.axisStride, tHi = t.axisStride * std::max<uint64_t>(t.valid(), 1);
      uint64_t uLo = u.axisStride, uHi = u.axisStride * std::max<uint64_t>(u.valid(), 1);
      covered = std::max(tLo, uLo) < std::min(tHi, uHi);
    }
    if (covered) kept.push_back(t);
  }
  uint64_t keptSize = 1;
  for (const FactorTerm &t : kept) keptSize *= t.count;
  if (keptSize != prefix->size()) return std::nullopt;
  for (uint64_t j = 0; j < keptSize; ++j) {
    uint64_t rest = j, pos = 0;
    for (size_t k = kept.size(); k-- > 0;) {
      pos += (rest % kept[k].count) * kept[k].bufStride;
      rest /= kept[k].count;
    }
    auto a = time->map(pos), b = prefix->map(j);
    if (a.has_value() != b.has_value() || (a && *a != *b)) return std::nullopt;
  }
  return kept;
}

std::string termList(const std::vector<FactorTerm> &ts) {
  std::string s;
  for (const auto &t : ts) s += (s.empty() ? "" : ", ") + t.str();
  return "[" + s + "]";
}
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opAlign(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  if (call.operands.size() != 2) {
    error(r, "`.align()` takes the TRF tensor holding the weights, e.g. `.align::<Time, Packet, _, _>(&w)`");
    return {};
  }
  CheckedValue trf = eval(*call.operands[1], std::nullopt);
  if (trf.kind == CheckedValue::None) return {};  // reported
  if (trf.kind != CheckedValue::Tensor || trf.type.tier != Tier::Trf) {
    error(call.operands[1]->range, "`.align()` pairs the stream with a TrfTensor; this is " +
                                       (trf.kind == CheckedValue::Tensor ? trf.type.str() : std::string("not a tensor")));
    return {};
  }
  if (trf.tensorId >= 0) chainSources_[currentChain_].push_back(trf.tensorId);
  auto args = typeArgs(call, 4);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Aligned;
  out.row = trf.type.row;
  out.time = pick(args[0], exp ? expected->time : nullptr, call, "OutTime");
  out.packet = pick(args[1], exp ? expected->packet : nullptr, call, "OutPacket");
  if (!out.time || !out.packet) return {};
  if (args[2].given && args[2].mapping && !equivalent(args[2].mapping, trf.type.row))
    error(args[2].ast->range, "`Row` must be the TRF tensor's Row " + trf.type.row->str());
  if (trf.type.dtype != recv.type.dtype)
    error(r, std::string("the stream is ") + num::dtypeName(recv.type.dtype) + " but the TRF holds " +
                 num::dtypeName(trf.type.dtype) + "; the Reducer multiplies equal element types");
  uint64_t bytes = out.packetBytes();
  if (bytes != kMacWidthBytes)
    error(r, "the computation packet OutPacket " + out.packet->str() + " is " + std::to_string(bytes) +
                 " bytes; the Reducer consumes exactly 64 bytes (mac_width) per cycle: collect two flits from the "
                 "innermost Time axis, or pad one flit to 64 bytes");
  // The Stream Adapter ("Stream Adapter" > Conceptual Operation): collect_flits flits of the
  // innermost Time axis become the packet (1: one flit zero-padded to 64 bytes), the packet is
  // broadcast to the Rows, and tiling axes (absent from the stream) repeat it at the innermost
  // positions of OutTime. Time keeps its order otherwise.
  int flits = 0;
  std::string shift;
  if (bytes == kMacWidthBytes) {
    StreamAdapterPlan sa = planStreamAdapter(recv.type, out.time, out.packet);
    flits = sa.collectFlits;
    if (!sa.problem.empty()) error(r, sa.problem);
    if (sa.shiftCount) shift = ", shift_count = " + std::to_string(sa.shiftCount) + ", shift_stride = " +
                               std::to_string(sa.shiftStride);
  }
  if (bytes != kMacWidthBytes) checkPreserved({recv.type.time, recv.type.packet}, {out.time, out.packet}, r, "align");
  // Every weight must reach the Reducer: the TRF's axes are covered by the computation mapping.
  if (auto problem = tensorPreservedTrf(trf.type, out)) {
    error(r, "the TRF Sequencer cannot produce the computation mapping from " + trf.type.str() + ": " + *problem);
  } else if (bytes == kMacWidthBytes) {
    for (const std::string &d : planTrfRead(trf.type, out.time, out.packet).diagnostics) error(r, "TRF Sequencer: " + d);
  }
  TypedOp &op = emit(call, recv.type, out);
  op.operands.push_back(trf.type);
  op.operandTensors.push_back(trf.tensorId);
  op.arg = "collect_flits = " + std::to_string(flits ? flits : 2) + shift;
  return tensorValue(out, place(out, "", r, std::nullopt));
}

std::optional<std::string> TypeChecker::FunctionChecker::tensorPreservedTrf(const TensorType &trf, const TensorType &out) {
  for (const auto &m : {trf.row, trf.element, out.time, out.packet})
    if (!m) return std::nullopt;
  return tensorPreserved({trf.row, trf.element}, {trf.row, out.time, out.packet});
}

CheckedValue TypeChecker::FunctionChecker::opContract(const ast::Expr &call, const CheckedValue &recv,
                                                      const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  auto args = typeArgs(call, 1);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Contraction;
  MappingRef q = pick(args[0], exp ? expected->packet : nullptr, call, "OutPacket");
  if (!q) return {};
  num::DType in = recv.type.dtype;
  if (!num::isReducerInput(in)) {
    error(r, std::string("the Reducer multiplies i4, i8, f8 or bf16, not ") + num::dtypeName(in));
    return {};
  }
  out.dtype = num::reducerOutputType(in);  // mandatory widening: i4/i8 → i32, f8/bf16 → f32
  out.packet = q;
  unsigned depth = num::reducerTreeDepth(in);
  const MappingRef &packet = recv.type.packet;
  uint64_t p = packet->size(), outElems = q->size();
  // Spatial reduction at depth n leaves `Packet / 2^n` ("Reducer": Spatial Reduction); its trailing
  // padding may be sliced off ("User-specified slicing should only slice padded Packet axes"). At
  // depth 0 the Reducer outputs at most 32 elements and truncates the rest (Resize, Performance).
  std::string err, note;
  int found = -1;
  for (unsigned n = 0; n <= depth && found < 0; ++n) {
    uint64_t g = uint64_t(1) << n;
    if (p % g) break;
    MappingRef want = n ? Mapping::stride(packet, g, &err) : packet;
    if (!want) break;
    if (n == 0 && p > 32) want = Mapping::modulo(packet, 32, &err);
    if (!want) break;
    if (equivalent(want, q)) found = int(n);
    else if (outElems < want->size() && paddingSliced(want, q)) {
      found = int(n);
      note = ", padding sliced";
    }
    if (found == 0 && p > 32) note += ", truncated to 32 lanes";
  }
  unsigned n = 0;
  while (n <= depth && (outElems << n) < p) ++n;
  if (found >= 0) {
    n = unsigned(found);
  } else if (outElems == 0 || (outElems << n) != p || n > depth) {
    error(r, "spatial reduction sums groups of 2^n packet elements (n ≤ " + std::to_string(depth) + " for " +
                 num::dtypeName(in) + "), so OutPacket must have " + std::to_string(p) + " / 2^n elements; " +
                 q->str() + " has " + std::to_string(outElems));
  } else if (n == 0 && p > 32) {
    error(r, "without spatial reduction the Reducer outputs at most 32 elements per Row and truncates the rest, so "
             "OutPacket is the packet's first 32 lanes " + normalize(Mapping::modulo(packet, 32, &err))->str() +
             ", not " + q->str() + " (\"Reducer\": Resize)");
  } else {
    MappingRef want = n ? Mapping::stride(packet, uint64_t(1) << n, &err) : packet;
    if (want)
      error(r, "spatial reduction eliminates the innermost `Packet % " + std::to_string(uint64_t(1) << n) +
                   "`, leaving " + normalize(want)->str() + ", not " + q->str());
  }
  TypedOp &op = emit(call, recv.type, out);
  op.arg = "depth " + std::to_string(n) + note;
  return tensorValue(out, place(out, "", r, std::nullopt));
}

CheckedValue TypeChecker::FunctionChecker::opAccumulate(const ast::Expr &call, const CheckedValue &recv,
                                                        const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Accumulation;
  out.row = nullptr;
  out.time = pick(args[0], exp ? expected->time : nullptr, call, "OutTime");
  out.packet = pick(args[1], exp ? expected->packet : nullptr, call, "OutPacket");
  if (!out.time || !out.packet) return {};
  std::string kind;
  if (call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::PathE) kind = call.operands[1]->path.str();
  bool interleaved = kind == "AccumulationKind::Interleaved";
  if (!interleaved && kind != "AccumulationKind::Sequential") {
    error(r, "`.accumulate()` takes `AccumulationKind::Interleaved` or `AccumulationKind::Sequential`");
    return {};
  }
  const TensorType &in = recv.type;
  std::vector<FactorTerm> time = factorize(in.time), outTime = factorize(out.time);
  std::vector<FactorTerm> packet = factorize(in.packet), row = factorize(in.row);
  // The surviving Time terms come first in OutTime, in order; the rest was reduced.
  std::vector<FactorTerm> tail = interleaved ? packet : row;
  MappingRef tailMap = interleaved ? in.packet : in.row;
  if (!interleaved) {
    // Sequential: OutTime = [Time', Row, Packet_outer], OutPacket = Packet_inner (8-element beats).
    uint64_t inner = out.packet->size();
    if (inner != 8 && inner != 16 && inner != 24 && inner != 32) {
      error(r, "Sequential output beats are 8 elements wide: OutPacket " + out.packet->str() + " must have 8, 16, 24 or 32 "
                   "elements");
    } else {
      // The reduced Packet, padded to whole beats, splits into Packet_outer (appended to OutTime
      // after the Row) and Packet_inner (OutPacket).
      std::string err;
      uint64_t p = in.packet->size(), padded = (p + inner - 1) / inner * inner;
      MappingRef pp = padded == p ? in.packet : Mapping::pad(in.packet, padded, &err);
      MappingRef innerWant = !pp || padded == inner ? pp : Mapping::modulo(pp, inner, &err);
      MappingRef outerWant = !pp || padded == inner ? nullptr : Mapping::stride(pp, inner, &err);
      if (innerWant && !equivalent(innerWant, out.packet))
        error(r, "Sequential output splits the reduced Packet " + in.packet->str() + " into beats of " +
                     std::to_string(inner) + " elements: OutPacket must be " +
                     (outerWant ? normalize(innerWant) : innerWant)->str() + ", not " +
                     out.packet->str());
      if (outerWant) {
        for (const FactorTerm &ft : factorize(outerWant)) tail.push_back(ft);
        tailMap = Mapping::pair(in.row, outerWant);
      }
    }
  } else {
    std::string err;
    MappingRef rowPad = in.row->size() >= 8 ? in.row : Mapping::pad(in.row, 8, &err);
    if (rowPad && !equivalent(rowPad, out.packet))
      error(r, "Interleaved output carries one value per Row per beat: OutPacket must be the Row padded to 8, m![" +
                   rowPad->body() + "], not " + out.packet->str());
  }
  std::vector<FactorTerm> kept;
  size_t t = 0;
  size_t tailStart = outTime.size() >= tail.size() ? outTime.size() - tail.size() : 0;
  bool matched = outTime.size() >= tail.size();
  for (size_t k = 0; k < tailStart; ++k) {
    while (t < time.size() && !sameTerm(time[t], outTime[k])) ++t;
    if (t == time.size()) {
      matched = false;
      break;
    }
    kept.push_back(time[t++]);
  }
  for (size_t k = tailStart; matched && k < outTime.size(); ++k)
    matched = sameTerm(outTime[k], tail[k - tailStart]);
  if (!matched && tailMap) {
    // The same relation by coordinates, for spellings that split or merge terms (`m![M, N]` for
    // Time' = [M, N / 8] followed by the Row `N % 8`).
    if (auto k = keptByCoordinates(in.time, out.time, tailMap, {out.time, out.packet})) {
      kept = std::move(*k);
      matched = true;
    }
  }
  if (!matched) {
    const char *appended = interleaved                ? "the reduced Packet"
                           : tail.size() > row.size() ? "the Row and the outer beats of the Packet"
                                                      : "the Row";
    error(r, std::string(interleaved ? "Interleaved" : "Sequential") + " accumulation keeps Time's surviving axes in order " +
                 "and appends " + appended + " " + termList(tail) +
                 "; OutTime " + out.time->str() + " is not of that form (Time is " + in.time->str() + ")");
  } else {
    // Buffer capacity: the axes inner to the outermost reduced Time axis must fit the accumulator.
    size_t outermostReduced = time.size();
    for (size_t k = 0, j = 0; k < time.size(); ++k) {
      if (j < kept.size() && sameTerm(time[k], kept[j])) { ++j; continue; }
      outermostReduced = std::min(outermostReduced, k);
    }
    uint64_t innerSize = 1;
    if (outermostReduced < time.size()) {
      for (size_t k = outermostReduced + 1; k < time.size(); ++k) {
        bool survives = false;
        for (const auto &kk : kept) survives = survives || sameTerm(kk, time[k]);
        if (survives) innerSize *= time[k].count;
      }
      // Interleaved buffers the reduced Packet per slot, Sequential the Row (its Packet fills the
      // 32 columns).
      for (const auto &ft : interleaved ? tail : row) innerSize *= ft.count;
      uint64_t limit = interleaved ? 128 : 32;
      if (innerSize > limit)
        error(r, std::string(interleaved ? "Interleaved" : "Sequential") + " accumulation buffers the axes inner to the "
                     "outermost reduced axis: their size " + std::to_string(innerSize) + " exceeds " +
                     std::to_string(limit) + " (the accumulator has 1024 slots: 8 rows × 32 columns × 4 registers)");
    }
  }
  TypedOp &op = emit(call, recv.type, out);
  op.arg = interleaved ? "Interleaved" : "Sequential";
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
