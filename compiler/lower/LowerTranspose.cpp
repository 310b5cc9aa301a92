// LowerTranspose.cpp — the Transpose Engine's configuration of a `.transpose()` (the engine model's own TransposeConfig).
#include "Lowering.h"
#include "TransposeEngine.h"

namespace tcp {

std::optional<TransposeConfig> lowerTranspose(const TypedOp &op) {
  return checkTranspose(op.in, op.out).config;  // none: the typed phase reported it
}

}  // namespace tcp
