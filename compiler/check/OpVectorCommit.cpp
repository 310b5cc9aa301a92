// OpVectorCommit.cpp — the rules of commit (the Vector Engine: OpVector*.cpp; cast: OpCast.cpp).
#include "DeliberateSlice.h"
#include "MappingNormalForm.h"
#include "Sequencer.h"
#include "SequencerMetrics.h"
#include "TensorCoverage.h"
#include "TypeCheckInternal.h"

#include <set>

namespace tcp {

namespace {
// `.commit()` builds its tensor from the stream alone (the manual's `transpose(false)`: no broadcast),
// so every coordinate the Element holds must come from the stream; otherwise the new tensor has
// positions nothing writes. A problem naming the axis, or nullopt.
std::optional<std::string> unwrittenCoordinates(const TensorType &stream, const MappingRef &element) {
  Coverage from = coverageOf({stream.time, stream.packet}), to = coverageOf({element});
  if (!from.known || !to.known) return std::nullopt;  // too large to enumerate: not decided
  for (const auto &[axis, held] : to.axes) {
    const uint64_t n = held.count();
    auto it = from.axes.find(axis);
    if (it == from.axes.end()) {
      if (n > 1)
        return "the Element holds " + std::to_string(n) + " coordinates of axis `" + axis + "`, which the stream does not carry";
      continue;
    }
    llvm::BitVector extra = held;
    extra.reset(it->second);
    if (extra.any())
      return "the Element holds " + std::to_string(n) + " coordinates of axis `" + axis + "` but the stream only " +
             std::to_string(n - extra.count()) + " (e.g. `" + axis + " = " + std::to_string(extra.find_first()) +
             "` is never written)";
  }
  return std::nullopt;
}
}  // namespace

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
  // "Axis Permutation" > Key constraints: commit_in_size and commit_size are 8-byte units, "so the
  // target tensor for commit always corresponds to an 8-byte aligned range" (DM banks are 8 bytes wide).
  if (addr && *addr % 8 && *addr % num::naturalAlignment(out.dtype) == 0)  // else: natural alignment
    error(call.operands.size() > 1 ? call.operands[1]->range : r, commitAlignmentError(*addr));
  checkDeviceDims(out, r, /*checkChip=*/false);
  checkCapacity(out, r, addr);
  checkCommit(call, recv, out, addr);
  return tensorValue(out, place(out, "", r, addr));
}

std::string commitAlignmentError(uint64_t address) {
  return "commit: the DM address " + std::to_string(address) + " is not a multiple of 8 bytes (the Commit Engine "
         "writes whole 8-byte units of an 8-byte aligned range; DM banks are 8 bytes wide)";
}

bool TypeChecker::FunctionChecker::requireCommitStage(const ast::Expr &call, const CheckedValue &recv) {
  if (!requireStage(call, recv))
    return false;
  if (recv.type.ctx == Ctx::Sub && recv.type.stage != Stage::Collect && recv.type.stage != Stage::Fetch)
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
  // Truncating cuts trailing packet elements only: every time step is written, so a resize of the
  // Element may not drop a coordinate the Time carries.
  if (diags().errorCount() == before)
    if (auto problem = tensorPreserved({recv.type.time}, {out.element}))
      error(r, "`." + call.path.segments[0].name + "()` writes every time step (truncating cuts trailing packet elements only), but " +
                   *problem + " (Time " + recv.type.time->str() + ", Element " + out.element->str() + ")");
  // (commit_view writes into a tensor that exists: the rest of it keeps its bytes)
  if (diags().errorCount() == before && call.path.segments[0].name == "commit")
    if (auto problem = unwrittenCoordinates(recv.type, out.element))
      error(r, "`." + call.path.segments[0].name + "()` writes only what the stream carries, but " + *problem +
                   "; shrink the Element to the stream's coordinates (Time " + recv.type.time->str() + ", Packet " +
                   recv.type.packet->str() + ")");
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
