// OpCatalog.cpp — the catalog's data: the manual's engine methods, types, enums and library paths.
//
// Sources: the Interface sections of "Moving Tensors" (Fetch, Commit, DMA), "Computing Tensors"
// (Switch, Collect, Contraction, TRF Sequencer, Reducer, Vector Engine with its Intra-Slice Block,
// Intra-Slice Reduce and Inter-Slice Block, Cast, Transpose), "Mapping Tensors" (tiling) and the
// listings of tests/conformance/manual/. A method tcp implements names its rule's receivers and
// argument forms; the others name the feature and the section that describes it.
#include "OpCatalog.h"

#include <algorithm>

namespace tcp::catalog {

namespace {
using A = ArgForm;

// Section names, spelled as the manual's headings.
constexpr const char *kVeStages = "\"Vector Engine\" > Stage Details";
constexpr const char *kVeTwoGroup = "\"Vector Engine\" > Two-Group Mode";
constexpr const char *kVeArgModes = "\"Vector Engine\" > Argument Modes";
constexpr const char *kVeOperands = "\"Vector Engine\" > Operands";
constexpr const char *kVeInter = "\"Vector Engine\" > Inter-Slice Block";
constexpr const char *kVeIntraReduce = "\"Vector Engine\" > Intra-Slice Reduce";

// The Vector Engine's single-stream stages in pipeline order ("Intra-Slice Block" > Stages), by
// the manual's type names; a stage may be skipped, so a method applies after every earlier stage.
const std::vector<const char *> kUpToLogic = {"VectorBranchTensor", "VectorLogicTensor"};
const std::vector<const char *> kUpToFxp = {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor"};
const std::vector<const char *> kUpToFxpToFp = {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor",
                                                "VectorFxpToFpTensor"};
const std::vector<const char *> kWay4 = {"VectorNarrowTensor", "VectorFpTensor"};
const std::vector<const char *> kUpToReduce = {"VectorNarrowTensor", "VectorFpTensor", "VectorIntraSliceReduceTensor"};
const std::vector<const char *> kUpToFpDiv = {"VectorNarrowTensor", "VectorFpTensor", "VectorIntraSliceReduceTensor",
                                              "VectorFpDivTensor"};
const std::vector<const char *> kUpToWiden = {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor",
                                              "VectorFxpToFpTensor", "VectorWidenTensor"};
const std::vector<const char *> kUpToFpToFxp = {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor",
                                                "VectorFxpToFpTensor", "VectorWidenTensor", "VectorFpToFxpTensor"};
const std::vector<const char *> kUpToClip = {"VectorBranchTensor",  "VectorLogicTensor",   "VectorFxpTensor",
                                             "VectorFxpToFpTensor", "VectorWidenTensor",   "VectorFpToFxpTensor",
                                             "VectorClipTensor"};

// "vector_inter_slice_reduce() is available only from Way8 intra-slice stages ...: Branch, Logic,
// Fxp, FxpToFp, Widen, FpToFxp, and Clip."
const std::vector<const char *> kInterFrom = {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor",
                                              "VectorFxpToFpTensor", "VectorWidenTensor", "VectorFpToFxpTensor",
                                              "VectorClipTensor"};

std::vector<const char *> plus(std::vector<const char *> a, std::initializer_list<const char *> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Method supported(const char *name, std::vector<const char *> receivers, std::vector<ArgSpec> args, unsigned typeArgs,
                 bool emitsOp = true) {
  return Method{name, std::move(receivers), true, std::move(args), typeArgs, emitsOp, {}};
}

Method unsupported(const char *name, std::vector<const char *> receivers, const char *feature, const char *section) {
  return Method{name, std::move(receivers), false, {}, 0, true, {feature, section}};
}

Variant unit(const char *name) { return Variant{name, Variant::Unit, {}, true, {}}; }
Variant tuple(const char *name, std::vector<const char *> payload) { return Variant{name, Variant::Tuple, std::move(payload), true, {}}; }
Variant strukt(const char *name, std::vector<const char *> fields) { return Variant{name, Variant::Struct, std::move(fields), true, {}}; }
Variant refused(Variant v, const char *feature, const char *section) {
  v.supported = false;
  v.limitation = {feature, section};
  return v;
}

std::vector<Enum> units(const char *name, std::initializer_list<const char *> variants, const char *section) {
  Enum e{name, {}, section};
  for (const char *v : variants) e.variants.push_back(unit(v));
  return {e};
}
}  // namespace

const std::vector<Method> &methods() {
  static const std::vector<Method> kMethods = [] {
    std::vector<Method> m = {
        // ---- Moving Tensors: DMA ("DMA Engine" > Interface; tcp's general form `.dma::<Time, Packet>`)
        supported("to_dm", {"HbmTensor", "HbmTensorView"},
                  {{A::TensorDma, "the Tensor DMA `&mut ctx.tdma`"}, {A::Address, "the DM address"}}, 3),
        supported("to_hbm", {"DmTensor", "DmTensorView"},
                  {{A::TensorDma, "the Tensor DMA `&mut ctx.tdma`"}, {A::Address, "the HBM address"}}, 1),
        supported("dma", {"HbmTensor", "HbmTensorView", "DmTensor", "DmTensorView"},
                  {{A::TensorDma, "the Tensor DMA `&mut ctx.tdma`"}, {A::Address, "the destination address"}}, 2),
        // ---- views ("Mapping Tensors": views are metadata; `begin` streams a view)
        supported("view", {"HbmTensor", "DmTensor"}, {}, 0, /*emitsOp=*/false),
        supported("view_mut", {"HbmTensor", "DmTensor"}, {}, 0, /*emitsOp=*/false),
        // `view.tile::<Dim, SIZE, Tile>(start)` ("Mapping Tensors" > Resize): a resized, offset view.
        supported("tile", {"HbmTensorView", "DmTensorView"}, {{A::Integer, "the tile's start index along Dim"}}, 3,
                  /*emitsOp=*/false),
        // ---- the Tensor Unit: contexts open chains ("Execution Contexts"; "Fetch Engine" > Interleaving Tensors)
        supported("begin", {"TuContext"}, {{A::DmView, "the DM tensor view to stream"}}, 0),
        supported("begin_interleaved", {"TuContext"},
                  {{A::DmView, "the first DM tensor view"}, {A::DmView, "the second DM tensor view"}}, 6),
        // ---- Fetch Engine and its adapter
        supported("fetch", {"BeginTensor"}, {}, 3),
        supported("fetch_with_zero_point", {"BeginTensor"}, {{A::Integer, "the zero point"}}, 3),
        supported("fetch_with_zero_points", {"BeginTensor"}, {{A::ZeroPoints, "the zero points `[zp0, zp1]`"}}, 3),
        supported("fetch_with_table", {"BeginTensor"}, {{A::Table, "the lookup table"}}, 3),
        // ---- Switch and Collect Engines
        supported("switch", {"FetchTensor"}, {{A::Variant, "the switch configuration", "SwitchConfig"}}, 2),
        supported("collect", {"FetchTensor", "SwitchTensor"}, {}, 2),
        // ---- register files and the Contraction Engine ("TRF Sequencer", "Reducer", "Vector Engine" > VRF Input)
        supported("to_trf", {"CollectTensor"}, {{A::Variant, "the TRF region", "TrfAddress"}}, 2),
        supported("to_vrf", {"CollectTensor"}, {{A::Address, "the VRF address"}}, 1),
        supported("align", {"CollectTensor"}, {{A::TrfRef, "the TRF tensor `&trf`"}}, 4),
        supported("contract", {"AlignedPair"}, {}, 1),
        supported("accumulate", {"ContractionTensor"}, {{A::Variant, "the accumulation kind", "AccumulationKind"}}, 2),
        // ---- Vector Engine (OpVector*.cpp): entries, the stages in pipeline order, stash, two-group ops
        supported("vector_init", {"CollectTensor", "AccumulationTensor"}, {}, 0),
        supported("vector_intra_slice_branch", {"VectorInitTensor", "VectorInterSliceReduceTensor"},
                  {{A::Variant, "the branch mode", "BranchMode"}}, 0),
        supported("vector_intra_slice_unzip", {"VectorInitTensor"}, {}, 3),
        supported("vector_inter_slice_reduce", plus(kInterFrom, {"VectorInitTensor"}),
                  {{A::VeArgs, "the reduce operator (`InterSliceReduceOpI32` or `InterSliceReduceOpF32`)"}}, 2),
        supported("vector_logic", plus(kUpToLogic, {"VectorTensorPair"}), {{A::VeArgs, "the operator and its operand"}}, 0),
        supported("vector_logic_with_mode", plus(kUpToLogic, {"VectorTensorPair"}),
                  {{A::VeArgs, "the operator, the `BinaryArgMode` and the operand"}}, 0),
        supported("vector_fxp", plus(kUpToFxp, {"VectorTensorPair"}),
                  {{A::VeArgs, "the operator and its operand (an i32 constant, `VeRhs::vrf(&vrf)` or `Stash`)"}}, 0),
        supported("vector_fxp_with_mode", plus(kUpToFxp, {"VectorTensorPair"}),
                  {{A::VeArgs, "the operator, the `BinaryArgMode` and the operand"}}, 0),
        supported("vector_fxp_to_fp", plus(kUpToFxp, {"VectorTensorPair"}), {{A::Integer, "the integer bit width"}}, 0),
        supported("vector_split", plus(kUpToFxpToFp, {"VectorTensorPair"}), {}, 2),
        supported("vector_trim_way4", plus(kUpToFxpToFp, {"VectorTensorPair"}), {}, 1),
        supported("vector_fp_unary", plus(kWay4, {"VectorTensorPair"}), {{A::VeArgs, "the `FpUnaryOp`"}}, 0),
        supported("vector_fp_unary_with_mode", plus(kWay4, {"VectorTensorPair"}),
                  {{A::VeArgs, "the `FpUnaryOp`, the `UnaryArgMode` and the operand"}}, 0),
        supported("vector_fp_binary", plus(kWay4, {"VectorTensorPair"}), {{A::VeArgs, "the `FpBinaryOp` and its operand"}}, 0),
        supported("vector_fp_binary_with_mode", plus(kWay4, {"VectorTensorPair"}),
                  {{A::VeArgs, "the `FpBinaryOp`, the `BinaryArgMode` and the operand"}}, 0),
        supported("vector_fp_ternary", plus(kWay4, {"VectorTensorPair"}),
                  {{A::VeArgs, "the `FpTernaryOp` and its operands `(operand0, operand1)`"}}, 0),
        supported("vector_fp_ternary_with_mode", plus(kWay4, {"VectorTensorPair"}),
                  {{A::VeArgs, "the `FpTernaryOp`, the `TernaryArgMode` and its operands `(operand0, operand1)`"}}, 0),
        supported("vector_intra_slice_reduce", kWay4, {{A::VeArgs, "the reduce operator"}}, 3),
        supported("vector_fp_div", plus(kUpToReduce, {"VectorTensorPair"}), {{A::VeArgs, "`FpDivBinaryOp::DivF` and its operand"}}, 0),
        supported("vector_fp_div_with_mode", plus(kUpToReduce, {"VectorTensorPair"}),
                  {{A::VeArgs, "`FpDivBinaryOp::DivF`, the `BinaryArgMode` and the operand"}}, 0),
        supported("vector_concat", plus(kUpToFpDiv, {"VectorTensorPair"}), {}, 2),
        supported("vector_pad_way8", plus(kUpToFpDiv, {"VectorTensorPair"}), {}, 1),
        supported("vector_fp_to_fxp", plus(kUpToWiden, {"VectorTensorPair"}), {{A::Integer, "the integer bit width"}}, 0),
        supported("vector_clip", plus(kUpToClip, {"VectorTensorPair"}), {{A::VeArgs, "the operator and its operand"}}, 0),
        supported("vector_clip_with_mode", plus(kUpToClip, {"VectorTensorPair"}),
                  {{A::VeArgs, "the operator, the `BinaryArgMode` and the operand"}}, 0),
        supported("vector_final", plus(kUpToClip, {"VectorInterSliceReduceTensor"}), {}, 0),
        unsupported("vector_filter", kUpToClip,
                    "the Vector Engine's Filter stage (the manual does not define the type of its `mode` argument)",
                    kVeStages),
        supported("vector_stash",
                  {"VectorBranchTensor", "VectorLogicTensor", "VectorFxpTensor", "VectorNarrowTensor", "VectorFpTensor",
                   "VectorFpDivTensor", "VectorClipTensor"},
                  {}, 0),
        supported("vector_fxp_zip", {"VectorTensorPair"}, {{A::VeArgs, "the `FxpBinaryOp`"}}, 0),
        supported("vector_fxp_zip_with_mode", {"VectorTensorPair"}, {{A::VeArgs, "the `FxpBinaryOp` and the `BinaryArgMode`"}}, 0),
        supported("vector_fp_zip", {"VectorTensorPair"}, {{A::VeArgs, "the `FpBinaryOp`"}}, 0),
        supported("vector_fp_zip_with_mode", {"VectorTensorPair"}, {{A::VeArgs, "the `FpBinaryOp` and the `BinaryArgMode`"}}, 0),
        supported("vector_clip_zip", {"VectorTensorPair"}, {{A::VeArgs, "the clip operator"}}, 0),
        supported("vector_clip_zip_with_mode", {"VectorTensorPair"}, {{A::VeArgs, "the clip operator and the `BinaryArgMode`"}}, 0),
        supported("vector_logic_zip", {"VectorTensorPair"}, {{A::VeArgs, "the logic operator"}}, 0),
        supported("vector_logic_zip_with_mode", {"VectorTensorPair"}, {{A::VeArgs, "the logic operator and the `BinaryArgMode`"}}, 0),
        // ---- Cast, Transpose and Commit Engines
        supported("cast", {"CollectTensor", "AccumulationTensor", "VectorFinalTensor"}, {}, 2),
        supported("transpose", {"CollectTensor", "AccumulationTensor", "VectorFinalTensor", "CastTensor"}, {}, 2),
        // commit is defined for every StreamTensor position ("Commit Engine" > Interface): a fetched or
        // switched packet that is one 32-byte flit commits without a collect.
        supported("commit", {"FetchTensor", "SwitchTensor", "CollectTensor", "AccumulationTensor", "VectorFinalTensor", "CastTensor", "TransposeTensor"},
                  {{A::Address, "the DM address"}}, 1),
        supported("commit_view",
                  {"FetchTensor", "SwitchTensor", "CollectTensor", "AccumulationTensor", "VectorFinalTensor", "CastTensor", "TransposeTensor"},
                  {{A::DmViewMut, "the mutable DM tensor view `out.view_mut()`"}}, 1),
    };
    return m;
  }();
  return kMethods;
}

const Method *findMethod(llvm::StringRef name) {
  for (const Method &m : methods())
    if (name == m.name) return &m;
  return nullptr;
}

std::vector<std::string> methodNames() {
  std::vector<std::string> out;
  for (const Method &m : methods()) out.push_back(m.name);
  return out;
}

bool appliesTo(const Method &m, llvm::StringRef receiverType) {
  return std::any_of(m.receivers.begin(), m.receivers.end(), [&](const char *r) { return receiverType == r; });
}

std::vector<std::string> methodsFor(llvm::StringRef receiverType) {
  std::vector<std::string> out;
  for (const Method &m : methods())
    if (appliesTo(m, receiverType)) out.push_back(m.name);
  return out;
}

const std::vector<Enum> &enums() {
  static const std::vector<Enum> kEnums = [] {
    std::vector<Enum> e;
    auto add = [&](std::vector<Enum> v) { e.insert(e.end(), v.begin(), v.end()); };
    // Vector Engine ("Stage Details", "Operands", "Argument Modes", "Intra-Slice Reduce", "Inter-Slice Block").
    e.push_back({"BranchMode",
                 {unit("Unconditional"),
                  strukt("AxisToggle", {"axis"}),
                  refused(unit("ValidCount"), "branching by the Valid Count Generator", kVeStages),
                  refused(tuple("Comparison", {"[InputCmp; 4]"}),
                          "branching by comparisons of input values", kVeStages),
                  refused(unit("Vrf"), "ExecutionIds loaded from VRF", kVeStages)},
                 kVeStages});
    add(units("FxpBinaryOp",
              {"AddFxp", "AddFxpSat", "SubFxp", "SubFxpSat", "LeftShift", "LeftShiftSat", "MulFxp", "MulInt",
               "LogicRightShift", "ArithRightShift", "ArithRightShiftRound"},
              kVeStages));
    add(units("FpUnaryOp", {"Exp", "NegExp", "Sqrt", "Tanh", "Sigmoid", "Erf", "Log", "Sin", "Cos"}, kVeStages));
    e.push_back({"FpBinaryOp",
                 {unit("AddF"), unit("SubF"), tuple("MulF", {"FpMulAlu"}),
                  refused(tuple("MaskMulF", {"FpMulAlu"}), "masked multiply (the manual does not define its mask)", kVeStages),
                  unit("DivF")},
                 kVeStages});
    add(units("FpMulAlu", {"Mul0", "Mul1"}, kVeStages));
    add(units("FpDivBinaryOp", {"DivF"}, kVeStages));
    e.push_back({"FpTernaryOp",
                 {unit("FmaF"), refused(unit("MaskFmaF"), "masked fused multiply-add (the manual does not define its mask)",
                                        kVeStages)},
                 kVeStages});
    // The manual lists the Logic Cluster's ops per type without naming the enum; tcp names them like
    // the Clip Cluster's (docs/manual-errata.md, "Names the manual leaves open").
    add(units("LogicBinaryOpI32", {"BitAnd", "BitOr", "BitXor", "LeftShift", "LogicRightShift", "ArithRightShift"},
              kVeStages));
    add(units("LogicBinaryOpF32", {"BitAnd", "BitOr", "BitXor"}, kVeStages));
    add(units("ClipBinaryOpI32", {"Min", "Max", "AbsMin", "AbsMax", "AddFxp", "AddFxpSat"}, kVeStages));
    add(units("ClipBinaryOpF32", {"Min", "Max", "AbsMin", "AbsMax", "Add"}, kVeStages));
    add(units("IntraSliceReduceOpI32", {"AddSat", "Max", "Min"}, kVeIntraReduce));
    add(units("IntraSliceReduceOpF32", {"Add", "Max", "Min"}, kVeIntraReduce));
    add(units("InterSliceReduceOpI32", {"Add", "AddSat", "Max", "Min"}, kVeInter));
    add(units("InterSliceReduceOpF32", {"Add", "Max", "Min", "Mul"}, kVeInter));
    add(units("UnaryArgMode", {"Mode0", "Mode1"}, kVeArgModes));
    add(units("BinaryArgMode", {"Mode00", "Mode01", "Mode10", "Mode11"}, kVeArgModes));
    add(units("TernaryArgMode", {"Mode012", "Mode002", "Mode102", "Mode112", "Mode020", "Mode021", "Mode120"}, kVeArgModes));
    // "VeBranchOperand::group(operand, GroupId::Zero), applied only to group 0": the two groups of
    // two-group mode are group 0 and group 1.
    add(units("GroupId", {"Zero", "One"}, kVeOperands));
    e.push_back({"VeOrder", {unit("IntraFirst"), unit("InterFirst")}, "\"Vector Engine\" > Ordering"});
    // Contraction Engine, TRF, Switch Engine.
    add(units("AccumulationKind", {"Interleaved", "Sequential"}, "\"Reducer\" > Interface"));
    add(units("TrfAddress", {"FirstHalf", "SecondHalf", "Full"}, "\"TRF Sequencer\" > Interface"));
    e.push_back({"SwitchConfig",
                 {unit("Forwarding"), strukt("Broadcast01", {"slice1", "slice0", "time0"}),
                  strukt("Broadcast1", {"slice1", "slice0"}), strukt("Transpose", {"slice1", "slice0"}),
                  strukt("InterTranspose", {"slice1", "slice0", "time0"}), strukt("CustomBroadcast", {"ring_size"})},
                 "\"Switch Engine\" > Interface"});
    // Types' const arguments ("Memory and Stream", "Mapping Tensors", "Execution Contexts", "DMA Engine").
    e.push_back({"Position",
                 {unit("Begin"), unit("Fetch"), unit("Switch"), unit("Collect"),
                  refused(unit("Contraction"),
                          "`StreamTensor` after the Contraction Engine (its Rows need `ContractionTensor`)",
                          "\"Memory and Stream\" > Tensor Unit Stream"),
                  unit("Reduce"), unit("Cast"), unit("Transpose")},
                 "\"Memory and Stream\" > Tensor Unit Stream"});
    add(units("PaddingKind", {"Top"}, "\"Mapping Tensors\" > Padding"));
    add(units("Tu", {"Main", "Sub"}, "\"Computing Tensors\" > Execution Contexts"));
    add(units("Dma", {"Tensor"}, "\"DMA Engine\" > Interface"));
    return e;
  }();
  return kEnums;
}

const Enum *findEnum(llvm::StringRef name) {
  for (const Enum &e : enums())
    if (name == e.name) return &e;
  return nullptr;
}

const Variant *findVariant(const Enum &e, llvm::StringRef name) {
  for (const Variant &v : e.variants)
    if (name == v.name) return &v;
  return nullptr;
}

std::vector<std::string> enumNames() {
  std::vector<std::string> out;
  for (const Enum &e : enums()) out.push_back(e.name);
  return out;
}

std::vector<std::string> variantNames(const Enum &e) {
  std::vector<std::string> out;
  for (const Variant &v : e.variants) out.push_back(v.name);
  return out;
}

const std::vector<EngineType> &types() {
  static const std::vector<EngineType> kTypes = [] {
    std::vector<EngineType> t;
    for (const char *n : {"HostTensor", "HbmTensor", "HbmTensorView", "DmTensor", "DmTensorView", "DmTensorViewMut",
                          "TrfTensor", "VrfTensor", "BeginTensor", "FetchTensor", "SwitchTensor", "CollectTensor",
                          "AlignedPair", "ContractionTensor", "AccumulationTensor", "VectorInitTensor", "VectorBranchTensor",
                          "VectorFxpTensor", "VectorFinalTensor", "CastTensor", "TransposeTensor", "StreamTensor",
                          "Context", "TuContext", "DmaContext", "LookupTable"})
      t.push_back({n, true, {}});
    for (const char *n : {"VectorLogicTensor", "VectorFxpToFpTensor", "VectorNarrowTensor", "VectorFpTensor",
                          "VectorIntraSliceReduceTensor", "VectorFpDivTensor", "VectorWidenTensor", "VectorFpToFxpTensor",
                          "VectorClipTensor", "VectorInterSliceReduceTensor", "VectorTensorPair"})
      t.push_back({n, true, {}});
    auto no = [&](const char *n, const char *feature, const char *section) { t.push_back({n, false, {feature, section}}); };
    no("VectorFilterTensor", "the Vector Engine's Filter stage", kVeStages);
    no("VectorTensor", "the Vector Engine's generic stage type", kVeStages);
    return t;
  }();
  return kTypes;
}

const EngineType *findType(llvm::StringRef name) {
  for (const EngineType &t : types())
    if (name == t.name) return &t;
  return nullptr;
}

const std::vector<Function> &functions() {
  static const std::vector<Function> kFunctions = {
      {"VeRhs::vrf", true, {}},
      {"VeBranchOperand::always", true, {}},
      {"VeBranchOperand::group", true, {}},
      {"Stash", true, {}},
      {"HbmTensor::from_addr", false, {"a tensor at a raw address (`from_addr`)", "\"Mapping Tensors\" > Resize"}},
      {"DmTensor::from_addr", false, {"a tensor at a raw address (`from_addr`)", "\"Mapping Tensors\" > Resize"}},
  };
  return kFunctions;
}

const Function *findFunction(llvm::StringRef path) {
  for (const Function &f : functions())
    if (path == f.path) return &f;
  return nullptr;
}

std::string notSupported(const std::string &what, const Limitation &l) {
  std::string out = what + " is not supported yet";
  if (l.feature) out += std::string(" (") + l.feature + (l.section ? std::string(", ") + l.section : "") + ")";
  return out;
}

Counts counts() {
  Counts c;
  for (const Method &m : methods()) {
    ++c.methods;
    c.supportedMethods += m.supported;
  }
  for (const Enum &e : enums()) {
    ++c.enums;
    for (const Variant &v : e.variants) {
      ++c.variants;
      c.supportedVariants += v.supported;
    }
  }
  for (const EngineType &t : types()) {
    ++c.types;
    c.supportedTypes += t.supported;
  }
  return c;
}

}  // namespace tcp::catalog
