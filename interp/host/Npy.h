// Npy.h — NumPy .npy (format 1.0) files of host tensors: the logical tensor, axes in mapping order.
#pragma once

#include "Device.h"

#include <string>

namespace tcp::interp {

// Writes the logical tensor of `h` (shape = sizes of its mapping's axes, first occurrence first;
// C order; uncovered indices 0). i4/i8 → <i1 (|i1), i16 → <i2, i32 → <i4, f16 → <f2, f32 → <f4,
// bf16/f8 → <f4 (exact widening). Throws HostError.
void saveNpy(const HostData &h, const std::string &path);
// Reads a .npy file into a host tensor of type `dtype` over `mapping`; the file's shape must be
// the mapping's logical axis sizes in mapping order. Integers must fit the type exactly; floats
// round to nearest even. Accepts b1, i1/i2/i4/i8, u1/u2/u4, f2/f4/f8, little-endian, C order.
HostData loadNpy(const std::string &path, num::DType dtype, const MappingRef &mapping);

}  // namespace tcp::interp
