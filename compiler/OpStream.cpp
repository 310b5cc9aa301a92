// OpStream.cpp — rules of collect and the register-file loads to_trf / to_vrf (fetch: OpFetch.cpp, switch: OpSwitch.cpp).
#include "MappingNormalForm.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
std::string bytesText(uint64_t b) { return std::to_string(b) + (b == 1 ? " byte" : " bytes"); }
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opCollect(const ast::Expr &call, const CheckedValue &recv,
                                                     const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv, {Stage::Fetch, Stage::Switch})) return {};
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Collect;
  out.time = pick(args[0], exp ? expected->time : nullptr, call, "Time2");
  out.packet = pick(args[1], exp ? expected->packet : nullptr, call, "Packet2");
  if (!out.time || !out.packet) return {};
  llvm::SMRange r = opRange(call);
  const uint64_t flit = num::elementsPerFlit(out.dtype);  // elements in one 32-byte flit
  uint64_t inBytes = recv.type.packetBytes();
  uint64_t outBytes = out.packetBytes();
  if (outBytes != 32) {
    error(r, "collect outputs exactly one 32-byte flit, but Packet2 " + out.packet->str() + " is " + bytesText(outBytes) +
                 " of " + num::dtypeName(out.dtype) + " (a flit holds " + std::to_string(flit) + " elements); " +
                 (outBytes > 32 ? "split the packet into flits and move the outer part into Time2"
                                : "pad it to one flit, e.g. m![" + out.packet->body() + " # " + std::to_string(flit) + "]"));
  } else {
    // Pad the packet to whole flits, then split: inner flit → Packet2, outer flit count → Time2.
    uint64_t padded = (inBytes + 31) / 32 * flit;
    std::string err;
    MappingRef pad = padded == recv.type.packet->size() ? recv.type.packet : Mapping::pad(recv.type.packet, padded, &err);
    MappingRef want = pad ? Mapping::pair(recv.type.time, pad) : nullptr;
    MappingRef have = Mapping::pair(out.time, out.packet);
    if (want && have && !equivalent(want, have)) {
      // The expected pair, spelled canonically: `m![A, B / 16]` and `m![B % 16]`.
      MappingRef wantTime = recv.type.time, wantPacket = pad;
      if (inBytes > 32) {
        MappingRef outer = Mapping::stride(pad, flit, &err), inner = Mapping::modulo(pad, flit, &err);
        if (outer && inner) {
          wantTime = Mapping::pair(recv.type.time, outer);
          wantPacket = inner;
        }
      }
      std::string expect = "Time2 = " + normalize(wantTime)->str() + " and Packet2 = " + normalize(wantPacket)->str();
      error(r, "collect only pads the packet to 32-byte flits and moves whole flits into Time; with Time = " +
                   recv.type.time->str() + " and Packet = " + recv.type.packet->str() + " (" + bytesText(inBytes) +
                   ") it produces " + expect + ", not Time2 = " + out.time->str() + ", Packet2 = " + out.packet->str());
    }
  }
  emit(call, recv.type, out);
  return tensorValue(out, place(out, "", r, std::nullopt));
}

CheckedValue TypeChecker::FunctionChecker::opToTrf(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv, {Stage::Collect})) return {};
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Trf;
  TensorType out = atRest(recv.type, Tier::Trf);
  out.row = pick(args[0], exp ? expected->row : nullptr, call, "Row");
  out.element = pick(args[1], exp ? expected->element : nullptr, call, "Element");
  if (!out.row || !out.element) return {};
  llvm::SMRange r = opRange(call);
  std::string mode;
  if (call.operands.size() > 1 && call.operands[1]->kind == ast::Expr::PathE) mode = call.operands[1]->path.str();
  if (mode != "TrfAddress::Full" && mode != "TrfAddress::FirstHalf" && mode != "TrfAddress::SecondHalf")
    error(r, "`.to_trf()` takes a TRF region: `TrfAddress::Full`, `TrfAddress::FirstHalf` or `TrfAddress::SecondHalf`");
  if (!num::isReducerInput(out.dtype))
    error(r, std::string("the TRF holds Contraction Engine weights (i4, i8, f8 or bf16), not ") + num::dtypeName(out.dtype));
  checkCapacity(out, r, std::nullopt);
  uint64_t bytes = out.elementBytes();
  if (mode != "TrfAddress::Full" && bytes > 4096)
    error(r, "TRF element " + out.element->str() + " needs " + bytesText(bytes) + " per Row but `" + mode +
                 "` holds half the TRF (4 KB per Row)");
  checkPreserved({recv.type.time, recv.type.packet}, {out.row, out.element}, r, "to_trf");
  TypedOp &op = emit(call, recv.type, out);
  op.arg = mode;
  return tensorValue(out, place(out, "", r, std::nullopt));
}

CheckedValue TypeChecker::FunctionChecker::opToVrf(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv, {Stage::Collect})) return {};
  auto args = typeArgs(call, 1);
  bool exp = expected && expected->tier == Tier::Vrf;
  TensorType out = atRest(recv.type, Tier::Vrf);
  out.element = pick(args[0], exp ? expected->element : nullptr, call, "Element");
  if (!out.element) return {};
  llvm::SMRange r = opRange(call);
  auto addr = constArg(call, 0, "VRF address");
  checkCapacity(out, r, addr);
  checkPreserved({recv.type.time, recv.type.packet}, {out.element}, r, "to_vrf");
  TypedOp &op = emit(call, recv.type, out);
  op.address = addr;
  return tensorValue(out, place(out, "", r, addr));
}

}  // namespace tcp
