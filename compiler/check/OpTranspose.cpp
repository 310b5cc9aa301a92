// OpTranspose.cpp — the rule of `.transpose()`: the Transpose Engine's configuration must turn Time × Packet into OutTime × OutPacket.
#include "TransposeEngine.h"
#include "TypeCheckInternal.h"

namespace tcp {

// "Transpose Engine" > Interface: `transpose::<OutTime, OutPacket>()` on a CollectTensor (and the
// later stages that feed it: accumulation, vector, cast); D, Chip, Cluster and Slice are kept.
CheckedValue TypeChecker::FunctionChecker::opTranspose(const ast::Expr &call, const CheckedValue &recv,
                                                       const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  llvm::SMRange r = opRange(call);
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Transpose;
  out.time = pick(args[0], exp ? expected->time : nullptr, call, "OutTime");
  out.packet = pick(args[1], exp ? expected->packet : nullptr, call, "OutPacket");
  if (!out.time || !out.packet) return {};
  if (exp) {  // what the result is declared as; checkTranspose reports any change
    out.dtype = expected->dtype;
    out.chip = expected->chip;
    out.cluster = expected->cluster;
    out.slice = expected->slice;
  }
  TransposeCheck chk = checkTranspose(recv.type, out);
  for (const std::string &e : chk.errors) error(r, e);
  emit(call, recv.type, out);
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
