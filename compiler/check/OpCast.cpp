// OpCast.cpp — the rule of `.cast()`: the Cast Engine's precision-lowering table and packet transformation.
#include "CastEngine.h"
#include "MappingNormalForm.h"
#include "TypeCheckInternal.h"

namespace tcp {

// "Cast Engine": D1 ∈ {i32, f32} narrows to the table's D2; the input packet is one 32-byte flit
// [P # (32 / sizeof(D1))] and the output keeps P, padded to one flit: [P # (32 / sizeof(D2))].
CheckedValue TypeChecker::FunctionChecker::opCast(const ast::Expr &call, const CheckedValue &recv,
                                                  const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Cast;
  if (args[0].dtype) out.dtype = *args[0].dtype;
  else if (exp) out.dtype = expected->dtype;
  else error(r, "`.cast()` needs the output element type: `.cast::<bf16, Packet>()`");
  out.packet = pick(args[1], exp ? expected->packet : nullptr, call, "Packet");
  if (!out.packet) return {};
  const num::DType from = recv.type.dtype, to = out.dtype;
  bool supported = num::castEngineSupported(from, to);
  if (!supported)
    error(r, std::string("the Cast Engine lowers precision; it cannot cast ") + num::dtypeName(from) + " to " +
                 num::dtypeName(to) + " (Precision Lowering: " + castTableText() + ")");
  CastPlan plan = planCast(recv.type, to);
  if (plan.inBytes != 32)
    error(r, "the Cast Engine takes one 32-byte flit per time step, but the input packet " + recv.type.packet->str() +
                 " of " + num::dtypeName(from) + " is " + std::to_string(plan.inBytes) +
                 " bytes (Packet Transformation: the input packet must be exactly 32 bytes; pad it in `.collect()`, e.g. m![" +
                 plan.data->body() + " # " + std::to_string(num::elementsPerFlit(from)) + "])");
  else if (supported && !plan.outPacket)
    error(r, "the cast packet " + recv.type.packet->str() + " has " + std::to_string(plan.elements) +
                 " elements, more than one 32-byte flit of " + num::dtypeName(to) + " (" +
                 std::to_string(num::elementsPerFlit(to)) + ")");
  else if (supported && !equivalent(plan.outPacket, out.packet))
    error(r, "the Cast Engine keeps the packet's elements and pads them to one 32-byte flit: Packet must be m![" +
                 plan.outPacket->body() + "], not " + out.packet->str() + " (Packet Transformation: [P # (32 / sizeof(" +
                 num::dtypeName(to) + "))] = [P # " + std::to_string(num::elementsPerFlit(to)) + "])");
  emit(call, recv.type, out);
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
