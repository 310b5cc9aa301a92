// HostTensorOps.h — host tensor element access, logical (index-addressed) views, the contraction answer key, comparisons.
#pragma once

#include "Device.h"
#include "Value.h"

#include <optional>
#include <string>
#include <vector>

namespace tcp::interp {

// An error of a host tensor operation; the caller reports it at the call's source location.
struct HostError {
  std::string message;
};

// An element's value: integers as Int, floats as Float (exact f32 widening of the bit pattern).
Value elementValue(num::DType t, uint32_t bits);
double elementDouble(num::DType t, uint32_t bits);
// A Value stored as an element of type t: integers must fit (else HostError), floats round to
// nearest even; an Int stored in a float type is converted, a Float in an integer type is an error.
uint32_t elementBits(num::DType t, const Value &v);
// A double stored as an element of type t: floats round (RNE), integers round to nearest even and
// saturate (as the Cast Engine does).
uint32_t elementFromDouble(num::DType t, double v);

// A zeroed host tensor of type t over mapping m.
HostData zeroHost(num::DType t, MappingRef m);
// Whether each position of m holds an element (padding: 0); integer digits when m has a MappingEval.
std::vector<uint8_t> elementMask(const MappingRef &m);
// The logical axes of a mapping (skewed axes replaced by their base), first occurrence first.
std::vector<AxisInfo> logicalAxes(const MappingRef &m);
// The tensor index stored at position p (nullopt = padding), sorted by `axes`.
std::optional<Index> indexAt(const MappingRef &m, uint64_t p);

// A tensor index with every logical axis of m, zeros included: "i![I: 0, J: 1]" (messages).
std::string indexText(const Index &ix, const MappingRef &m);

// A dense logical view: value per index over the product of the axes (row-major in `axes` order);
// indices the mapping does not cover hold 0.
struct DenseView {
  std::vector<AxisInfo> axes;
  std::vector<uint64_t> strides;
  std::vector<double> values;
  std::vector<uint8_t> present;
  uint64_t offsetOf(const Index &ix) const;  // axes missing from `axes` must be 0 in ix
};
DenseView denseView(const HostData &h, bool fill = true);  // fill = false: axes and strides only

// The answer key of `contraction::<D, M>(a, b)`: einsum over named axes. Every axis of a or b that
// is not an axis of M is summed; integers accumulate in i64 and saturate to D, floats accumulate in
// f64 (inputs widened exactly) and round once to D.
HostData contraction(const HostData &a, const HostData &b, num::DType out, MappingRef outMapping);

// Element-wise equality of two host tensors (same dtype; matched by tensor index when the
// mappings differ). Returns a message naming the first mismatch, or nullopt when equal.
std::optional<std::string> compareExact(const HostData &a, const HostData &b);
// |a - b| <= atol + rtol * |b| for every element; a message with the count and the worst element
// (largest |a - b| / (atol + rtol * |b|)) on failure.
std::optional<std::string> compareClose(const HostData &a, const HostData &b, double rtol, double atol);
// Default tolerances of assert_close! for an element type (the coarser type of the two operands).
void defaultTolerance(num::DType t, double *rtol, double *atol);

std::string hostTypeStr(const HostData &h);  // "HostTensor<i32, m![A]>"

}  // namespace tcp::interp
