// OpVectorCommit.cpp — rules of the Vector Engine entry/branch/fxp/final ops and commit (cast: OpCast.cpp).
#include "DeliberateSlice.h"
#include "MappingNormalForm.h"
#include "Sequencer.h"
#include "SequencerMetrics.h"
#include "TensorCoverage.h"
#include "TypeCheckInternal.h"

#include <set>

namespace tcp {

namespace {
const std::set<std::string> kFxpOps = {
    "AddFxp", "AddFxpSat", "SubFxp", "SubFxpSat", "LeftShift", "LeftShiftSat", "MulFxp", "MulInt",
    "LogicRightShift", "ArithRightShift", "ArithRightShiftRound",
};

// The VRF operand is broadcast over the stream's axes it lacks (the manual's `vrf_add` adds
// `m![A % 2 # 8]` to every `B` step); on the axes it has, it must hold every coordinate the stream
// holds, and it cannot have an axis the stream lacks (which of its values would be used?).
std::optional<std::string> vrfOperandProblem(const TensorType &stream, const TensorType &vrf) {
  for (const auto &m : {stream.slice, stream.time, stream.packet, vrf.slice, vrf.element})
    if (!m) return std::nullopt;
  Coverage s = coverageOf({stream.slice, stream.time, stream.packet}), v = coverageOf({vrf.slice, vrf.element});
  if (!s.known || !v.known) return std::nullopt;
  for (const auto &[axis, held] : v.axes) {
    auto it = s.axes.find(axis);
    if (it == s.axes.end())
      return "it has axis `" + axis + "`, which the stream does not hold";
    uint64_t missing = 0;
    for (size_t k = 0; k < held.size() && k < it->second.size(); ++k) missing += it->second[k] && !held[k];
    if (missing)
      return "it holds " + std::to_string(v.count(axis)) + " of the " + std::to_string(s.count(axis)) +
             " coordinates of axis `" + axis + "` the stream holds";
  }
  return std::nullopt;
}
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opVector(const ast::Expr &call, const CheckedValue &recv,
                                                    const std::optional<TensorType> &) {
  const std::string op = call.path.segments[0].name;
  llvm::SMRange r = opRange(call);
  TensorType out = recv.type;
  TypedOp *emitted = nullptr;
  if (op == "vector_init") {
    if (!requireStage(call, recv)) return {};
    if (recv.type.dtype != num::DType::i32 && recv.type.dtype != num::DType::f32)
      error(r, std::string("the Vector Engine computes on i32 or f32, not ") + num::dtypeName(recv.type.dtype) +
                   " (cast in the Fetch Engine, e.g. `.fetch::<" + (num::isInteger(recv.type.dtype) ? "i32" : "f32") +
                   ", ...>()`)");
    if (recv.type.packetBytes() != 32)
      error(r, "the Vector Engine takes 32-byte flits; the packet " + recv.type.packet->str() + " is " +
                   std::to_string(recv.type.packetBytes()) + " bytes");
    out.stage = Stage::VectorInit;
    emitted = &emit(call, recv.type, out);
  } else if (op == "vector_intra_slice_branch") {
    if (!requireStage(call, recv)) return {};
    out.stage = Stage::VectorBranch;
    std::string mode = call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::PathE ? call.operands[1]->path.str() : "";
    if (mode.rfind("BranchMode::", 0) != 0) error(r, "`.vector_intra_slice_branch()` takes a `BranchMode`, e.g. `BranchMode::Unconditional`");
    emitted = &emit(call, recv.type, out);
    emitted->arg = mode;
  } else if (op == "vector_fxp") {
    if (!requireStage(call, recv)) return {};
    out.stage = Stage::VectorFxp;
    if (recv.type.dtype != num::DType::i32)
      error(r, std::string("`.vector_fxp()` is integer/fixed-point arithmetic on i32; the stream is ") +
                   num::dtypeName(recv.type.dtype));
    std::string fxp = call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::PathE ? call.operands[1]->path.str() : "";
    std::string name = fxp.substr(fxp.rfind(':') == std::string::npos ? 0 : fxp.rfind(':') + 1);
    if (fxp.rfind("FxpBinaryOp::", 0) != 0 || !kFxpOps.count(name))
      error(r, "`.vector_fxp()` takes an `FxpBinaryOp` (AddFxp, AddFxpSat, SubFxp, SubFxpSat, LeftShift, LeftShiftSat, "
               "MulFxp, MulInt, LogicRightShift, ArithRightShift, ArithRightShiftRound)");
    TypedOp tmp;
    std::optional<TensorType> vrfType;
    int vrfId = -1;
    std::optional<int64_t> imm;
    if (call.operands.size() != 3) {
      error(r, "`.vector_fxp()` takes an operator and an operand (an i32 constant or a VRF tensor)");
    } else {
      // `VeRhs::vrf(&v)` ("Vector Engine": Operands) is the VRF tensor `v`.
      const ast::Expr *arg = call.operands[2].get();
      if (arg->kind == ast::Expr::Call && arg->operands.size() == 2 && arg->operands[0] &&
          arg->operands[0]->kind == ast::Expr::PathE && arg->operands[0]->path.str() == "VeRhs::vrf")
        arg = arg->operands[1].get();
      CheckedValue operand = eval(*arg, std::nullopt);
      if (operand.kind == CheckedValue::Int) {
        if (operand.value < INT32_MIN || operand.value > INT32_MAX)
          error(call.operands[2]->range, "the operand " + std::to_string(operand.value) + " does not fit in i32");
        imm = operand.value;
      } else if (operand.kind == CheckedValue::Tensor && operand.type.tier == Tier::Vrf) {
        if (operand.tensorId >= 0) chainSources_[currentChain_].push_back(operand.tensorId);
        if (operand.type.dtype != num::DType::i32)
          error(call.operands[2]->range, std::string("the VRF operand is ") + num::dtypeName(operand.type.dtype) + ", not i32");
        if (auto problem = vrfOperandProblem(recv.type, operand.type))
          error(call.operands[2]->range, "the VRF operand " + operand.type.str() + " does not fit the stream " +
                                             recv.type.str() + " (it is broadcast over the stream's other axes): " +
                                             *problem);
        vrfType = operand.type;
        vrfId = operand.tensorId;
      } else if (operand.kind != CheckedValue::None) {  // (None: its error was reported)
        error(call.operands[2]->range, "the operand of `.vector_fxp()` is an i32 constant or a `&VrfTensor`");
      }
    }
    emitted = &emit(call, recv.type, out);
    emitted->arg = name;
    emitted->imm = imm;
    if (vrfType) {
      emitted->operands.push_back(*vrfType);
      emitted->operandTensors.push_back(vrfId);
    }
  } else {  // vector_final
    if (!requireStage(call, recv)) return {};
    out.stage = Stage::VectorFinal;
    emitted = &emit(call, recv.type, out);
  }
  return tensorValue(out, place(out, "", r, std::nullopt));
}

CheckedValue TypeChecker::FunctionChecker::opCommit(const ast::Expr &call, const CheckedValue &recv,
                                                    const std::optional<TensorType> &expected) {
  if (!requireCommitStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  auto args = typeArgs(call, 1);
  bool exp = expected && expected->tier == Tier::Dm;
  TensorType out = atRest(recv.type, Tier::Dm);
  out.element = pick(args[0], exp ? expected->element : nullptr, call, "Element");
  if (!out.element) return {};
  auto addr = constArg(call, 0, "DM address (bytes within each slice)");
  checkDeviceDims(out, r, /*checkChip=*/false);
  checkCapacity(out, r, addr);
  checkCommit(call, recv, out, addr);
  return tensorValue(out, place(out, "", r, addr));
}

bool TypeChecker::FunctionChecker::requireCommitStage(const ast::Expr &call, const CheckedValue &recv) {
  if (!requireStage(call, recv))
    return false;
  if (recv.type.ctx == Ctx::Sub && recv.type.stage != Stage::Collect)
    error(opRange(call), "sub-context commits can only follow fetch (no Cast or Transpose before them)");
  return true;
}

TypedOp &TypeChecker::FunctionChecker::checkCommit(const ast::Expr &call, const CheckedValue &recv,
                                                   const TensorType &out, std::optional<uint64_t> addr) {
  llvm::SMRange r = opRange(call);
  bool flit = recv.type.packetBytes() == 32;
  if (!flit)
    error(r, "the Commit Engine takes 32-byte flits, but the packet " + recv.type.packet->str() + " is " +
                 std::to_string(recv.type.packetBytes()) + " bytes");
  unsigned before = diags().errorCount();
  // A resize in the Element (`W = 4`, "Truncating") drops the trailing packet elements on purpose.
  checkPreserved({recv.type.time, recv.type.packet}, {unsliced(out.element)}, r, call.path.segments[0].name);
  bool preserved = diags().errorCount() == before;  // else the sequencer would repeat the problem
  SeqOptions opts;
  opts.use = SeqUse::Commit;
  unsigned bits = num::storageBits(out.dtype);
  SeqResult seq = derive(out.element, recv.type.time, recv.type.packet, bits, opts);
  if (preserved)
    for (const std::string &d : seq.diagnostics) error(r, "commit sequencer: " + d);
  if (seq.ok() && flit) {  // commit_in_size and commit_size assume one flit
    CommitPlan plan = planCommit(seq, bits, recv.type.ctx == Ctx::Sub ? Context::Sub : Context::Main);
    // Each time step writes commit_in_size (8, 16, 24 or 32) bytes, and "write sequencer
    // configurations must never write beyond the tensor boundary": the Element needs at least 8
    // bytes per time step. This names the fix, so it replaces the sequencer's commit_in_size message.
    uint64_t steps = std::max<uint64_t>(1, recv.type.time->size());
    if (out.elementBytes() < steps * 8) {
      std::string hint;
      if (steps == 1 && bits <= 64) {
        std::string body = out.element->body();  // `1 # 3` → `1`: pad the data, not the padding
        size_t hash = body.rfind(" # ");
        if (hash != std::string::npos && body.find_first_not_of("0123456789", hash + 3) == std::string::npos)
          body = body.substr(0, hash);
        hint = " (pad it to 8 bytes, e.g. m![" + body + " # " + std::to_string(64 / bits) + "])";
      }
      error(r, "commit: commit_in_size must be 8, 16, 24 or 32 bytes and the commit never writes past the tensor, but "
               "the Element " + out.element->str() + " holds " + std::to_string(out.elementBytes()) + " bytes for " +
                   std::to_string(steps) + (steps == 1 ? " time step" : " time steps") + " of Time " +
                   recv.type.time->str() + ", less than 8 bytes per step" + hint);
    } else {
      for (const std::string &d : plan.diagnostics) error(r, "commit: " + d);
    }
  }
  TypedOp &op = emit(call, recv.type, out);
  op.name = "commit";  // commit_view writes the same way, into an existing tensor
  op.address = addr;
  op.sequencer = std::make_shared<const SeqResult>(std::move(seq));
  return op;
}

}  // namespace tcp
