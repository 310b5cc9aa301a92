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

std::string castTableText() { return "i32 → i4, i8, i16; f32 → f8e5m2, f8e4m3, f16, bf16"; }

}  // namespace tcp
