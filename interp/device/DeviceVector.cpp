// DeviceVector.cpp — the CPU model of the Vector Engine's intra-slice stages: ALU ops, operands, modes, conversions, Narrow/Widen, stash, two-group mode.
//
// Values are 32-bit lane values (i32 or f32 bits). Numerics (docs/numerics.md): i32 ops are the
// Fxp/Clip rules of Numerics.h (wrapping or saturating, shifts, round-half-up); f32 ops round once
// to nearest-even with subnormals flushed and NaN canonical (Numerics.h); add, subtract and multiply
// of whole streams run on the Highway kernels of NumericKernels.h; the transcendental units are
// evaluated in double and rounded once to f32.
#include "DeviceChain.h"
#include "DeviceVectorOps.h"
#include "MappingFactor.h"
#include "NumericKernels.h"

#include <cmath>
#include <cstring>

namespace tcp::interp {

// A lane operand: the constant, the VRF element at the lane's index, or the stash at the lane's key.
ChainBuilder::LaneSource ChainBuilder::laneSource(const TypedOp &op, const VeOperandArg &o) {
  LaneSource src;
  if (o.kind == VeOperandArg::Constant) {
    src.kind = LaneSource::Constant;
    src.constant = o.isFloat ? num::f32Bits(float(o.f)) : uint32_t(int32_t(o.i));
  } else if (o.kind == VeOperandArg::Stash) {
    src.kind = LaneSource::Stash;
    KeyIndex from(stashKeys_);
    src.pos.resize(stream_.keys.size());
    for (size_t i = 0; i < src.pos.size(); ++i) src.pos[i] = from.find(stream_.keys[i]);
  } else if (o.kind == VeOperandArg::Vrf) {
    if (o.vrf < 0 || size_t(o.vrf) >= op.operands.size()) throw DeviceError{where(op) + ": a VRF operand without its tensor"};
    const TensorType &vrf = op.operands[o.vrf];
    auto addr = placed_.find(size_t(o.vrf) < op.operandTensors.size() ? op.operandTensors[o.vrf] : -1, placed_.vrf, vrf);
    if (!addr) throw DeviceError{where(op) + ": no VRF tensor " + vrf.str() + " was loaded"};
    // The VRF element at the lane's index (axes the VRF lacks broadcast).
    AxisSpace space = AxisSpace::of({vrf.element});
    KeyIndex elems(keyTable(vrf.element, space));
    std::vector<int64_t> lane = streamKeys(stream_.type.time, stream_.type.packet, space);
    if (groupAxis_) lane = streamKeys(Mapping::pair(groupAxis_, stream_.type.time), stream_.type.packet, space);
    src.kind = LaneSource::Vrf;
    src.pos.resize(lane.size());
    for (size_t i = 0; i < lane.size(); ++i) src.pos[i] = elems.find(lane[i]);
    src.addr = *addr;
    src.dtype = vrf.dtype;
  }
  return src;
}

void ChainBuilder::vector(const TypedOp &op) {
  const std::string &n = op.name;
  const VeOpArgs *a = op.ve.get();
  auto typed = [&](TensorType t) {  // the layout type: in two-group mode Time carries the group axis (major)
    if (groupAxis_) t.time = Mapping::pair(groupAxis_, t.time);
    return t;
  };
  if (n == "vector_intra_slice_branch") toggleAxis_ = a && a->op == "AxisToggle" ? a->reduceAxis : "";
  if (n == "vector_init" || n == "vector_intra_slice_branch" || n == "vector_final") {
    relayout(op.out);
    return;
  }
  if (!a) throw DeviceError{where(op) + ": a Vector Engine op without its checked arguments"};
  if (n == "vector_intra_slice_unzip") {
    // The grouping axis I leaves Time; the model keeps it as the major part of Time (group 0, group 1).
    for (const FactorTerm &t : factorize(op.in.time))
      if (t.kind == FactorTerm::Axis && t.axis.baseName() == a->reduceAxis) groupAxis_ = Mapping::symbol(t.axis);
    if (!groupAxis_) throw DeviceError{where(op) + ": the grouping axis is not in Time"};
    relayout(typed(op.out));
    return;
  }
  if (n == "vector_split" || n == "vector_trim_way4" || n == "vector_concat" || n == "vector_pad_way8") {
    relayout(typed(op.out));
    return;
  }
  if (n == "vector_intra_slice_reduce") return intraSliceReduce(op);
  if (n == "vector_inter_slice_reduce") return interSliceReduce(op);
  if (n == "vector_stash") {
    stashKeys_ = stream_.keys;
    steps.push_back([](SliceRun &s) { s.stash = s.cur; });
    return;
  }
  if (n == "vector_fxp_to_fp" || n == "vector_fp_to_fxp") {
    unsigned w = unsigned(a->intWidth);
    if (n == "vector_fxp_to_fp")
      steps.push_back([w](SliceRun &s) {
        for (uint32_t &v : s.cur) v = num::f32Bits(num::fxpToF32(int32_t(v), w));
      });
    else
      steps.push_back([w](SliceRun &s) {
        for (uint32_t &v : s.cur) v = uint32_t(num::f32ToFxp(num::f32FromBits(v), w));
      });
    stream_.type.dtype = op.out.dtype;
    relayout(typed(op.out));
    return;
  }
  // ---- an ALU op
  bool f32 = op.in.dtype == num::DType::f32;
  VeFn fn = veFunction(n, a->op, f32);
  if (!fn.valid()) throw DeviceError{where(op) + ": `" + a->op + "` is not modelled"};
  const size_t N = stream_.keys.size();
  const size_t half = groupAxis_ ? N / 2 : N;
  if (a->zip) {
    // op(group x, group y) by the mode: Mode01 (g0, g1) by default.
    int mode = a->mode < 0 ? 1 : a->mode;
    size_t xo = (mode >> 1) ? half : 0, yo = (mode & 1) ? half : 0;
    steps.push_back([fn, half, xo, yo](SliceRun &s) {
      std::vector<uint32_t> out(half);
      fn.binary(s.cur.data() + xo, s.cur.data() + yo, out.data(), half);
      s.cur = std::move(out);
    });
    groupAxis_ = nullptr;
    stream_ = layoutOf(op.out, false);
    return;
  }
  // Which positions each operand serves: every position (single stream; Unconditional gives all
  // ExecutionId group 0), or one group's half in two-group mode.
  struct Part {
    size_t begin, end;
    std::vector<LaneSource> srcs;
    bool apply = true;
    std::vector<uint8_t> select;  // when not empty: only these positions take the result
  };
  std::vector<Part> parts;
  unsigned arity = fn.arity;
  if (groupAxis_) {
    for (int g = 0; g < 2; ++g) {
      Part p{size_t(g) * half, size_t(g + 1) * half, {}, false, {}};
      for (const VeOperandArg &o : a->operands)
        if (o.group == g && o.kind != VeOperandArg::Skip) {
          p.apply = true;
          if (o.kind != VeOperandArg::Apply) p.srcs.push_back(laneSource(op, o));
        }
      if (p.apply) parts.push_back(std::move(p));
    }
  } else {
    Part p{0, N, {}, true, {}};
    int group = -1;  // VeBranchOperand::group(_, g): the op applies to the elements of ExecutionId group g
    for (const VeOperandArg &o : a->operands) {
      if (o.group >= 0) group = o.group;
      p.srcs.push_back(laneSource(op, o));
    }
    if (group >= 0) {
      // Unconditional: every element is in group 0; AxisToggle: group = the axis index % 2.
      p.select.assign(N, 0);
      MappingRef pair = Mapping::pair(stream_.type.time, stream_.type.packet);
      for (size_t i = 0; i < N; ++i) {
        auto idx = toggleAxis_.empty() ? std::optional<Index>(Index{}) : pair->map(i);
        int64_t g = idx ? idx->get(toggleAxis_.empty() ? "" : toggleAxis_) % 2 : 0;
        p.select[i] = g == group;
      }
    }
    parts.push_back(std::move(p));
  }
  int mode = a->mode;
  for (Part &p : parts) {
    if (p.srcs.size() + 1 < arity) throw DeviceError{where(op) + ": too few operands"};
    steps.push_back([fn, p, mode, arity](SliceRun &s) {
      size_t len = p.end - p.begin;
      std::vector<std::vector<uint32_t>> opnd(p.srcs.size());
      for (size_t k = 0; k < p.srcs.size(); ++k) opnd[k] = p.srcs[k].lanes(s, p.begin, len);
      uint32_t *x = s.cur.data() + p.begin;
      std::vector<uint32_t> out(len);
      if (arity == 1) {
        fn.unary(mode == 1 ? opnd[0].data() : x, out.data(), len);  // UnaryArgMode: Mode0 op(s), Mode1 op(o)
      } else if (arity == 2) {
        // BinaryArgMode: Mode00 (s, s), Mode01 (s, o) default, Mode10 (o, s), Mode11 (o, o).
        int m = mode < 0 ? 1 : mode;
        const uint32_t *l = (m >> 1) ? opnd[0].data() : x, *r = (m & 1) ? opnd[0].data() : x;
        fn.binary(l, r, out.data(), len);
      } else {
        // TernaryArgMode (the manual's table order): Mode012 (default), 002, 102, 112, 020, 021, 120.
        static const char kArgs[7][4] = {"012", "002", "102", "112", "020", "021", "120"};
        const char *pick = kArgs[mode < 0 || mode > 6 ? 0 : mode];
        auto src = [&](char c) -> const uint32_t * { return c == '0' ? x : c == '1' ? opnd[0].data() : opnd[1].data(); };
        fn.ternary(src(pick[0]), src(pick[1]), src(pick[2]), out.data(), len);
      }
      if (p.select.empty()) std::memcpy(x, out.data(), len * 4);
      else
        for (size_t i = 0; i < len; ++i)
          if (p.select[i]) x[i] = out[i];
    });
  }
  relayout(typed(op.out));
}

std::vector<uint32_t> ChainBuilder::LaneSource::lanes(SliceRun &s, size_t begin, size_t len) const {
  std::vector<uint32_t> v(len, constant);
  if (kind == Stash) {
    for (size_t i = 0; i < len; ++i) {
      int64_t p = pos[begin + i];
      v[i] = p >= 0 && size_t(p) < s.stash.size() ? s.stash[p] : 0;
    }
  } else if (kind == Vrf) {
    const uint8_t *base = s.mem->vrfData() + addr;
    ElemCodec codec(dtype);
    for (size_t i = 0; i < len; ++i) {
      int64_t p = pos[begin + i];
      v[i] = p >= 0 ? codec.load(base, p) : 0;
    }
  }
  return v;
}

}  // namespace tcp::interp
