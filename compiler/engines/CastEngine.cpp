// CastEngine.cpp — the Cast Engine's packet transformation (data part, output packet, bytes, cycles).
#include "CastEngine.h"

#include "MappingNormalForm.h"

namespace tcp {

MappingRef castData(const MappingRef &packet) {
  if (!packet) return nullptr;
  MappingRef n = normalize(packet);
  if (n->kind() == Mapping::Pad && !n->children().empty()) return n->children()[0];
  return n;
}

CastPlan planCast(const TensorType &in, num::DType to) {
  CastPlan p;
  p.inBytes = in.packetBytes();
  p.data = castData(in.packet);
  p.elements = p.data ? p.data->size() : 0;
  p.outDataBytes = num::storageBytes(to, p.elements);
  p.outPadBytes = p.outDataBytes <= 32 ? 32 - p.outDataBytes : 0;
  uint64_t flit = num::elementsPerFlit(to);
  std::string err;
  if (p.data && p.elements <= flit) p.outPacket = normalize(Mapping::pad(p.data, flit, &err));
  p.cycles = in.time ? in.time->size() : 1;
  return p;
}

EngineConfig lowerCast(const TypedOp &op) {
  CastPlan p = planCast(op.in, op.out.dtype);
  EngineConfig e{"cast", std::nullopt, {}};
  e.fields.push_back({"from", num::dtypeName(op.in.dtype)});
  e.fields.push_back({"to", num::dtypeName(op.out.dtype)});
  e.fields.push_back({"input_packet", op.in.packet->str()});
  e.fields.push_back({"packet", op.out.packet->str()});
  e.fields.push_back({"elements", std::to_string(p.elements)});
  e.fields.push_back({"input_bytes", std::to_string(p.inBytes)});
  e.fields.push_back({"output_data_bytes", std::to_string(p.outDataBytes)});
  e.fields.push_back({"output_padding_bytes", std::to_string(p.outPadBytes)});
  e.fields.push_back({"cycles", std::to_string(p.cycles)});
  return e;
}

std::string castTableText() { return "i32 → i4, i8, i16; f32 → f8e5m2, f8e4m3, f16, bf16"; }

}  // namespace tcp
