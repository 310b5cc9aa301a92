// VectorEngine.h — the Vector Engine's typed program: stages in pipeline order, their ops, ALUs, operands and modes.
//
// "Vector Engine" > Intra-Slice Block > Stages: Branch, Logic, Fxp, FxpToFp, Narrow, Float,
// IntraSliceReduce, FpDiv, Widen, FpToFxp, Clip, Filter, Output; the Inter-Slice Block; the
// two-group path (unzip, `_zip`). Each stage is a VeStage with its own op enum; an op names the ALU
// it occupies ("Within a stage, each ALU can only be used once per pass"). The checker, the
// lowering, the cycle model and the CPU model all read these tables.
#pragma once

#include "Numerics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// The stages in pipeline order (the checker's stage order and the program's record order).
// Unzip and InterReduce are block entries; Stash is not a stage ("not a pipeline stage") but a
// step of the program at the point it snapshots.
enum class VeStage : uint8_t {
  Init, InterReduce, Branch, Unzip, Logic, Fxp, FxpToFp, Narrow, Fp, IntraReduce, FpDiv, Widen, FpToFxp, Clip,
  Filter, Stash, Final,
};
enum class BranchMode : uint8_t { Unconditional, AxisToggle, ValidCount, Comparison, Vrf };
// "Logic Cluster": i32 BitAnd..ArithRightShift; f32 BitAnd, BitOr, BitXor on the bit patterns.
enum class LogicOp : uint8_t { BitAnd, BitOr, BitXor, LeftShift, LogicRightShift, ArithRightShift };
enum class FxpOp : uint8_t {
  AddFxp, AddFxpSat, SubFxp, SubFxpSat, LeftShift, LeftShiftSat, MulFxp, MulInt,
  LogicRightShift, ArithRightShift, ArithRightShiftRound,
};
// "Float Cluster": unary, binary (MulF/MaskMulF with their FpMulAlu) and ternary ops.
enum class FpOp : uint8_t {
  Exp, NegExp, Sqrt, Tanh, Sigmoid, Erf, Log, Sin, Cos,
  AddF, SubF, MulF0, MulF1, MaskMulF0, MaskMulF1, DivF,
  FmaF, MaskFmaF,
};
enum class ClipOp : uint8_t { Min, Max, AbsMin, AbsMax, AddFxp, AddFxpSat, Add };
// Intra-slice (AddSat/Add, Max, Min) and inter-slice (Add, AddSat, Max, Min, Mul) reductions.
enum class VeReduceOp : uint8_t { Add, AddSat, Max, Min, Mul };
enum class NarrowKind : uint8_t { Split, Trim };  // vector_split / vector_trim_way4
enum class WidenKind : uint8_t { Concat, Pad };   // vector_concat / vector_pad_way8

// Every ALU of the stages that have competing ALUs ("Stages" table, ALU column).
enum class VeAlu : uint8_t {
  LogicAnd, LogicOr, LogicXor, LogicLshift, LogicRshift,
  FxpAdd, FxpLshift, FxpMul, FxpRshift,
  FpFma, FpFpu, FpExp, FpMul0, FpMul1,
  ClipAdd, ClipMax, ClipMin,
};
const char *aluName(VeAlu a);
VeAlu logicAlu(LogicOp op);
VeAlu fxpAlu(FxpOp op);
VeAlu fpAlu(FpOp op);
VeAlu clipAlu(ClipOp op);
unsigned fpArity(FpOp op);  // 1 unary, 2 binary, 3 ternary

// Where an operand comes from ("Operands"): a constant, a VRF tensor, the stash; in two-group
// mode a side may be skipped (`()`). `group` is VeBranchOperand's condition.
enum class VeOperandKind : uint8_t { None, Constant, Vrf, Stash };
enum class VeGroup : uint8_t { Always, Group0, Group1 };
struct VeOperand {
  VeOperandKind kind = VeOperandKind::None;
  int64_t constant = 0;  // Constant: the i32 value, or the f32 bit pattern
  VeGroup group = VeGroup::Always;
};

struct VectorStep {
  VeStage stage = VeStage::Init;
  num::DType dtype = num::DType::i32;  // the stream's element type entering the step
  BranchMode branch = BranchMode::Unconditional;
  std::string axis;     // Branch AxisToggle: the axis whose index parity is the group (ExecutionId)
  uint8_t op = 0;       // the stage's op enum (LogicOp, FxpOp, FpOp, ClipOp, VeReduceOp, NarrowKind, WidenKind)
  uint8_t mode = 0;     // the argument mode (UnaryArgMode / BinaryArgMode / TernaryArgMode index)
  bool zip = false;     // a `_zip` op: the two groups are its arguments
  std::vector<VeOperand> operands;  // up to 4 (ternary: 2; per-group: one per group)
  uint64_t intWidth = 0;            // FxpToFp / FpToFxp
  uint64_t reduceTime = 1;          // IntraReduce: time steps accumulated per output; InterReduce: slices reduced
  uint64_t slots = 1;               // IntraReduce: accumulator slots in use (at most 8)
  bool reducePacket = false;        // IntraReduce: the reduce axis is in Packet (tree reduce)
};

struct VectorConfig {
  std::vector<VectorStep> steps;
  uint64_t aluSteps() const;  // steps that run on an ALU (each adds a cycle of latency)
};

// The name of a step's op for messages and the printed config ("AddFxp", "MulF(FpMulAlu::Mul0)").
std::string veOpName(const VectorStep &s);
// The method that enters a stage ("vector_fxp").
const char *veStageMethod(VeStage s);

// Architectural parameters ("Intra-Slice Reduce" > Architectural Parameters; "Inter-Slice Block").
constexpr uint64_t kVeAccumulatorSlots = 8;
constexpr uint64_t kVeSlicesPerCluster = 256;
constexpr unsigned kVeExecutionIds = 16;

}  // namespace tcp
