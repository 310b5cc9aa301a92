// LowerVector.cpp — the Vector Engine's program: each vector_* op of a chain as a typed stage (Branch mode, Fxp operator and operand).
#include "EngineFields.h"
#include "Lowering.h"

namespace tcp {

namespace {
// The enum value spelled `name` (enumNames), if any.
template <class E> std::optional<E> byName(const std::string &name) {
  const auto &names = enumNames(E{});
  for (size_t k = 0; k < names.size(); ++k)
    if (name == names[k]) return E(k);
  return std::nullopt;
}
}  // namespace

std::optional<VectorStep> lowerVectorStep(const TypedOp &op, Diagnostics &diags) {
  VectorStep s;
  if (op.name == "vector_init") {
    s.stage = VeStage::Init;
  } else if (op.name == "vector_final") {
    s.stage = VeStage::Final;
  } else if (op.name == "vector_intra_slice_branch") {
    s.stage = VeStage::Branch;
    auto mode = byName<BranchMode>(op.arg);
    if (!mode) {
      diags.error(op.range, "vector engine: `" + op.arg + "` is not supported yet (the Branch stage supports BranchMode::Unconditional)");
      return std::nullopt;
    }
    s.branch = *mode;
  } else if (op.name == "vector_fxp") {
    s.stage = VeStage::Fxp;
    auto fxp = byName<FxpOp>(op.arg);
    if (!fxp) {
      diags.error(op.range, "vector engine: the Fxp Cluster has no operator `" + op.arg + "`");
      return std::nullopt;
    }
    s.fxp = *fxp;
    if (op.imm) {
      s.operand.kind = VeOperandKind::Constant;
      s.operand.constant = *op.imm;  // the checker keeps it within i32
    } else if (!op.operands.empty()) {
      s.operand.kind = VeOperandKind::Vrf;
    }
  } else {
    diags.error(op.range, "vector engine: `." + op.name + "()` is not supported yet in the engine configuration");
    return std::nullopt;
  }
  return s;
}

}  // namespace tcp
