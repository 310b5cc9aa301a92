// TypedProgram.h — the typed program: what the checker produces and every later stage (lowering, cost, tcpi) reads.
#pragma once

#include "LookupTable.h"
#include "TensorType.h"

#include <llvm/Support/SMLoc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcp {

struct SeqResult;   // Sequencer.h (engines/)
struct SwitchPlan;  // SwitchTopology.h (engines/)

// The arguments of a Vector Engine op as checked ("Vector Engine" > Operands, Argument Modes): its
// operator's spelling, the argument mode, and its operands in order. A VRF operand indexes
// TypedOp::operands; a skipped side of a per-group op (`()`) is Skip.
struct VeOperandArg {
  enum Kind { Constant, Vrf, Stash, Skip, Apply } kind = Constant;  // Apply: a unary op applies to this group
  int64_t i = 0;     // Constant (i32)
  double f = 0;      // Constant (f32)
  bool isFloat = false;
  int vrf = -1;      // Vrf: index into TypedOp::operands
  int group = -1;    // VeBranchOperand::group: 0 or 1; -1 always
};
struct VeOpArgs {
  std::string op;                    // "AddFxp", "MulF(FpMulAlu::Mul0)", "Max", "Sigmoid", ...
  int mode = -1;                     // the argument mode's index, -1 the default
  bool zip = false;                  // a `_zip` op
  std::vector<VeOperandArg> operands;
  uint64_t intWidth = 0;             // vector_fxp_to_fp / vector_fp_to_fxp
  std::string reduceAxis;            // vector_intra_slice_reduce::<R, ..> / unzip::<I, ..>
  uint64_t reduceTime = 1, slots = 1;  // intra-slice reduce: time steps per output, accumulator slots
  bool reducePacket = false;
  uint64_t slices = 1;               // inter-slice reduce: slices reduced into one
};

// One checked operation: a DMA transfer or one engine stage of a Tensor Unit chain.
struct TypedOp {
  std::string name;             // the method: "to_dm", "fetch", "collect", "align", "commit", ...
  llvm::SMRange range;          // the method name in the source
  unsigned line = 0;
  TensorType in, out;           // receiver and result types
  std::vector<TensorType> operands;  // align: the TRF tensor; vector_fxp: the VRF operand
  std::string arg;              // enum argument: "Interleaved", "Unconditional", "AddFxp", "Full", ...
  std::optional<int64_t> imm;   // immediate operand (vector_fxp constant)
  std::vector<int64_t> zeroPoints;  // fetch_with_zero_point(s): constant zero points (one per interleaved tensor)
  int table = -1;               // fetch_with_table: index into TypedFunction::tables
  std::optional<uint64_t> address;  // to_dm/to_hbm/commit/to_vrf destination address
  int chain = -1;               // index of the Tensor Unit operation this stage belongs to
  // Identities in TypedFunction::tensors: what the op reads (the receiver; for `begin` the DM
  // tensor it streams), its TRF/VRF operands, and what it produces (-1: none).
  int source = -1;
  std::vector<int> operandTensors;
  int result = -1;
  // fetch / commit: the sequencer derived while checking, reused by the lowering and the cycle model.
  std::shared_ptr<const SeqResult> sequencer;
  // vector_*: the op's operator, mode and operands.
  std::shared_ptr<const VeOpArgs> ve;
  // switch: the matched topology with its snoop bitmaps and ring routing.
  std::shared_ptr<const SwitchPlan> switchPlan;
};

// A tensor value of a checked function: a parameter, a placed memory tensor or a stream.
struct TypedTensor {
  std::string name;                 // the binding's name ("" for temporaries)
  TensorType type;
  std::optional<uint64_t> address;  // placed tensors: bytes within each chip/slice (TRF: none)
  int param = -1;                   // index of the function parameter it is, or -1
  int aliasOf = -1;                 // a tile view: the tensor whose bytes it names (its address is absolute)
};

// A `&LookupTable<In, Out>` parameter ("Table Indexing"). Its entries are not part of the program:
// they arrive with the launch. `argIndex` is its position among the launch arguments after `ctx`.
struct TypedTable {
  std::string name;
  LookupTableType type;
  size_t argIndex = 0;
};

// A `#[device]` kernel or a stage function after checking.
struct TypedFunction {
  std::string name;
  bool isDevice = false;
  unsigned chips = 0;
  std::vector<std::pair<std::string, TensorType>> params;
  std::vector<TypedTable> tables;  // lookup-table parameters (between/after the tensor parameters)
  std::optional<TensorType> result;
  int resultTensor = -1;  // the tensor (index into `tensors`) the body returns as `result`
  // A kernel returning a tuple of HBM tensors `-> (HbmTensor<..>, HbmTensor<..>)`: their types and
  // the tensors (indices into `tensors`) the body's final tuple names, in order (`result` unset).
  std::vector<TensorType> tupleResults;
  std::vector<int> tupleTensors;
  std::vector<TypedOp> ops;  // program order
  std::vector<TypedTensor> tensors;
  int chains = 0;
};

struct TypedProgram {
  std::vector<TypedFunction> functions;
};

}  // namespace tcp
