// CastEngine.h — the Cast Engine's precision-lowering packet transformation and its derived parameters.
#pragma once

#include "TensorType.h"

#include <optional>
#include <string>

namespace tcp {

// "Cast Engine" > Packet Transformation: Input Packet = [P # (32 / sizeof(D1))], Output Packet =
// [P # (32 / sizeof(D2))], Time unchanged; one input flit in and one output flit out per time step.
struct CastPlan {
  MappingRef data;          // P: the input packet without its trailing padding
  uint64_t elements = 0;    // P::SIZE
  uint64_t inBytes = 0;     // input packet bytes (32 when legal)
  uint64_t outDataBytes = 0;  // P::SIZE × sizeof(D2)
  uint64_t outPadBytes = 0;   // 32 − outDataBytes
  MappingRef outPacket;     // [P # (32 / sizeof(D2))], nullptr when P does not fit one output flit
  uint64_t cycles = 0;      // Time::SIZE (one flit per time step)
};

// P of a packet: the child of a top-level padding (`m![A # 8]` → `m![A]`), else the packet itself.
MappingRef castData(const MappingRef &packet);
CastPlan planCast(const TensorType &in, num::DType to);
// The manual's table, as text for messages: "i32 → i4, i8, i16; f32 → f8e5m2, f8e4m3, f16, bf16".
std::string castTableText();

}  // namespace tcp
