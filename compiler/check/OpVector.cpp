// OpVector.cpp — the Vector Engine's rules: entries, the ALU stages with their operands and modes, the pass state.
//
// "Vector Engine" > Intra-Slice Block: every stage is optional but they run in pipeline order (the
// catalog's receivers), each ALU once per pass, Way8 stages on 8-lane and Way4 stages on 4-lane
// packets, each stage on its data types; operands are constants, VRF tensors or the stash
// ("Operands", "Stash"); two-group mode runs per-group ops on both groups and `_zip` merges them.
// Narrow, Widen and unzip: OpVectorShape.cpp; the reductions: OpVectorReduce.cpp.
#include "TensorCoverage.h"
#include "TypeCheckInternal.h"
#include "EngineFields.h"
#include "VectorEngine.h"

#include <set>
#include <cmath>

namespace tcp {

namespace {
constexpr const char *kConstraints = "\"Vector Engine\" > Constraints";

std::string lastSegment(const std::string &path) {
  size_t k = path.rfind("::");
  return k == std::string::npos ? path : path.substr(k + 2);
}

template <class E> std::optional<E> byName(const std::vector<const char *> &names, const std::string &n) {
  for (size_t k = 0; k < names.size(); ++k)
    if (n == names[k]) return E(k);
  return std::nullopt;
}

// The variant an op argument spells: `E::V` or, for a tuple variant, `E::V(F::W)`.
std::string variantText(const ast::Expr &e) {
  if (e.kind == ast::Expr::PathE) return e.path.str();
  if (e.kind == ast::Expr::Call && e.operands.size() == 2 && e.operands[0]->kind == ast::Expr::PathE &&
      e.operands[1]->kind == ast::Expr::PathE)
    return e.operands[0]->path.str() + "(" + e.operands[1]->path.str() + ")";
  return "";
}

// The VRF operand is broadcast over the stream's axes it lacks (the manual's `vrf_add` adds
// `m![A % 2 # 8]` to every `B` step); on the axes it has, it must hold every coordinate the stream
// holds, and it cannot have an axis the stream lacks (which of its values would be used?).
std::optional<std::string> vrfOperandProblem(const TensorType &stream, const TensorType &vrf) {
  for (const auto &m : {stream.slice, stream.time, stream.packet, vrf.slice, vrf.element})
    if (!m) return std::nullopt;
  Coverage s = coverageOf({stream.slice, stream.time, stream.packet}), v = coverageOf({vrf.slice, vrf.element});
  if (!s.known || !v.known) return std::nullopt;
  std::set<std::string> inElement;
  for (const AxisInfo &a : vrf.element->axes()) inElement.insert(a.name);
  std::optional<Coverage> streamSlices, vrfSlices;
  for (const auto &[axis, held] : v.axes) {
    auto it = s.axes.find(axis);
    if (it == s.axes.end()) return "it has axis `" + axis + "`, which the stream does not hold";
    llvm::BitVector missing = it->second;
    if (missing.size() > held.size()) missing.resize(held.size());
    missing.reset(held);  // coordinates the stream holds and the operand lacks
    if (!missing.any()) continue;
    // An axis the operand holds in its Slice only: each slice's VRF serves every lane of that slice,
    // so the stream's digits of it in Time or Packet read the VRF with stride 0 (a per-slice value
    // broadcast over the lanes, the vendor examples' bias add). The slices must agree.
    if (!inElement.count(axis)) {
      if (!streamSlices) streamSlices = coverageOf({stream.slice}), vrfSlices = coverageOf({vrf.slice});
      auto a = streamSlices->axes.find(axis), b = vrfSlices->axes.find(axis);
      if (streamSlices->known && vrfSlices->known && a != streamSlices->axes.end() && b != vrfSlices->axes.end() &&
          a->second == b->second)
        continue;
    }
    return "it holds " + std::to_string(v.count(axis)) + " of the " + std::to_string(s.count(axis)) +
           " coordinates of axis `" + axis + "` the stream holds";
  }
  return std::nullopt;
}

// The ALU op families: the method, the stage it enters, and how it reads its arguments.
enum class Family { Logic, Fxp, FpUnary, FpBinary, FpTernary, FpDiv, Clip };
struct AluMethod {
  Family family;
  bool withMode = false, zip = false;
};
std::optional<AluMethod> aluMethod(const std::string &n) {
  static const std::map<std::string, AluMethod> k = {
      {"vector_logic", {Family::Logic}},
      {"vector_logic_with_mode", {Family::Logic, true}},
      {"vector_logic_zip", {Family::Logic, false, true}},
      {"vector_logic_zip_with_mode", {Family::Logic, true, true}},
      {"vector_fxp", {Family::Fxp}},
      {"vector_fxp_with_mode", {Family::Fxp, true}},
      {"vector_fxp_zip", {Family::Fxp, false, true}},
      {"vector_fxp_zip_with_mode", {Family::Fxp, true, true}},
      {"vector_fp_unary", {Family::FpUnary}},
      {"vector_fp_unary_with_mode", {Family::FpUnary, true}},
      {"vector_fp_binary", {Family::FpBinary}},
      {"vector_fp_binary_with_mode", {Family::FpBinary, true}},
      {"vector_fp_zip", {Family::FpBinary, false, true}},
      {"vector_fp_zip_with_mode", {Family::FpBinary, true, true}},
      {"vector_fp_ternary", {Family::FpTernary}},
      {"vector_fp_ternary_with_mode", {Family::FpTernary, true}},
      {"vector_fp_div", {Family::FpDiv}},
      {"vector_fp_div_with_mode", {Family::FpDiv, true}},
      {"vector_clip", {Family::Clip}},
      {"vector_clip_with_mode", {Family::Clip, true}},
      {"vector_clip_zip", {Family::Clip, false, true}},
      {"vector_clip_zip_with_mode", {Family::Clip, true, true}},
  };
  auto it = k.find(n);
  if (it == k.end()) return std::nullopt;
  return it->second;
}
}  // namespace

std::optional<num::DType> vectorStageDType(Stage s) {
  switch (s) {
    case Stage::VectorFxp: case Stage::VectorFpToFxp: return num::DType::i32;
    case Stage::VectorFp: case Stage::VectorFpDiv: case Stage::VectorFxpToFp: return num::DType::f32;
    default: return std::nullopt;
  }
}

bool TypeChecker::FunctionChecker::veOperand(const ast::Expr &e0, const TensorType &stream, const std::string &opText,
                                             VeOpArgs &args, std::vector<std::pair<TensorType, int>> &vrfs, bool skip) {
  const ast::Expr *e = &e0;
  VeOperandArg o;
  // VeBranchOperand::always(x) / ::group(x, GroupId::Zero): the operand applies to every group or one.
  if (e->kind == ast::Expr::Call && e->operands[0]->kind == ast::Expr::PathE) {
    std::string callee = e->operands[0]->path.str();
    if (callee == "VeBranchOperand::always" || callee == "VeBranchOperand::group") {
      bool group = callee == "VeBranchOperand::group";
      if (e->operands.size() != (group ? 3u : 2u)) {
        error(e->range, "`" + callee + "(..)` takes " + (group ? "an operand and a `GroupId`" : "an operand"));
        return false;
      }
      if (group) {
        if (!checkVariant(*e->operands[2], "GroupId", "`VeBranchOperand::group(..)`")) return false;
        o.group = lastSegment(e->operands[2]->path.str()) == "Zero" ? 0 : 1;
      }
      e = e->operands[1].get();
    } else if (callee == "VeRhs::vrf") {
      if (e->operands.size() != 2) {
        error(e->range, "`VeRhs::vrf(..)` takes the VRF tensor `&vrf`");
        return false;
      }
    }
  }
  if (e->kind == ast::Expr::Tuple && e->operands.empty()) {
    if (!skip) {
      error(e->range, "`()` skips one group's side of a per-group op in two-group mode; " + opText + " needs an operand here");
      return false;
    }
    o.kind = VeOperandArg::Skip;
    args.operands.push_back(o);
    return true;
  }
  if (e->kind == ast::Expr::PathE && e->path.str() == "Stash") {
    if (!stream.ve.stash) {
      error(e->range, "`Stash` reads the snapshot of `.vector_stash()`, but no stash is live in this pass (\"Vector Engine\" > Stash)");
      return false;
    }
    if (stream.ve.stashUsed) {
      error(e->range, "the stash was already consumed by a binary op of this pass; it is not available after that "
                      "(\"Vector Engine\" > Stash: single slot, unavailable after a binary op consumes it)");
      return false;
    }
    if (stream.ve.stashType != stream.dtype) {
      error(e->range, std::string("the stash is ") + num::dtypeName(stream.ve.stashType) + " but " + opText + " computes on " +
                          num::dtypeName(stream.dtype) + " (the stash is typed: an " + num::dtypeName(stream.ve.stashType) +
                          " stash is consumed only by " + num::dtypeName(stream.ve.stashType) + " ops; \"Vector Engine\" > Stash)");
      return false;
    }
    // "The stash follows the current tensor mapping. When it is read later, the implementation
    // reinterprets or transposes it to the current mapping": it must hold the elements the stream
    // holds now, however laid out (a reduce since the stash removed an axis the stash still has).
    if (stream.ve.stashTime && stream.ve.stashPacket) {
      const Coverage then = coverageOf({stream.ve.stashTime, stream.ve.stashPacket}), now = coverageOf({stream.time, stream.packet});
      if (then.known && now.known && then.axes != now.axes) {
        error(e->range, "the stash holds the elements of Time " + stream.ve.stashTime->str() + ", Packet " +
                            stream.ve.stashPacket->str() + " but the stream now holds those of Time " + stream.time->str() +
                            ", Packet " + stream.packet->str() + "; a stash is read as the current mapping, so it must hold the "
                            "same elements (\"Vector Engine\" > Stash: the stash follows the current tensor mapping)");
        return false;
      }
    }
    o.kind = VeOperandArg::Stash;
    args.operands.push_back(o);
    return true;
  }
  if (e->kind == ast::Expr::Call && e->operands.size() == 2 && e->operands[0]->kind == ast::Expr::PathE &&
      e->operands[0]->path.str() == "VeRhs::vrf")
    e = e->operands[1].get();
  CheckedValue v = eval(*e, std::nullopt);
  if (v.kind == CheckedValue::None) return false;
  if ((v.kind == CheckedValue::Int || v.kind == CheckedValue::Float) &&
      !requireConstant(v, e->range, "the constant operand of " + opText))
    return false;
  bool f32 = stream.dtype == num::DType::f32;
  if (v.kind == CheckedValue::Int) {
    if (f32) {
      error(e->range, opText + " computes on f32; write the constant as an f32 (e.g. `" + std::to_string(v.value) + ".0f32`)");
      return false;
    }
    if (v.value < INT32_MIN || v.value > INT32_MAX) {
      error(e->range, "the operand " + std::to_string(v.value) + " does not fit in i32");
      return false;
    }
    o.kind = VeOperandArg::Constant;
    o.i = v.value;
  } else if (v.kind == CheckedValue::Float) {
    if (!f32) {
      error(e->range, opText + " computes on i32; its constant operand is an i32, not a float");
      return false;
    }
    if (std::isfinite(v.real) && std::fabs(v.real) > 3.4028234663852886e38) {
      error(e->range, "the operand does not fit in f32");
      return false;
    }
    o.kind = VeOperandArg::Constant;
    o.f = v.real;
    o.isFloat = true;
  } else if (v.kind == CheckedValue::Tensor && v.type.tier == Tier::Vrf) {
    if (v.type.dtype != stream.dtype) {
      error(e->range, std::string("the VRF operand is ") + num::dtypeName(v.type.dtype) + " but " + opText + " computes on " +
                          num::dtypeName(stream.dtype));
      return false;
    }
    if (auto problem = vrfOperandProblem(stream, v.type)) {
      error(e->range, "the VRF operand " + v.type.str() + " does not fit the stream " + stream.str() +
                          " (it is broadcast over the stream's other axes): " + *problem);
      return false;
    }
    if (v.tensorId >= 0) chainSources_[currentChain_].push_back(v.tensorId);
    o.kind = VeOperandArg::Vrf;
    o.vrf = int(vrfs.size());
    vrfs.push_back({v.type, v.tensorId});
  } else {
    error(e->range, "the operand of " + opText + " is a constant of the stream's type (" + num::dtypeName(stream.dtype) +
                        "), a VRF tensor `VeRhs::vrf(&vrf)` or `Stash`, not " + receiverTypeName(v));
    return false;
  }
  args.operands.push_back(o);
  return true;
}

CheckedValue TypeChecker::FunctionChecker::opVector(const ast::Expr &call, const CheckedValue &recv,
                                                    const std::optional<TensorType> &expected) {
  const std::string op = call.path.segments[0].name;
  llvm::SMRange r = opRange(call);
  if (!requireStage(call, recv)) return {};
  const TensorType &in = recv.type;
  TensorType out = in;
  auto args = std::make_shared<VeOpArgs>();
  std::vector<std::pair<TensorType, int>> vrfs;
  const bool paired = in.stage == Stage::VectorPair;
  const std::string opText = "`." + op + "()`";
  // Two-group mode keeps the pipeline order too: the stage the pair has reached must be a receiver.
  if (paired) {
    // A `_zip` op enters the stage of its single-stream counterpart.
    static const std::map<std::string, const char *> kZipAs = {
        {"vector_clip_zip", "vector_clip"}, {"vector_clip_zip_with_mode", "vector_clip"},
        {"vector_logic_zip", "vector_logic"}, {"vector_logic_zip_with_mode", "vector_logic"},
        {"vector_fp_zip", "vector_fp_binary"},
        {"vector_fp_zip_with_mode", "vector_fp_binary"}, {"vector_fxp_zip", "vector_fxp"},
        {"vector_fxp_zip_with_mode", "vector_fxp"}};
    auto zipAs = kZipAs.find(op);
    const catalog::Method *m = catalog::findMethod(zipAs == kZipAs.end() ? op : zipAs->second);
    bool ok = false;
    for (const char *rcv : m->receivers) ok = ok || llvm::StringRef(rcv) == stageTypeName(in.ve.pairStage);
    if (!ok) {
      error(r, opText + " cannot follow the two groups at the stage of " + describeStage(in.ve.pairStage) +
                   " (the stages run in pipeline order in two-group mode too; \"Vector Engine\" > Two-Group Mode)");
      return {};
    }
  }
  auto toStage = [&](Stage s) {
    if (paired) out.ve.pairStage = s;
    else out.stage = s;
  };
  auto needType = [&](bool ok, const char *what) {
    if (!ok) error(r, opText + " " + what + "; the stream is " + num::dtypeName(in.dtype) + " (\"Vector Engine\" > Stages, Data Type)");
    return ok;
  };
  const auto operands = llvm::ArrayRef<ast::ExprP>(call.operands).drop_front();
  bool ok = true;

  if (op == "vector_init") {
    if (in.dtype != num::DType::i32 && in.dtype != num::DType::f32)
      error(r, std::string("the Vector Engine computes on i32 or f32, not ") + num::dtypeName(in.dtype) +
                   " (cast in the Fetch Engine, e.g. `.fetch::<" + (num::isInteger(in.dtype) ? "i32" : "f32") + ", ...>()`)");
    if (in.packetBytes() != 32)
      error(r, "the Vector Engine takes 32-byte flits; the packet " + in.packet->str() + " is " +
                   std::to_string(in.packetBytes()) + " bytes");
    out.stage = Stage::VectorInit;
    out.ve = VeState{};
  } else if (op == "vector_intra_slice_branch") {
    if (in.stage == Stage::VectorInterSliceReduce && !in.ve.interFirst)
      error(r, "after an intra-slice block, the inter-slice reduce ends the Vector Engine's program (IntraFirst: "
               "Intra-Slice Block -> optional Inter-Slice Block; \"Vector Engine\" > Ordering): call `.vector_final()`");
    const ast::Expr &mode = *call.operands[1];
    args->op = mode.kind == ast::Expr::StructLit ? lastSegment(mode.path.str()) : lastSegment(mode.path.str());
    if (args->op == "AxisToggle") {
      // "AxisToggle { axis }: group_id = axis_index % 2": an axis of the stream's Time or Packet.
      const ast::Expr *v = mode.fields.empty() ? nullptr : mode.fields[0].value.get();
      std::string axis = v && v->kind == ast::Expr::PathE ? lastSegment(v->path.str()) : "";
      bool inStream = false, inSlice = false;
      for (const MappingRef &m : {in.time, in.packet})
        if (m) for (const AxisInfo &x : m->axes()) inStream = inStream || x.baseName() == axis;
      if (in.slice) for (const AxisInfo &x : in.slice->axes()) inSlice = inSlice || x.baseName() == axis;
      if (!inStream) {
        if (inSlice)
          error(v->range, "`BranchMode::AxisToggle` over the Slice axis `" + axis + "` is not supported yet (the CPU model "
                          "toggles groups along Time and Packet; \"Vector Engine\" > Branch)");
        else
          error(v ? v->range : r, "`BranchMode::AxisToggle { axis }` toggles the group by an axis of the stream's Time or "
                                  "Packet (" + in.time->str() + ", " + in.packet->str() + "), not `" + axis + "`");
        return {};
      }
      args->reduceAxis = axis;
    }
    out.stage = Stage::VectorBranch;
    out.ve.toggle = args->op == "AxisToggle";
  } else if (op == "vector_intra_slice_unzip" || op == "vector_split" || op == "vector_trim_way4" ||
             op == "vector_concat" || op == "vector_pad_way8") {
    ok = veShape(call, in, out, *args, expected);
  } else if (op == "vector_intra_slice_reduce") {
    ok = veIntraReduce(call, in, out, *args, expected);
  } else if (op == "vector_inter_slice_reduce") {
    ok = veInterReduce(call, in, out, *args, expected);
  } else if (op == "vector_fxp_to_fp" || op == "vector_fp_to_fxp") {
    bool toFp = op == "vector_fxp_to_fp";
    // the input is the other stage's type: FxpToFp reads the Fxp stage's i32, FpToFxp the Fp stage's f32
    ok = needType(in.dtype == vectorStageDType(toFp ? Stage::VectorFxp : Stage::VectorFp),
                  toFp ? "converts i32 to f32" : "converts f32 to i32");
    CheckedValue w = eval(*call.operands[1], std::nullopt);
    if (w.kind == CheckedValue::None) return {};
    if (!requireConstant(w, call.operands[1]->range, "the integer width of " + opText)) return {};
    if (w.kind != CheckedValue::Int || w.value < 0 || w.value > 31) {
      error(call.operands[1]->range, opText + " takes the integer bit width of the fixed-point value, a constant from 0 to 31 "
                                              "(the i32 holds 31 - int_width fraction bits; docs/numerics.md)");
      return {};
    }
    args->intWidth = uint64_t(w.value);
    const Stage stage = toFp ? Stage::VectorFxpToFp : Stage::VectorFpToFxp;
    out.dtype = *vectorStageDType(stage);
    toStage(stage);
  } else if (op == "vector_stash") {
    if (in.ve.zipped) {
      error(r, "`.vector_stash()` is unavailable after a `_zip` op merged two groups (\"Vector Engine\" > Two-Group Mode: "
               "stash() and filter() stay unavailable on the merged tensor)");
      return {};
    }
    if (in.ve.stash) {
      error(r, "a stash was already taken in this pass; the stash is a single slot per pass (\"Vector Engine\" > Stash)");
      return {};
    }
    out.ve.stash = true;
    out.ve.stashType = in.dtype;
    out.ve.stashTime = in.time;
    out.ve.stashPacket = in.packet;
  } else if (op == "vector_final") {
    out.stage = Stage::VectorFinal;
  } else if (auto am = aluMethod(op)) {
    // ---- an ALU stage: operator, mode, operands
    Family fam = am->family;
    bool f32 = in.dtype == num::DType::f32;
    const char *enumName = nullptr;
    Stage stage = Stage::VectorFxp;
    switch (fam) {
      case Family::Logic: enumName = f32 ? "LogicBinaryOpF32" : "LogicBinaryOpI32"; stage = Stage::VectorLogic; break;
      case Family::Fxp: enumName = "FxpBinaryOp"; stage = Stage::VectorFxp; break;
      case Family::FpUnary: enumName = "FpUnaryOp"; stage = Stage::VectorFp; break;
      case Family::FpBinary: enumName = "FpBinaryOp"; stage = Stage::VectorFp; break;
      case Family::FpTernary: enumName = "FpTernaryOp"; stage = Stage::VectorFp; break;
      case Family::FpDiv: enumName = "FpDivBinaryOp"; stage = Stage::VectorFpDiv; break;
      case Family::Clip: enumName = f32 ? "ClipBinaryOpF32" : "ClipBinaryOpI32"; stage = Stage::VectorClip; break;
    }
    if (std::optional<num::DType> want = vectorStageDType(stage); want && in.dtype != *want)
      ok = needType(false, *want == num::DType::i32 ? "is integer/fixed-point arithmetic on i32"
                                                    : "is floating-point arithmetic on f32 (convert with "
                                                      "`.vector_fxp_to_fp(int_width)` first)");
    if (!ok) return {};
    if (am->zip && !paired) {
      error(r, opText + " merges the two groups of `.vector_intra_slice_unzip()`; this stream is a single stream");
      return {};
    }
    unsigned arity = fam == Family::FpUnary ? 1 : fam == Family::FpTernary ? 3 : 2;
    // A unary op with a mode reads its operand like a binary op (UnaryArgMode::Mode1: op(operand)).
    if (arity == 1 && am->withMode) arity = 2;
    // The argument list: op [, mode] then the operands (single: 1 binary, 0 unary, 1 ternary pair;
    // per-group: one per group; zip: none).
    size_t base = am->withMode ? 2 : 1;
    size_t want = am->zip ? base : paired ? base + 2 : base + (arity == 1 ? 0 : 1);
    // UnaryArgMode::Mode0 computes op(stream) and reads no operand, so the operand may be left out.
    if (fam == Family::FpUnary && am->withMode && !paired && operands.size() == base &&
        operands[1]->kind == ast::Expr::PathE && lastSegment(operands[1]->path.str()) == "Mode0")
      want = base;
    if (operands.size() != want) {
      std::string form = am->zip ? (am->withMode ? "an operator and a `BinaryArgMode`" : "an operator")
                         : paired ? std::string(am->withMode ? "an operator, a mode and " : "an operator and ") +
                                        (arity == 1 ? "one `bool` per group (apply to group 0, group 1)"
                                                    : "one operand per group (`()` skips a group)")
                         : std::string(am->withMode ? "an operator, a mode and " : "an operator") +
                               (arity == 1 ? "" : arity == 2 ? (am->withMode ? "an operand" : " and an operand")
                                                             : " and its two operands `(operand0, operand1)`");
      error(r, opText + " takes " + form + ", found " + std::to_string(operands.size()) + " argument" +
                   (operands.size() == 1 ? "" : "s"));
      return {};
    }
    if (!checkVariant(*operands[0], enumName, opText)) return {};
    std::string vtext = variantText(*operands[0]);
    std::string vname = vtext.substr(std::string(enumName).size() + 2);
    args->op = vname;
    args->zip = am->zip;
    // The ALU it occupies.
    std::optional<VeAlu> alu;
    if (fam == Family::Logic) alu = logicAlu(*byName<LogicOp>(tcp::enumNames(LogicOp{}), vname));
    else if (fam == Family::Fxp) alu = fxpAlu(*byName<FxpOp>(tcp::enumNames(FxpOp{}), vname));
    else if (fam == Family::Clip) alu = clipAlu(*byName<ClipOp>(tcp::enumNames(ClipOp{}), vname));
    else if (fam != Family::FpDiv) alu = fpAlu(*byName<FpOp>(tcp::enumNames(FpOp{}), vname));
    if (alu) {
      uint32_t bit = 1u << unsigned(*alu);
      if (in.ve.alus & bit) {
        error(operands[0]->range, std::string(aluName(*alu)) + " is already in use: `" + vname + "` needs the ALU " +
                                      aluName(*alu) + ", which an earlier op of this pass used (each ALU can be used once per "
                                      "pass; " + kConstraints + ", ALU single-use: run it in another Tensor Unit invocation)");
        return {};
      }
      out.ve.alus |= bit;
    }
    if (am->withMode) {
      // "Argument Modes": the mode's index in the manual's table is the configuration's arg_mode.
      static const std::vector<std::string> kUnary = {"Mode0", "Mode1"}, kBinary = {"Mode00", "Mode01", "Mode10", "Mode11"},
                                            kTernary = {"Mode012", "Mode002", "Mode102", "Mode112", "Mode020", "Mode021", "Mode120"};
      const char *modeEnum = fam == Family::FpUnary ? "UnaryArgMode" : fam == Family::FpTernary ? "TernaryArgMode" : "BinaryArgMode";
      const auto &modes = fam == Family::FpUnary ? kUnary : fam == Family::FpTernary ? kTernary : kBinary;
      if (!checkVariant(*operands[1], modeEnum, opText)) return {};
      std::string m = lastSegment(operands[1]->path.str());
      args->mode = int(std::find(modes.begin(), modes.end(), m) - modes.begin());
      assert(size_t(args->mode) < modes.size() && "checkVariant accepted a mode outside the table");
    }
    // Operands.
    if (am->zip) {
      // op(group0, group1) by the mode; no operand.
    } else if (paired && arity == 1) {
      for (size_t g = 0; g < 2; ++g) {
        CheckedValue b = eval(*operands[base + g], std::nullopt);
        if (b.kind == CheckedValue::None) return {};
        if (b.kind != CheckedValue::Bool) {
          error(operands[base + g]->range, opText + " in two-group mode takes one `bool` per group (whether it applies)");
          return {};
        }
        VeOperandArg o;
        o.kind = b.value ? VeOperandArg::Apply : VeOperandArg::Skip;
        o.group = int(g);
        args->operands.push_back(o);
      }
    } else if (arity == 3) {
      // (operand0, operand1), per group in two-group mode
      for (size_t k = base; k < operands.size(); ++k) {
        const ast::Expr &t = *operands[k];
        if (paired && t.kind == ast::Expr::Tuple && t.operands.empty()) {
          VeOperandArg o;
          o.kind = VeOperandArg::Skip;
          args->operands.push_back(o);
          args->operands.push_back(o);
          continue;
        }
        if (t.kind != ast::Expr::Tuple || t.operands.size() != 2) {
          error(t.range, opText + " takes its two operands as a pair `(operand0, operand1)` (\"Vector Engine\" > Operands)");
          return {};
        }
        for (const auto &x : t.operands)
          if (!veOperand(*x, in, opText, *args, vrfs, false)) return {};
      }
      if (paired)  // two pairs: the first serves group 0, the second group 1
        for (size_t j = 0; j < args->operands.size(); ++j)
          if (args->operands[j].group < 0) args->operands[j].group = int(j / 2);
    } else if (arity == 2) {
      for (size_t k = base; k < operands.size(); ++k)
        if (!veOperand(*operands[k], in, opText, *args, vrfs, paired)) return {};
    }
    if (paired && !am->zip && arity == 2) {
      for (size_t g = 0; g < args->operands.size(); ++g)
        if (args->operands[g].group < 0) args->operands[g].group = int(g);
    }
    // A binary or ternary op that reads the stash consumes it.
    for (const VeOperandArg &o : args->operands)
      if (o.kind == VeOperandArg::Stash) out.ve.stashUsed = true;
    if (am->zip) {
      out.stage = stage;
      out.ve.paired = false;
      out.ve.zipped = true;
    } else {
      toStage(stage);
    }
  } else {
    llvm::report_fatal_error("internal error: no Vector Engine rule for `" + llvm::Twine(op) + "`");
  }
  if (!ok) return {};
  TypedOp &e = emit(call, in, out);
  e.ve = args;
  // The typed program's printed form: the operator (and an i32 constant operand) as before.
  if (op == "vector_intra_slice_branch") e.arg = "BranchMode::" + args->op;
  else if (aluMethod(op)) e.arg = args->op;
  if (args->operands.size() == 1 && args->operands[0].kind == VeOperandArg::Constant && !args->operands[0].isFloat &&
      args->operands[0].group < 0)
    e.imm = args->operands[0].i;
  for (auto &[t, id] : vrfs) {
    e.operands.push_back(t);
    e.operandTensors.push_back(id);
  }
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
