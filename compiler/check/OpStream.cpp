// OpStream.cpp — rules of collect and the register-file loads to_trf / to_vrf (fetch: OpFetch.cpp, switch: OpSwitch.cpp).
#include "MappingNormalForm.h"
#include "TrfSequencer.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
std::string bytesText(uint64_t b) { return std::to_string(b) + (b == 1 ? " byte" : " bytes"); }
}  // namespace

bool TypeChecker::FunctionChecker::checkTrfSplit(const TensorType &in, const TensorType &out, llvm::SMRange r) {
  std::string err;
  MappingRef all = Mapping::pair(in.time, in.packet);
  uint64_t rows = out.row->size();
  if (!all || rows == 0 || all->size() % rows) return false;
  uint64_t inner = all->size() / rows;
  MappingRef row = Mapping::stride(all, inner, &err), element = Mapping::modulo(all, inner, &err);
  if (!row || !element) return false;
  bool elementOk = equivalent(element, out.element);
  if (!elementOk && out.element->size() < inner) {
    MappingRef head = Mapping::resize(element, out.element->size(), &err);
    elementOk = head && equivalent(head, out.element);
    for (uint64_t i = out.element->size(); elementOk && i < inner; ++i) elementOk = !element->map(i);
  }
  if (equivalent(row, out.row) && elementOk) return true;
  error(r, "`.to_trf()` stores the outermost axes of the stream as the Row and the rest as the Element: from Time " +
               in.time->str() + " and Packet " + in.packet->str() + " with " + std::to_string(rows) +
               " Rows it stores Row = " + normalize(row)->str() + " and Element = " + normalize(element)->str() +
               ", not Row = " + out.row->str() + ", Element = " + out.element->str());
  return true;
}

CheckedValue TypeChecker::FunctionChecker::opCollect(const ast::Expr &call, const CheckedValue &recv,
                                                     const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
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
    // The expected pair, spelled canonically: `m![A, B / 16]` and `m![B % 16]`.
    MappingRef wantTime = recv.type.time, wantPacket = pad;
    if (pad && inBytes > 32) {
      MappingRef outer = Mapping::stride(pad, flit, &err), inner = Mapping::modulo(pad, flit, &err);
      if (outer && inner) {
        wantTime = Mapping::pair(recv.type.time, outer);
        wantPacket = inner;
      }
    }
    // Component-wise first (cheap); the whole-pair comparison catches other spellings.
    bool same = wantPacket && equivalent(wantPacket, out.packet) && equivalent(wantTime, out.time);
    if (!same && want && have && !equivalent(want, have)) {
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
  if (!requireStage(call, recv)) return {};
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
  // TRF Memory Layout: a Row's bank row holds 128 rows (a half: 64) × 2 bank columns of 320 bits,
  // each element taking 1, 2 or 4 five-bit slots by its reg_types.
  bool half = mode == "TrfAddress::FirstHalf" || mode == "TrfAddress::SecondHalf";
  uint64_t perRow = trfElementsPerRow(out.dtype, half);
  if (half && perRow && out.element->size() > perRow)
    error(r, "TRF element " + out.element->str() + " holds " + std::to_string(out.element->size()) + " " +
                 num::dtypeName(out.dtype) + " per Row but `" + mode + "` holds " + std::to_string(perRow) +
                 " per Row (64 rows × 2 bank columns × " + std::to_string(perRow / 128) + " elements of reg_types " +
                 std::to_string(trfRegType(out.dtype)) + "; \"TRF Sequencer\": TRF Memory Layout)");
  // "The outermost axes of the input become the Row dimension, and the remaining inner axes become
  // the Element dimension" (`to_trf`); the Element may drop the collect's trailing padding.
  if (!checkTrfSplit(recv.type, out, r))
    checkPreserved({recv.type.time, recv.type.packet}, {out.row, out.element}, r, "to_trf");
  TypedOp &op = emit(call, recv.type, out);
  op.arg = mode;
  int id = place(out, "", r, std::nullopt);
  tensors_[id].region = mode;
  return tensorValue(out, id);
}

CheckedValue TypeChecker::FunctionChecker::opToVrf(const ast::Expr &call, const CheckedValue &recv,
                                                   const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
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
