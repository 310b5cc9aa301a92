// LowerVector.cpp — the Vector Engine's program: each vector_* op of a chain as a typed stage (VectorEngine.h).
#include "EngineFields.h"
#include "Lowering.h"

#include <cstring>

namespace tcp {

namespace {
// The enum value spelled `name` (enumNames), if any.
template <class E> std::optional<E> byName(const std::string &name) {
  const auto &names = enumNames(E{});
  for (size_t k = 0; k < names.size(); ++k)
    if (name == names[k]) return E(k);
  return std::nullopt;
}

int64_t f32Bits(double v) {
  float f = float(v);
  int32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// The stage a method enters.
std::optional<VeStage> stageOf(const std::string &n) {
  static const std::map<std::string, VeStage> k = {
      {"vector_init", VeStage::Init},
      {"vector_intra_slice_branch", VeStage::Branch},
      {"vector_intra_slice_unzip", VeStage::Unzip},
      {"vector_inter_slice_reduce", VeStage::InterReduce},
      {"vector_logic", VeStage::Logic},
      {"vector_logic_with_mode", VeStage::Logic},
      {"vector_logic_zip", VeStage::Logic},
      {"vector_logic_zip_with_mode", VeStage::Logic},
      {"vector_fxp", VeStage::Fxp},
      {"vector_fxp_with_mode", VeStage::Fxp},
      {"vector_fxp_zip", VeStage::Fxp},
      {"vector_fxp_zip_with_mode", VeStage::Fxp},
      {"vector_fxp_to_fp", VeStage::FxpToFp},
      {"vector_split", VeStage::Narrow},
      {"vector_trim_way4", VeStage::Narrow},
      {"vector_fp_unary", VeStage::Fp},
      {"vector_fp_unary_with_mode", VeStage::Fp},
      {"vector_fp_binary", VeStage::Fp},
      {"vector_fp_binary_with_mode", VeStage::Fp},
      {"vector_fp_ternary", VeStage::Fp},
      {"vector_fp_ternary_with_mode", VeStage::Fp},
      {"vector_fp_zip", VeStage::Fp},
      {"vector_fp_zip_with_mode", VeStage::Fp},
      {"vector_intra_slice_reduce", VeStage::IntraReduce},
      {"vector_fp_div", VeStage::FpDiv},
      {"vector_fp_div_with_mode", VeStage::FpDiv},
      {"vector_concat", VeStage::Widen},
      {"vector_pad_way8", VeStage::Widen},
      {"vector_fp_to_fxp", VeStage::FpToFxp},
      {"vector_clip", VeStage::Clip},
      {"vector_clip_with_mode", VeStage::Clip},
      {"vector_clip_zip", VeStage::Clip},
      {"vector_clip_zip_with_mode", VeStage::Clip},
      {"vector_stash", VeStage::Stash},
      {"vector_final", VeStage::Final},
  };
  auto it = k.find(n);
  if (it == k.end()) return std::nullopt;
  return it->second;
}
}  // namespace

std::optional<VectorStep> lowerVectorStep(const TypedOp &op, Diagnostics &diags) {
  VectorStep s;
  auto stage = stageOf(op.name);
  if (!stage) {
    diags.error(op.range, "vector engine: `." + op.name + "()` is not supported yet in the engine configuration");
    return std::nullopt;
  }
  s.stage = *stage;
  s.dtype = op.in.dtype;
  const VeOpArgs *a = op.ve.get();
  auto bad = [&](const std::string &what) {
    diags.error(op.range, "vector engine: " + what);
    return std::nullopt;
  };
  auto setOp = [&](auto tag, const std::string &name) -> bool {
    auto v = byName<decltype(tag)>(name);
    if (!v) return false;
    s.op = uint8_t(*v);
    return true;
  };
  if (a) {
    s.zip = a->zip;
    switch (s.stage) {
      case VeStage::Branch:
        s.axis = a->reduceAxis;
        if (auto m = byName<BranchMode>("BranchMode::" + a->op)) s.branch = *m;
        else return bad("`BranchMode::" + a->op + "` has no configuration");
        break;
      case VeStage::Logic: if (!setOp(LogicOp{}, a->op)) return bad("no Logic op `" + a->op + "`"); break;
      case VeStage::Fxp: if (!setOp(FxpOp{}, a->op)) return bad("no Fxp op `" + a->op + "`"); break;
      case VeStage::Fp: if (!setOp(FpOp{}, a->op)) return bad("no Float op `" + a->op + "`"); break;
      case VeStage::Clip: if (!setOp(ClipOp{}, a->op)) return bad("no Clip op `" + a->op + "`"); break;
      case VeStage::IntraReduce:
      case VeStage::InterReduce: if (!setOp(VeReduceOp{}, a->op)) return bad("no reduce op `" + a->op + "`"); break;
      case VeStage::Narrow: s.op = uint8_t(a->op == "split" ? NarrowKind::Split : NarrowKind::Trim); break;
      case VeStage::Widen: s.op = uint8_t(a->op == "concat" ? WidenKind::Concat : WidenKind::Pad); break;
      default: break;
    }
    // The default modes: Mode0 (unary), Mode01 (binary), Mode012 (ternary).
    unsigned arity = s.stage == VeStage::Fp ? fpArity(FpOp(s.op)) : 2;
    s.mode = uint8_t(a->mode >= 0 ? a->mode : arity == 2 ? 1 : 0);
    for (const VeOperandArg &o : a->operands) {
      VeOperand v;
      v.group = o.group == 0 ? VeGroup::Group0 : o.group == 1 ? VeGroup::Group1 : VeGroup::Always;
      switch (o.kind) {
        case VeOperandArg::Constant:
          v.kind = VeOperandKind::Constant;
          v.constant = o.isFloat ? f32Bits(o.f) : o.i;
          break;
        case VeOperandArg::Vrf: v.kind = VeOperandKind::Vrf; break;
        case VeOperandArg::Stash: v.kind = VeOperandKind::Stash; break;
        case VeOperandArg::Skip: continue;  // the group is skipped: no operand, no op for it
        case VeOperandArg::Apply: v.kind = VeOperandKind::None; break;
      }
      s.operands.push_back(v);
    }
    s.intWidth = a->intWidth;
    s.reduceTime = s.stage == VeStage::InterReduce ? a->slices : a->reduceTime;
    s.slots = a->slots;
    s.reducePacket = a->reducePacket;
  } else if (s.stage != VeStage::Init && s.stage != VeStage::Final && s.stage != VeStage::Stash) {
    return bad("`." + op.name + "()` has no checked arguments");
  }
  return s;
}

}  // namespace tcp
