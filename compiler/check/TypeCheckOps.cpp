// TypeCheckOps.cpp — what the op rules share: emitting typed ops, type arguments, constants, stage and tier checks.
#include "TypeCheckInternal.h"

#include <cassert>

namespace tcp {

std::string describeStage(Stage s) {
  switch (s) {
    case Stage::Begin: return "a BeginTensor (after `.begin()`)";
    case Stage::Fetch: return "a FetchTensor (after `.fetch()`)";
    case Stage::Switch: return "a SwitchTensor (after `.switch()`)";
    case Stage::Collect: return "a CollectTensor (after `.collect()`)";
    case Stage::Aligned: return "an AlignedPair (after `.align()`)";
    case Stage::Contraction: return "a ContractionTensor (after `.contract()`)";
    case Stage::Accumulation: return "an AccumulationTensor (after `.accumulate()`)";
    case Stage::VectorInit: return "a VectorInitTensor (after `.vector_init()`)";
    case Stage::VectorBranch: return "a VectorBranchTensor (after `.vector_intra_slice_branch()`)";
    case Stage::VectorLogic: return "a VectorLogicTensor (after `.vector_logic()`)";
    case Stage::VectorFxp: return "a VectorFxpTensor (after `.vector_fxp()`)";
    case Stage::VectorFxpToFp: return "a VectorFxpToFpTensor (after `.vector_fxp_to_fp()`)";
    case Stage::VectorNarrow: return "a VectorNarrowTensor (after `.vector_split()` or `.vector_trim_way4()`)";
    case Stage::VectorFp: return "a VectorFpTensor (after `.vector_fp_*()`)";
    case Stage::VectorIntraSliceReduce: return "a VectorIntraSliceReduceTensor (after `.vector_intra_slice_reduce()`)";
    case Stage::VectorFpDiv: return "a VectorFpDivTensor (after `.vector_fp_div()`)";
    case Stage::VectorWiden: return "a VectorWidenTensor (after `.vector_concat()` or `.vector_pad_way8()`)";
    case Stage::VectorFpToFxp: return "a VectorFpToFxpTensor (after `.vector_fp_to_fxp()`)";
    case Stage::VectorClip: return "a VectorClipTensor (after `.vector_clip()`)";
    case Stage::VectorFilter: return "a VectorFilterTensor (after `.vector_filter()`)";
    case Stage::VectorInterSliceReduce: return "a VectorInterSliceReduceTensor (after `.vector_inter_slice_reduce()`)";
    case Stage::VectorPair: return "a VectorTensorPair (after `.vector_intra_slice_unzip()`)";
    case Stage::VectorFinal: return "a VectorFinalTensor (after `.vector_final()`)";
    case Stage::Cast: return "a CastTensor (after `.cast()`)";
    case Stage::Transpose: return "a TransposeTensor (after `.transpose()`)";
  }
  return "a stream";
}

llvm::SMRange TypeChecker::FunctionChecker::opRange(const ast::Expr &call) const {
  if (call.kind == ast::Expr::MethodCall && !call.path.segments.empty()) return call.path.segments[0].range;
  return call.range;
}

CheckedValue TypeChecker::FunctionChecker::tensorValue(const TensorType &t, int id) {
  CheckedValue v;
  v.kind = CheckedValue::Tensor;
  v.type = t;
  v.tensorId = id;
  return v;
}

void TypeChecker::FunctionChecker::use(const CheckedValue &v) {
  if (v.kind == CheckedValue::Tensor && v.tensorId >= 0) {
    tensors_[v.tensorId].lastUse = seq_;
    if (tensors_[v.tensorId].aliasOf >= 0) tensors_[tensors_[v.tensorId].aliasOf].lastUse = seq_;  // a tile view
  }
}

TypedOp &TypeChecker::FunctionChecker::emit(const ast::Expr &call, const TensorType &in, const TensorType &out) {
  TypedOp op;
  op.name = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  op.range = opRange(call);
  op.line = tc_.diags_.lineAndColumn(op.range.Start).first;
  op.in = in;
  op.out = out;
  op.chain = currentChain_;
  op.source = currentSource_;
  resultPending_ = true;
  // A chain reads its sources until its last stage: they stay in use meanwhile (an op between two of its
  // stages too). Once the chain has written its result to memory, later ops do not extend them: the DM
  // a chain read can be written again after it ("Scheduling": WAR is ordered by the scheduler).
  if (currentChain_ >= 0 && chainOpen_)
    for (int id : chainSources_[currentChain_]) tensors_[id].lastUse = seq_;
  if (in.tier == Tier::Stream && out.tier != Tier::Stream) chainOpen_ = false;
  out_.ops.push_back(std::move(op));
  return out_.ops.back();
}

std::vector<TypeArg> TypeChecker::FunctionChecker::typeArgs(const ast::Expr &call, size_t count) {
  std::vector<TypeArg> out(count);
  if (call.path.segments.empty()) return out;
  const auto &gs = call.path.segments[0].generics;
  for (size_t k = 0; k < gs.size() && k < count; ++k) {
    const ast::GenericArg &g = gs[k];
    out[k].ast = &g;
    if (!g.type || g.type->kind == ast::Type::Infer) continue;
    out[k].given = true;
    if (g.type->kind == ast::Type::PathT && g.type->path.segments.size() == 1)
      out[k].dtype = num::parseDType(g.type->path.segments[0].name);
    if (!out[k].dtype) out[k].mapping = tc_.resolver_.mappingOfType(*g.type);
  }
  return out;
}

MappingRef TypeChecker::FunctionChecker::pick(const TypeArg &a, const MappingRef &fromExpected, const ast::Expr &call,
                                              const char *param) {
  if (a.given) {
    if (!a.mapping) error(a.ast ? a.ast->range : opRange(call), std::string("`") + param + "` must be a mapping `m![...]`");
    return a.mapping;
  }
  if (fromExpected) return fromExpected;
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  error(opRange(call), "cannot infer `" + std::string(param) + "` of `." + op + "()`: give it as a type argument (`." +
                           op + "::<...>()`) or annotate the result's type");
  return nullptr;
}

std::optional<uint64_t> TypeChecker::FunctionChecker::constArg(const ast::Expr &call, size_t index, const char *what) {
  if (call.operands.size() <= index + 1) {
    error(opRange(call), std::string("missing ") + what);
    return std::nullopt;
  }
  CheckedValue v = eval(*call.operands[index + 1], std::nullopt);
  if (v.kind == CheckedValue::None) return std::nullopt;  // reported
  if (v.kind != CheckedValue::Int || v.value < 0) {
    error(call.operands[index + 1]->range, std::string("expected a constant non-negative ") + what);
    return std::nullopt;
  }
  return static_cast<uint64_t>(v.value);
}

bool TypeChecker::FunctionChecker::requireStage(const ast::Expr &call, const CheckedValue &recv) {
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  if (recv.kind != CheckedValue::Tensor || recv.type.tier != Tier::Stream) {
    error(opRange(call), "`." + op + "()` applies to a Tensor Unit stream, not to " +
                             (recv.kind == CheckedValue::Tensor ? std::string("a ") + tierName(recv.type.tier) : "this value"));
    return false;
  }
  // The stages tcp models among the catalog's receivers of the method, in catalog order.
  const catalog::Method *m = catalog::findMethod(op);
  assert(m && m->supported && "a rule runs only for a supported catalog method");
  std::vector<Stage> allowed;
  for (const char *r : m->receivers)
    for (int s = 0; s <= static_cast<int>(Stage::Transpose); ++s)
      if (llvm::StringRef(stageTypeName(static_cast<Stage>(s))) == r) allowed.push_back(static_cast<Stage>(s));
  for (Stage s : allowed)
    if (recv.type.stage == s) return true;
  std::string allowedText;
  for (Stage s : allowed) allowedText += (allowedText.empty() ? "" : " or ") + std::string(stageTypeName(s));
  error(opRange(call), "`." + op + "()` cannot follow " + describeStage(recv.type.stage) + "; it applies to " +
                           allowedText + " (the pipeline order is begin → fetch → switch → collect → align → contract → "
                           "accumulate → vector → cast → transpose → commit)");
  return false;
}

bool TypeChecker::FunctionChecker::requireTier(const ast::Expr &call, const CheckedValue &recv, Tier tier) {
  if (recv.kind == CheckedValue::Tensor && recv.type.tier == tier) return true;
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  error(opRange(call), "`." + op + "()` applies to a " + std::string(tierName(tier)) + ", not to " +
                           (recv.kind == CheckedValue::Tensor ? recv.type.str() : std::string("this value")));
  return false;
}

}  // namespace tcp
