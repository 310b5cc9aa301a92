// HostTensorOps.cpp — host tensor elements, dense logical views, the contraction answer key and tensor comparisons.
#include "HostTensorOps.h"
#include "HostLimits.h"

#include "MappingEval.h"

#include <llvm/Support/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>

namespace tcp::interp {

namespace {
constexpr uint64_t kMaxDense = uint64_t(1) << 28;  // elements of a dense logical view
constexpr uint64_t kMaxWork = uint64_t(1) << 34;   // multiply-adds of one contraction

std::string numText(num::DType t, double v) {
  if (num::isFloat(t)) return Value::floating(v).debug();
  return std::to_string(static_cast<int64_t>(v));
}

std::string axesText(const std::vector<AxisInfo> &axes) {
  std::string s = "{";
  for (size_t k = 0; k < axes.size(); ++k) s += (k ? ", " : "") + axes[k].name;
  return s + "}";
}

const AxisInfo *findAxis(const std::vector<AxisInfo> &axes, const std::string &name, size_t *pos = nullptr) {
  for (size_t k = 0; k < axes.size(); ++k)
    if (axes[k].name == name) {
      if (pos) *pos = k;
      return &axes[k];
    }
  return nullptr;
}

Index indexOfOffset(const DenseView &d, uint64_t off) {
  Index ix;
  for (size_t k = 0; k < d.axes.size(); ++k) ix.set(d.axes[k].name, static_cast<int64_t>(off / d.strides[k] % d.axes[k].size));
  return ix;
}

// Visits every element pair of a and b: (index, left, right). Positional when the mappings are
// the same, else by tensor index over a's logical axes (which must be b's).
// `fn(index, left, right, only)`: only = 0 when both tensors hold the element, 1 when only the left
// does, 2 when only the right does (the other's value is then 0).
void forEachPair(const HostData &a, const HostData &b,
                 const std::function<void(const std::function<Index()> &, double, double, int)> &fn) {
  if (a.mapping->str() == b.mapping->str()) {
    for (uint64_t p = 0; p < a.bits.size(); ++p) {
      auto ix = [&] { return indexAt(a.mapping, p).value_or(Index()); };
      fn(ix, elementDouble(a.dtype, a.bits[p]), elementDouble(b.dtype, b.bits[p]), 0);
    }
    return;
  }
  DenseView da = denseView(a), db = denseView(b);
  std::vector<AxisInfo> sa = da.axes, sb = db.axes;
  auto byName = [](const AxisInfo &x, const AxisInfo &y) { return x.name < y.name; };
  std::sort(sa.begin(), sa.end(), byName);
  std::sort(sb.begin(), sb.end(), byName);
  bool same = sa.size() == sb.size();
  for (size_t k = 0; same && k < sa.size(); ++k) same = sa[k].name == sb[k].name;
  if (!same)
    throw HostError{"the tensors have different axes: " + axesText(da.axes) + " and " + axesText(db.axes)};
  // b's stride for each of a's axes.
  std::vector<uint64_t> bStride(da.axes.size());
  for (size_t k = 0; k < da.axes.size(); ++k) {
    size_t pos = 0;
    findAxis(db.axes, da.axes[k].name, &pos);
    bStride[k] = db.strides[pos];
  }
  for (uint64_t off = 0; off < da.values.size(); ++off) {
    uint64_t offB = 0;
    for (size_t k = 0; k < da.axes.size(); ++k) offB += off / da.strides[k] % da.axes[k].size * bStride[k];
    if (!da.present[off] && !db.present[offB]) continue;
    auto ix = [&] { return indexOfOffset(da, off); };
    fn(ix, da.values[off], db.values[offB], da.present[off] == db.present[offB] ? 0 : da.present[off] ? 1 : 2);
  }
}
}  // namespace

Value elementValue(num::DType t, uint32_t bits) {
  if (num::isFloat(t)) return Value::floating(num::floatToF32(t, bits));
  return Value::integer(num::wrapInt(static_cast<int32_t>(bits), t));
}

double elementDouble(num::DType t, uint32_t bits) {
  if (num::isFloat(t)) return num::floatToF32(t, bits);
  return static_cast<double>(num::wrapInt(static_cast<int32_t>(bits), t));
}

uint32_t elementBits(num::DType t, const Value &v) {
  if (v.kind == Value::Int) {
    if (num::isFloat(t)) return num::f32ToFloat(t, static_cast<float>(v.i));
    if (v.i < num::intMin(t) || v.i > num::intMax(t))
      throw HostError{"value " + std::to_string(v.i) + " does not fit in " + num::dtypeName(t)};
    return static_cast<uint32_t>(static_cast<int32_t>(v.i));
  }
  if (v.kind == Value::Float) {
    if (!num::isFloat(t))
      throw HostError{"float " + v.debug() + " cannot be an element of an " + num::dtypeName(t) +
                      " tensor (convert it with `as`)"};
    return num::f32ToFloat(t, static_cast<float>(v.f));
  }
  throw HostError{std::string("expected a number for an ") + num::dtypeName(t) + " element, found " + v.kindName() +
                  " `" + v.debug() + "`"};
}

uint32_t elementFromDouble(num::DType t, double v) {
  if (num::isFloat(t)) return num::f32ToFloat(t, static_cast<float>(v));
  if (std::isnan(v)) return 0;
  double r = std::nearbyint(v);
  int64_t i = r <= static_cast<double>(num::intMin(t)) ? num::intMin(t)
            : r >= static_cast<double>(num::intMax(t)) ? num::intMax(t) : static_cast<int64_t>(r);
  return static_cast<uint32_t>(static_cast<int32_t>(i));
}

HostData zeroHost(num::DType t, MappingRef m) {
  if (m->size() > kMaxDense) throw HostError{"host tensor " + m->str() + " has more than 2^28 elements"};
  chargeMemory(m->size() * sizeof(uint64_t), "host tensor " + m->str() + " (" + std::to_string(m->size()) + " elements)");
  HostData h;
  h.dtype = t;
  h.bits.assign(m->size(), 0);
  h.mapping = std::move(m);
  return h;
}

std::vector<uint8_t> elementMask(const MappingRef &m) {
  std::vector<uint8_t> mask(m->size(), 0);
  if (std::optional<MappingEval> ev = MappingEval::of(m)) {
    std::vector<int64_t> zero(ev->axes().size(), 0), keys(uint64_t(1) << 16);
    for (uint64_t i = 0; i < m->size(); i += keys.size()) {
      uint64_t n = std::min<uint64_t>(keys.size(), m->size() - i);
      ev->linearRange(zero, i, i + n, keys.data());
      for (uint64_t j = 0; j < n; ++j) mask[i + j] = keys[j] >= 0;
    }
    return mask;
  }
  for (uint64_t i = 0; i < m->size(); ++i) mask[i] = m->map(i).has_value();
  return mask;
}

std::vector<AxisInfo> logicalAxes(const MappingRef &m) {
  std::vector<AxisInfo> out;
  for (const AxisInfo &a : m->axes()) {
    AxisInfo base = a;
    if (!a.skewBase.empty() || !a.padBase.empty()) {
      base.name = a.baseName();
      base.size = a.baseSize();
      base.skewBase.clear();
      base.skewBy.clear();
      base.padBase.clear();
      base.padLeft = base.padRight = base.padBaseSize = 0;
    }
    if (!findAxis(out, base.name)) out.push_back(base);
  }
  return out;
}

std::optional<Index> indexAt(const MappingRef &m, uint64_t p) {
  auto ix = m->map(p);
  if (!ix) return std::nullopt;
  AxisTable order;
  for (const AxisInfo &a : logicalAxes(m)) order.add(a);
  ix->sortBy(order);
  return ix;
}

std::string indexText(const Index &ix, const MappingRef &m) {
  std::string s = "i![";
  bool first = true;
  for (const AxisInfo &a : logicalAxes(m)) {
    s += (first ? "" : ", ") + a.name + ": " + std::to_string(ix.get(a.name));
    first = false;
  }
  return s + "]";
}

uint64_t DenseView::offsetOf(const Index &ix) const {
  uint64_t off = 0;
  for (const auto &[axis, v] : ix.entries()) {
    size_t pos = 0;
    if (!findAxis(axes, axis, &pos)) return std::numeric_limits<uint64_t>::max();
    off += static_cast<uint64_t>(v) * strides[pos];
  }
  return off;
}

DenseView denseView(const HostData &h, bool fill) {
  DenseView d;
  d.axes = logicalAxes(h.mapping);
  d.strides.assign(d.axes.size(), 1);
  uint64_t total = 1;
  for (size_t k = d.axes.size(); k-- > 0;) {
    d.strides[k] = total;
    if (d.axes[k].size && total > kMaxDense / d.axes[k].size)
      throw HostError{"the logical tensor " + axesText(d.axes) + " has more than 2^28 elements"};
    total *= d.axes[k].size;
  }
  if (!fill) return d;
  d.values.assign(total, 0.0);
  d.present.assign(total, 0);
  if (std::optional<MappingEval> ev = MappingEval::of(h.mapping); ev && ev->size() == h.bits.size()) {
    std::vector<int64_t> w = ev->weights([&](const std::string &axis) {
      size_t pos = 0;
      return findAxis(d.axes, axis, &pos) ? int64_t(d.strides[pos]) : int64_t(0);
    });
    std::vector<int64_t> offs(uint64_t(1) << 16);  // offsets of a chunk of positions
    for (uint64_t first = 0; first < h.bits.size(); first += offs.size()) {
      uint64_t n = std::min<uint64_t>(offs.size(), h.bits.size() - first);
      ev->linearRange(w, first, first + n, offs.data());
      for (uint64_t j = 0; j < n; ++j) {
        if (offs[j] < 0 || uint64_t(offs[j]) >= total) continue;
        d.values[offs[j]] = elementDouble(h.dtype, h.bits[first + j]);
        d.present[offs[j]] = 1;
      }
    }
    return d;
  }
  for (uint64_t p = 0; p < h.bits.size(); ++p) {
    auto ix = h.mapping->map(p);
    if (!ix) continue;
    uint64_t off = d.offsetOf(*ix);
    if (off >= total) continue;
    d.values[off] = elementDouble(h.dtype, h.bits[p]);
    d.present[off] = 1;
  }
  return d;
}

namespace {
// An input of the contraction repacked as [its output axes (in output order)] × [summed axes]:
// the summed elements of each output index are contiguous.
struct Packed {
  std::vector<double> values;
  std::vector<std::pair<std::string, uint64_t>> outStrides;  // output axis → stride in packed rows
  const HostData *source = nullptr;  // set instead of values: the host tensor is already in packed order
  std::vector<double> decoded;       // with source of 16 or fewer storage bits: elementDouble of every bit pattern
};

// Row r of a packed operand (K values): in place, or converted from the host tensor into buf.
const double *packedRowValues(const Packed &p, uint64_t r, uint64_t K, std::vector<double> &buf) {
  if (!p.source) return p.values.data() + r * K;
  buf.resize(K);
  const uint32_t *bits = p.source->bits.data() + r * K;
  const uint64_t n = p.decoded.size();
  for (uint64_t k = 0; k < K; ++k) buf[k] = bits[k] < n ? p.decoded[bits[k]] : elementDouble(p.source->dtype, bits[k]);
  return buf.data();
}

// Whether position p of h is dense offset p of its logical view d, for every p (no padding, same order).
bool denseInPlace(const HostData &h, const DenseView &d) {
  std::optional<MappingEval> ev = MappingEval::of(h.mapping);
  uint64_t total = 1;
  for (const AxisInfo &a : d.axes) total *= a.size;
  if (!ev || ev->size() != h.bits.size() || total != h.bits.size()) return false;
  std::vector<int64_t> w = ev->weights([&](const std::string &axis) {
    size_t pos = 0;
    return findAxis(d.axes, axis, &pos) ? int64_t(d.strides[pos]) : int64_t(0);
  });
  std::vector<int64_t> offs(uint64_t(1) << 16);
  for (uint64_t first = 0; first < h.bits.size(); first += offs.size()) {
    uint64_t n = std::min<uint64_t>(offs.size(), h.bits.size() - first);
    ev->linearRange(w, first, first + n, offs.data());
    for (uint64_t j = 0; j < n; ++j)
      if (offs[j] != int64_t(first + j)) return false;
  }
  return true;
}

// h: the host tensor d views; when it is in packed order already (and dense in place), its bits are
// read row by row and d needs no values.
Packed pack(DenseView &d, const HostData &h, const std::vector<AxisInfo> &outAxes, const std::vector<AxisInfo> &summed,
            uint64_t sumSize) {
  auto strideIn = [&](const std::string &name) -> uint64_t {
    size_t pos = 0;
    return findAxis(d.axes, name, &pos) ? d.strides[pos] : 0;
  };
  std::vector<uint64_t> offSum(sumSize);
  for (uint64_t k = 0; k < sumSize; ++k) {
    uint64_t rest = k, off = 0;
    for (size_t j = summed.size(); j-- > 0;) {
      off += rest % summed[j].size * strideIn(summed[j].name);
      rest /= summed[j].size;
    }
    offSum[k] = off;
  }
  std::vector<AxisInfo> own;  // output axes this input has
  for (const AxisInfo &a : outAxes)
    if (findAxis(d.axes, a.name)) own.push_back(a);
  uint64_t rows = 1;
  for (const AxisInfo &a : own) rows *= a.size;
  if (sumSize && rows > kMaxDense / sumSize) throw HostError{"the contraction's operands are too large (more than 2^28 products per operand)"};
  Packed p;
  uint64_t stride = 1;
  for (size_t j = own.size(); j-- > 0;) {
    p.outStrides.emplace_back(own[j].name, stride);
    stride *= own[j].size;
  }
  // The dense view is already [own output axes][summed axes] (row-major in that order): take it,
  // or the host tensor itself when that is the dense view in place.
  bool same = d.axes.size() == own.size() + summed.size();
  for (size_t k = 0; same && k < d.axes.size(); ++k)
    same = d.axes[k].name == (k < own.size() ? own[k].name : summed[k - own.size()].name);
  if (same && d.values.empty() && denseInPlace(h, d)) {
    p.source = &h;
    // Rows are converted once per use (every block of the other operand): decode each bit pattern
    // once here instead (the same elementDouble, looked up; patterns past the table convert directly).
    if (num::storageBits(h.dtype) <= 16 && h.bits.size() >= (uint64_t(1) << 16)) {
      p.decoded.resize(uint64_t(1) << num::storageBits(h.dtype));
      for (uint64_t b = 0; b < p.decoded.size(); ++b) p.decoded[b] = elementDouble(h.dtype, uint32_t(b));
    }
    return p;
  }
  if (d.values.empty()) d = denseView(h);
  if (same && d.values.size() == rows * sumSize) {
    p.values = std::move(d.values);
    return p;
  }
  p.values.resize(rows * sumSize);
  for (uint64_t q = 0; q < rows; ++q) {
    uint64_t rest = q, base = 0;
    for (size_t j = own.size(); j-- > 0;) {
      base += rest % own[j].size * strideIn(own[j].name);
      rest /= own[j].size;
    }
    double *row = p.values.data() + q * sumSize;
    for (uint64_t k = 0; k < sumSize; ++k) row[k] = d.values[base + offSum[k]];
  }
  return p;
}

// acc[r][j] = Σ_k o_r[k] * T[k * 16 + j] for two rows o_0, o_1 of the other operand: each sum in k
// order from 0, one output per lane, every product rounded before its add (fp-contract off: no fused
// multiply-add); GCC vectors, compiled for AVX-512, AVX2 and the baseline, chosen at run time.
constexpr uint64_t kBlockRows = 16;
typedef double V4 __attribute__((vector_size(32)));
__attribute__((target_clones("avx512f", "avx2", "default"), optimize("fp-contract=off"))) void dotBlock(
    const double *o0, const double *o1, const double *T, uint64_t K, double *acc0, double *acc1) {
  V4 a0 = {}, a1 = {}, a2 = {}, a3 = {}, b0 = {}, b1 = {}, b2 = {}, b3 = {};
  for (uint64_t k = 0; k < K; ++k) {
    V4 t0, t1, t2, t3;
    std::memcpy(&t0, T + k * kBlockRows, sizeof t0);
    std::memcpy(&t1, T + k * kBlockRows + 4, sizeof t1);
    std::memcpy(&t2, T + k * kBlockRows + 8, sizeof t2);
    std::memcpy(&t3, T + k * kBlockRows + 12, sizeof t3);
    const V4 x = {o0[k], o0[k], o0[k], o0[k]}, y = {o1[k], o1[k], o1[k], o1[k]};
    a0 += x * t0, a1 += x * t1, a2 += x * t2, a3 += x * t3;
    b0 += y * t0, b1 += y * t1, b2 += y * t2, b3 += y * t3;
  }
  std::memcpy(acc0, &a0, 32), std::memcpy(acc0 + 4, &a1, 32), std::memcpy(acc0 + 8, &a2, 32), std::memcpy(acc0 + 12, &a3, 32);
  std::memcpy(acc1, &b0, 32), std::memcpy(acc1 + 4, &b1, 32), std::memcpy(acc1 + 8, &b2, 32), std::memcpy(acc1 + 12, &b3, 32);
}

uint64_t packedRow(const Packed &p, const Index &ix) {
  uint64_t q = 0;
  for (const auto &[axis, stride] : p.outStrides) q += static_cast<uint64_t>(ix.get(axis)) * stride;
  return q;
}
}  // namespace

HostData contraction(const HostData &a, const HostData &b, num::DType out, MappingRef outMapping) {
  HostData r = zeroHost(out, outMapping);
  DenseView da = denseView(a, false), db = denseView(b, false);  // layouts; pack fills them when needed
  std::vector<AxisInfo> outAxes = logicalAxes(outMapping);
  // Summed axes: every input axis absent from the output.
  std::vector<AxisInfo> summed;
  for (const auto *axes : {&da.axes, &db.axes})
    for (const AxisInfo &x : *axes)
      if (!findAxis(outAxes, x.name) && !findAxis(summed, x.name)) summed.push_back(x);
  uint64_t sumSize = 1;
  for (const AxisInfo &x : summed) {
    if (x.size && sumSize > kMaxDense / x.size) throw HostError{"too many summed elements in the contraction"};
    sumSize *= x.size;
  }
  if (sumSize && r.bits.size() > kMaxWork / sumSize)
    throw HostError{"the contraction needs more than 2^34 multiply-adds"};
  Packed pa = pack(da, a, outAxes, summed, sumSize), pb = pack(db, b, outAxes, summed, sumSize);
  bool ints = num::isInteger(a.dtype) && num::isInteger(b.dtype);
  // Each output's packed rows of a and b (-1: the position holds no element).
  const uint64_t n = r.bits.size();
  std::vector<int64_t> rowA(n, -1), rowB(n, -1);
  if (std::optional<MappingEval> ev = MappingEval::of(outMapping)) {
    auto strideIn = [](const Packed &p) {
      return [&p](const std::string &axis) {
        for (const auto &[name, stride] : p.outStrides)
          if (name == axis) return int64_t(stride);
        return int64_t(0);
      };
    };
    rowA = ev->linear(ev->weights(strideIn(pa)));
    rowB = ev->linear(ev->weights(strideIn(pb)));
  } else {
    for (uint64_t p = 0; p < n; ++p)
      if (auto ix = outMapping->map(p)) rowA[p] = int64_t(packedRow(pa, *ix)), rowB[p] = int64_t(packedRow(pb, *ix));
  }
  // Blocked and multi-threaded: outputs are bucketed by blocks of 16 rows of the operand with more
  // rows; a bucket packs its block interleaved (T[k * 16 + j] = row j's value k) and runs every row
  // of the other operand it meets against all 16 at once, in SIMD lanes. Buckets run in parallel.
  // Each sum still adds its products in k order from 0, one output per lane, as the scalar loop did.
  int64_t maxA = -1, maxB = -1;
  for (uint64_t p = 0; p < n; ++p) maxA = std::max(maxA, rowA[p]), maxB = std::max(maxB, rowB[p]);
  const bool byB = maxB >= maxA;
  const std::vector<int64_t> &blockRow = byB ? rowB : rowA, &otherRow = byB ? rowA : rowB;
  const Packed &blockOp = byB ? pb : pa, &otherOp = byB ? pa : pb;
  const uint64_t blockRows = uint64_t(std::max(maxA, maxB) + 1);
  uint64_t blocks = (blockRows + kBlockRows - 1) / kBlockRows;
  std::vector<std::vector<uint64_t>> buckets(blocks);
  for (uint64_t p = 0; p < n; ++p)
    if (rowA[p] >= 0 && rowB[p] >= 0) buckets[uint64_t(blockRow[p]) / kBlockRows].push_back(p);
  llvm::parallelFor(0, blocks, [&](size_t blk) {
    std::vector<uint64_t> &outs = buckets[blk];
    if (outs.empty()) return;
    if (ints) {
      for (uint64_t p : outs) {
        thread_local std::vector<double> bx, by;
        const double *xs = packedRowValues(pa, uint64_t(rowA[p]), sumSize, bx);
        const double *ys = packedRowValues(pb, uint64_t(rowB[p]), sumSize, by);
        __int128 acc = 0;
        for (uint64_t k = 0; k < sumSize; ++k)
          acc += static_cast<__int128>(static_cast<int64_t>(xs[k]) * static_cast<int64_t>(ys[k]));
        if (num::isInteger(out)) {  // the low bits, as the Cast Engine narrows (Numerics.h castI32To)
          r.bits[p] = static_cast<uint32_t>(static_cast<int32_t>(num::wrapInt(static_cast<int64_t>(acc), out)));
        } else {
          r.bits[p] = elementFromDouble(out, static_cast<double>(acc));
        }
      }
      return;
    }
    const uint64_t r0 = blk * kBlockRows, rows = std::min<uint64_t>(kBlockRows, blockRows - r0);
    std::vector<double> T(sumSize * kBlockRows, 0.0);
    for (uint64_t j = 0; j < rows; ++j) {
      thread_local std::vector<double> buf;
      const double *src = packedRowValues(blockOp, r0 + j, sumSize, buf);
      for (uint64_t k = 0; k < sumSize; ++k) T[k * kBlockRows + j] = src[k];
    }
    std::stable_sort(outs.begin(), outs.end(), [&](uint64_t u, uint64_t v) { return otherRow[u] < otherRow[v]; });
    double acc[2][kBlockRows];
    for (size_t i = 0; i < outs.size();) {
      // The runs of the next two rows of the other operand (the second may be absent: it repeats the first).
      const int64_t o0 = otherRow[outs[i]];
      size_t j = i;
      while (j < outs.size() && otherRow[outs[j]] == o0) ++j;
      const int64_t o1 = j < outs.size() ? otherRow[outs[j]] : o0;
      size_t end = j;
      while (end < outs.size() && otherRow[outs[end]] == o1) ++end;
      thread_local std::vector<double> b0, b1;
      dotBlock(packedRowValues(otherOp, uint64_t(o0), sumSize, b0), packedRowValues(otherOp, uint64_t(o1), sumSize, b1),
               T.data(), sumSize, acc[0], acc[1]);
      for (; i < end; ++i)
        r.bits[outs[i]] = elementFromDouble(out, acc[i < j ? 0 : 1][uint64_t(blockRow[outs[i]]) - r0]);
    }
  });
  return r;
}

namespace {
std::string sideText(const HostData &a, const HostData &b, double l, double r, int only) {
  if (only == 1) return "left = " + numText(a.dtype, l) + ", which the right tensor (" + b.mapping->str() + ") does not hold";
  if (only == 2) return "right = " + numText(b.dtype, r) + ", which the left tensor (" + a.mapping->str() + ") does not hold";
  return "left = " + numText(a.dtype, l) + ", right = " + numText(b.dtype, r);
}
}  // namespace

std::optional<std::string> compareExact(const HostData &a, const HostData &b) {
  if (a.dtype != b.dtype)
    return std::string("element types differ: ") + num::dtypeName(a.dtype) + " and " + num::dtypeName(b.dtype);
  uint64_t count = 0, bad = 0;
  std::string first;
  forEachPair(a, b, [&](const std::function<Index()> &ix, double l, double r, int only) {
    ++count;
    bool eq = only == 0 && (l == r || (std::isnan(l) && std::isnan(r)));
    if (eq) return;
    if (!bad++)
      first = "first mismatch at " + indexText(ix(), a.mapping) + ": " + sideText(a, b, l, r, only);
  });
  if (!bad) return std::nullopt;
  return std::to_string(bad) + " of " + std::to_string(count) + " elements differ; " + first;
}

std::optional<std::string> compareClose(const HostData &a, const HostData &b, double rtol, double atol) {
  uint64_t count = 0, bad = 0;
  double worst = -1;
  std::string where;
  forEachPair(a, b, [&](const std::function<Index()> &ix, double l, double r, int only) {
    ++count;
    if (only != 0) {  // an element one tensor does not hold is never close
      if (!bad++ || worst < std::numeric_limits<double>::infinity()) {
        worst = std::numeric_limits<double>::infinity();
        where = indexText(ix(), a.mapping) + ": " + sideText(a, b, l, r, only);
      }
      return;
    }
    if (std::isnan(l) && std::isnan(r)) return;
    if (std::isinf(l) && l == r) return;  // equal infinities are close (numpy's isclose)
    double diff = std::fabs(l - r), tol = atol + rtol * std::fabs(r);
    bool ok = diff <= tol;
    if (ok) return;
    ++bad;
    double score = std::isnan(diff) ? std::numeric_limits<double>::infinity() : tol > 0 ? diff / tol : std::numeric_limits<double>::max();
    if (score > worst) {
      worst = score;
      where = indexText(ix(), a.mapping) + ": left = " + numText(a.dtype, l) + ", right = " + numText(b.dtype, r) +
              ", |left - right| = " + Value::floating(diff).debug();
    }
  });
  if (!bad) return std::nullopt;
  std::ostringstream os;
  os << bad << " of " << count << " elements differ by more than atol + rtol * |right| (rtol = "
     << Value::floating(rtol).debug() << ", atol = " << Value::floating(atol).debug() << "); worst at " << where;
  return os.str();
}

void defaultTolerance(num::DType t, double *rtol, double *atol) {
  using num::DType;
  switch (t) {
    case DType::f32: *rtol = 1e-5; *atol = 1e-6; return;
    case DType::f16: *rtol = 1e-3; *atol = 1e-3; return;
    case DType::bf16: *rtol = 1e-2; *atol = 1e-2; return;
    case DType::f8e4m3: *rtol = 0.125; *atol = 0.0625; return;
    case DType::f8e5m2: *rtol = 0.25; *atol = 0.125; return;
    default: *rtol = 0; *atol = 0; return;
  }
}

std::string hostTypeStr(const HostData &h) {
  return std::string("HostTensor<") + num::dtypeName(h.dtype) + ", " + (h.mapping ? h.mapping->str() : "m![?]") + ">";
}

}  // namespace tcp::interp
