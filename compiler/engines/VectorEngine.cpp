// VectorEngine.cpp — the Vector Engine's op tables: each op's ALU, arity and spelling.
#include "VectorEngine.h"

#include "EngineFields.h"

#include <algorithm>

namespace tcp {

const char *aluName(VeAlu a) {
  static const char *const n[] = {"LogicAnd", "LogicOr", "LogicXor", "LogicLshift", "LogicRshift", "FxpAdd",
                                  "FxpLshift", "FxpMul",  "FxpRshift", "FpFma",      "FpFpu",       "FpExp",
                                  "FpMul0",   "FpMul1",  "ClipAdd",  "ClipMax",     "ClipMin"};
  return n[size_t(a)];
}

VeAlu logicAlu(LogicOp op) {
  switch (op) {
    case LogicOp::BitAnd: return VeAlu::LogicAnd;
    case LogicOp::BitOr: return VeAlu::LogicOr;
    case LogicOp::BitXor: return VeAlu::LogicXor;
    case LogicOp::LeftShift: return VeAlu::LogicLshift;
    case LogicOp::LogicRightShift:
    case LogicOp::ArithRightShift: return VeAlu::LogicRshift;
  }
  return VeAlu::LogicAnd;
}

VeAlu fxpAlu(FxpOp op) {
  switch (op) {
    case FxpOp::AddFxp:
    case FxpOp::AddFxpSat:
    case FxpOp::SubFxp:
    case FxpOp::SubFxpSat: return VeAlu::FxpAdd;
    case FxpOp::LeftShift:
    case FxpOp::LeftShiftSat: return VeAlu::FxpLshift;
    case FxpOp::MulFxp:
    case FxpOp::MulInt: return VeAlu::FxpMul;
    case FxpOp::LogicRightShift:
    case FxpOp::ArithRightShift:
    case FxpOp::ArithRightShiftRound: return VeAlu::FxpRshift;
  }
  return VeAlu::FxpAdd;
}

VeAlu fpAlu(FpOp op) {
  switch (op) {
    case FpOp::Exp:
    case FpOp::NegExp: return VeAlu::FpExp;
    case FpOp::Sqrt:
    case FpOp::Tanh:
    case FpOp::Sigmoid:
    case FpOp::Erf:
    case FpOp::Log:
    case FpOp::Sin:
    case FpOp::Cos:
    case FpOp::DivF: return VeAlu::FpFpu;
    case FpOp::AddF:
    case FpOp::SubF:
    case FpOp::FmaF:
    case FpOp::MaskFmaF: return VeAlu::FpFma;
    case FpOp::MulF0:
    case FpOp::MaskMulF0: return VeAlu::FpMul0;
    case FpOp::MulF1:
    case FpOp::MaskMulF1: return VeAlu::FpMul1;
  }
  return VeAlu::FpFpu;
}

VeAlu clipAlu(ClipOp op) {
  switch (op) {
    case ClipOp::Min:
    case ClipOp::AbsMin: return VeAlu::ClipMin;
    case ClipOp::Max:
    case ClipOp::AbsMax: return VeAlu::ClipMax;
    case ClipOp::AddFxp:
    case ClipOp::AddFxpSat:
    case ClipOp::Add: return VeAlu::ClipAdd;
  }
  return VeAlu::ClipAdd;
}

unsigned fpArity(FpOp op) {
  if (op <= FpOp::Cos) return 1;
  if (op <= FpOp::DivF) return 2;
  return 3;
}

uint64_t VectorConfig::aluSteps() const {
  return uint64_t(std::count_if(steps.begin(), steps.end(), [](const VectorStep &s) {
    return s.stage == VeStage::Logic || s.stage == VeStage::Fxp || s.stage == VeStage::Fp || s.stage == VeStage::FpDiv ||
           s.stage == VeStage::Clip;
  }));
}

std::string veOpName(const VectorStep &s) {
  switch (s.stage) {
    case VeStage::Branch: return enumNames(s.branch)[size_t(s.branch)];
    case VeStage::Logic: return enumNames(LogicOp{})[s.op];
    case VeStage::Fxp: return enumNames(FxpOp{})[s.op];
    case VeStage::Fp: return enumNames(FpOp{})[s.op];
    case VeStage::FpDiv: return "DivF";
    case VeStage::Clip: return enumNames(ClipOp{})[s.op];
    case VeStage::IntraReduce:
    case VeStage::InterReduce: return enumNames(VeReduceOp{})[s.op];
    case VeStage::Narrow: return s.op == uint8_t(NarrowKind::Split) ? "split" : "trim_way4";
    case VeStage::Widen: return s.op == uint8_t(WidenKind::Concat) ? "concat" : "pad_way8";
    default: return "";
  }
}

const char *veStageMethod(VeStage s) {
  static const char *const n[] = {"vector_init",        "vector_inter_slice_reduce", "vector_intra_slice_branch",
                                  "vector_intra_slice_unzip", "vector_logic",        "vector_fxp",
                                  "vector_fxp_to_fp",   "vector_split / vector_trim_way4", "vector_fp_*",
                                  "vector_intra_slice_reduce", "vector_fp_div",      "vector_concat / vector_pad_way8",
                                  "vector_fp_to_fxp",   "vector_clip",               "vector_filter",
                                  "vector_stash",       "vector_final"};
  return n[size_t(s)];
}

// ---- spellings (EngineFields.h)
const std::vector<const char *> &enumNames(VeStage) {
  static const std::vector<const char *> n = {"init",   "inter_slice_reduce", "intra_slice_branch", "intra_slice_unzip",
                                              "logic",  "fxp",                "fxp_to_fp",          "narrow",
                                              "fp",     "intra_slice_reduce", "fp_div",             "widen",
                                              "fp_to_fxp", "clip",            "filter",             "stash",
                                              "final"};
  return n;
}
const std::vector<const char *> &enumNames(BranchMode) {
  static const std::vector<const char *> n = {"BranchMode::Unconditional", "BranchMode::AxisToggle",
                                              "BranchMode::ValidCount", "BranchMode::Comparison", "BranchMode::Vrf"};
  return n;
}
const std::vector<const char *> &enumNames(LogicOp) {
  static const std::vector<const char *> n = {"BitAnd", "BitOr", "BitXor", "LeftShift", "LogicRightShift",
                                              "ArithRightShift"};
  return n;
}
const std::vector<const char *> &enumNames(FxpOp) {
  static const std::vector<const char *> n = {"AddFxp",  "AddFxpSat",       "SubFxp",          "SubFxpSat",
                                              "LeftShift", "LeftShiftSat",  "MulFxp",          "MulInt",
                                              "LogicRightShift", "ArithRightShift", "ArithRightShiftRound"};
  return n;
}
const std::vector<const char *> &enumNames(FpOp) {
  static const std::vector<const char *> n = {
      "Exp",  "NegExp", "Sqrt", "Tanh", "Sigmoid", "Erf", "Log", "Sin", "Cos", "AddF", "SubF", "MulF(FpMulAlu::Mul0)",
      "MulF(FpMulAlu::Mul1)", "MaskMulF(FpMulAlu::Mul0)", "MaskMulF(FpMulAlu::Mul1)", "DivF", "FmaF", "MaskFmaF"};
  return n;
}
const std::vector<const char *> &enumNames(ClipOp) {
  static const std::vector<const char *> n = {"Min", "Max", "AbsMin", "AbsMax", "AddFxp", "AddFxpSat", "Add"};
  return n;
}
const std::vector<const char *> &enumNames(VeReduceOp) {
  static const std::vector<const char *> n = {"Add", "AddSat", "Max", "Min", "Mul"};
  return n;
}
const std::vector<const char *> &enumNames(VeOperandKind) {
  static const std::vector<const char *> n = {"none", "constant", "vrf", "stash"};
  return n;
}
const std::vector<const char *> &enumNames(VeGroup) {
  static const std::vector<const char *> n = {"always", "group0", "group1"};
  return n;
}

const std::vector<const char *> &enumNames(NarrowKind) {
  static const std::vector<const char *> n = {"split", "trim_way4"};
  return n;
}
const std::vector<const char *> &enumNames(WidenKind) {
  static const std::vector<const char *> n = {"concat", "pad_way8"};
  return n;
}

}  // namespace tcp
