// DeviceContract.cpp — the contraction step: distinct weight packets gathered once, trees over packet pointers; the materializing reference.
#include "DeviceContract.h"

#include "DeviceMemory.h"
#include "DeviceReducer.h"
#include "NumericKernels.h"
#include "RowIds.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <functional>

namespace tcp::interp {

// Per-thread scratch, grown as needed and kept for the next slice and chain.
struct ContractScratch {
  std::vector<uint32_t> x, w;  // staged stream and weight packets (f32 bits or lanes)
  std::vector<uint8_t> bx, bw; // blocks of materialized packets (i8 and the scalar types)
  std::vector<uint32_t> red;
  std::vector<float> tiles;    // the blocked plan's tiles, transposed
};

namespace {

inline uint32_t bitsOf(float v) { return num::f32Bits(v); }
inline uint32_t bitsOf(int32_t v) { return uint32_t(v); }
inline uint32_t bitsOf(uint32_t v) { return v; }

// The reference: gathers the stream lanes (the same for every Row) and the TRF weights of Row r into
// tree-sized packets, reduces them, and keeps the first Q sums of each packet.
template <class Lane, class Sum, class Reduce>
void contractPackets(const std::vector<uint32_t> &cur, const uint8_t *trf, const ElemCodec &codec,
                     const std::vector<int32_t> &wpos, const ContractShape &c, std::vector<uint32_t> &out,
                     Reduce reduce) {
  size_t packets = c.rows * c.times, L = c.treeLanes;
  std::vector<Lane> x(packets * L, 0), w(packets * L, 0);
  for (size_t t = 0; t < c.times; ++t)
    for (size_t p = 0; p < c.lanes; ++p) x[t * L + p] = Lane(cur[t * c.lanes + p]);
  for (size_t r = 1; r < c.rows; ++r) std::copy(x.begin(), x.begin() + c.times * L, x.begin() + r * c.times * L);
  size_t i = 0;
  for (size_t k = 0; k < packets; ++k)
    for (size_t p = 0; p < c.lanes; ++p, ++i)
      if (wpos[i] >= 0) w[k * L + p] = Lane(codec.load(trf, wpos[i]));
  std::vector<Sum> red(packets * c.sums);
  reduce(x.data(), w.data(), packets, red.data());
  out.resize(packets * c.outLanes);
  for (size_t k = 0; k < packets; ++k)
    for (size_t q = 0; q < c.outLanes; ++q) out[k * c.outLanes + q] = bitsOf(red[k * c.sums + q]);
}

// bf16 bits widened to f32 with subnormals flushed to signed zero (LoadBf16 of NumericKernels.cpp).
constexpr size_t kMaxLanes = num::kI8PacketLanes;
inline uint32_t widenBf16(uint32_t bits) {
  uint32_t f = (bits & 0xFFFFu) << 16;
  uint32_t keep = (f & 0x7F800000u) == 0 ? 0x80000000u : 0xFFFFFFFFu;
  return f & keep;
}
// Tracks the smallest biased exponent of the finite nonzero values staged (branch-free: vectorizes).
inline void noteExponent(uint32_t f, unsigned &minExp) {
  unsigned e = (f >> 23) & 0xFF;
  unsigned c = (e - 1u) < 0xFEu ? e : 0xFFu;  // zero and inf/NaN do not count
  minExp = c < minExp ? c : minExp;
}

// noteExponent over bf16 bit patterns (the exponent is bits 7..14): 16-bit lanes, so it vectorizes.
inline unsigned minExponentBf16(const uint16_t *h, size_t n, unsigned minExp) {
  int16_t m = int16_t(minExp);
  for (size_t i = 0; i < n; ++i) {
    const int16_t e = int16_t((h[i] >> 7) & 0xFF);
    const int16_t c = e == 0 || e == 0xFF ? int16_t(0xFF) : e;
    m = c < m ? c : m;
  }
  return unsigned(m);
}

// Packets u with base[u] >= 0 (L consecutive elements from there) grouped into spans of consecutive packets.
template <class Span>
std::vector<Span> spansOf(const std::vector<int32_t> &base, size_t L) {
  std::vector<Span> spans;
  for (size_t u = 0; u < base.size(); ++u) {
    if (base[u] < 0) continue;
    Span *last = spans.empty() ? nullptr : &spans.back();
    if (last && last->first + last->count == u && last->base + int32_t(last->count * L) == base[u]) ++last->count;
    else spans.push_back({uint32_t(u), 1, base[u]});
  }
  return spans;
}

// The bf16 packets of `spans` (in mem) widened into out (packet u at out + u * L) by the Highway kernel
// (the same flush; a NaN comes out canonical, which no product or sum can tell apart), their smallest
// exponent noted from the 16-bit patterns; staged[u] set for each packet done.
template <class Span>
void widenSpans(const uint8_t *mem, const std::vector<Span> &spans, size_t L, uint32_t *out, std::vector<uint8_t> &staged,
                unsigned &ex) {
  for (const Span &sp : spans) {
    const uint8_t *from = mem + 2 * size_t(sp.base);
    if (reinterpret_cast<uintptr_t>(from) % alignof(uint16_t) != 0) continue;
    const uint16_t *h = reinterpret_cast<const uint16_t *>(from);
    num::bf16ToF32(h, reinterpret_cast<float *>(out + size_t(sp.first) * L), size_t(sp.count) * L);
    ex = minExponentBf16(h, size_t(sp.count) * L, ex);
    std::memset(&staged[sp.first], 1, sp.count);
  }
}

using Scratch = ContractScratch;
Scratch &scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

ContractKernel::ContractKernel(num::DType stream, num::DType trf, unsigned depth, ContractShape shape,
                               const std::vector<int32_t> &wpos)
    : ContractKernel(stream, trf, depth, shape, [&wpos, P = shape.lanes](size_t k, int32_t *pos) {
        std::copy(wpos.begin() + long(k * P), wpos.begin() + long((k + 1) * P), pos);
      }) {
  assert(wpos.size() == shape.rows * shape.times * shape.lanes);
}

ContractKernel::ContractKernel(num::DType stream, num::DType trf, unsigned depth, ContractShape shape,
                               const std::function<void(size_t, int32_t *)> &positions, const ContractSource &source)
    : d_(stream), trf_(trf), depth_(depth), shape_(shape) {
  const size_t P = shape_.lanes, L = shape_.treeLanes, packets = shape_.rows * shape_.times;
  assert(P <= L);
  wid_.resize(packets);
  xid_.resize(packets);
  RowIds<int32_t> ids(P);
  std::vector<int32_t> pos(P);
  const std::vector<uint32_t> *cls = source.timeClass;
  assert(!cls || cls->size() == shape_.times);
  size_t classes = 0;
  if (cls)
    for (uint32_t c : *cls) classes = std::max<size_t>(classes, size_t(c) + 1);
  std::vector<int64_t> known(cls ? shape_.rows * classes : 0, -1);  // (Row, class) -> weight packet
  for (size_t k = 0; k < packets; ++k) {
    xid_[k] = uint32_t(k % shape_.times);
    if (cls) {
      int64_t &w = known[(k / shape_.times) * classes + (*cls)[k % shape_.times]];
      if (w >= 0) {
        wid_[k] = uint32_t(w);
        continue;
      }
    }
    positions(k, pos.data());
    auto [id, fresh] = ids.insert(pos.data());
    if (fresh) {
      uniq_.insert(uniq_.end(), pos.begin(), pos.end());
      uniq_.insert(uniq_.end(), L - P, -1);
    }
    wid_[k] = id;
    if (cls) known[(k / shape_.times) * classes + (*cls)[k % shape_.times]] = id;
  }
  size_t xs = shape_.times;
  if (const std::vector<int32_t> *streamPos = source.streamPos) {  // the stream read from DM: equal stream packets (the same DM positions) staged once
    assert(d_ == num::DType::bf16 && streamPos->size() == shape_.times * P);
    RowIds<int32_t> xids(P);
    std::vector<uint32_t> of(shape_.times);
    for (size_t t = 0; t < shape_.times; ++t) of[t] = xids.insert(streamPos->data() + t * P).first;
    xpos_ = xids.rows();
    for (uint32_t &x : xid_) x = of[x];
    xs = xpos_.size() / P;
    xbase_.assign(xs, -1);
    for (size_t u = 0; u < xs && P == L && L <= kMaxLanes; ++u) {
      const int32_t *pos = &xpos_[u * P];
      bool run = pos[0] >= 0;
      for (size_t p = 1; p < P && run; ++p) run = pos[p] == pos[0] + int32_t(p);
      if (run) xbase_[u] = pos[0];
    }
    xSpans_ = spansOf<Span>(xbase_, L);
  }
  if (d_ == num::DType::bf16) {
    tiles_ = TilePlan::of(xid_, xs, wid_, uniq_.size() / L);
    restSlot_ = tiles_.rest;
  }
  wbase_.assign(uniq_.size() / L, -1);
  for (size_t u = 0; u < wbase_.size() && L <= kMaxLanes; ++u) {  // packets of L consecutive TRF positions
    const int32_t *pos = &uniq_[u * L];
    bool run = pos[0] >= 0;
    for (size_t p = 1; p < L && run; ++p) run = pos[p] == pos[0] + int32_t(p);
    if (run) wbase_[u] = pos[0];
  }
  wSpans_ = spansOf<Span>(wbase_, L);
  if (!xpos_.empty()) {  // the stream packets the per-packet rest reads
    std::vector<uint8_t> used(xs, 0);
    for (uint32_t u : tiles_.restX) used[u] = 1;
    for (size_t u = 0; u < xs; ++u)
      if (used[u]) xRest_.push_back(uint32_t(u));
  }
}

std::vector<uint32_t> ContractKernel::outputsInTaskOrder() {
  if (d_ != num::DType::bf16 || tiles_.tasks.empty()) return {};
  constexpr size_t V = num::kTileLanes;
  TilePlan &tp = tiles_;
  std::vector<uint32_t> slot(packets());
  for (size_t i = 0; i < tp.tasks.size(); ++i) {
    num::TileTask &t = tp.tasks[i];
    for (size_t v = 0; v < t.lanes; ++v) {  // (a partial tile's other lanes repeat its last packet)
      const size_t k = t.step != 0 ? size_t(t.out0) + v * size_t(t.step) : size_t(tp.outIdx[t.out0 + v]);
      slot[k] = uint32_t(i * V + v);
    }
    t.out0 = uint32_t(i * V);
    t.step = 1;
  }
  tp.outIdx.clear();
  for (size_t j = 0; j < tp.rest.size(); ++j) slot[tp.rest[j]] = restSlot_[j] = uint32_t(tp.tasks.size() * V + j);
  slots_ = tp.tasks.size() * V + tp.rest.size();
  return slot;
}

void ContractKernel::runReference(const std::vector<uint32_t> &cur, const uint8_t *trf, std::vector<uint32_t> &out) const {
  ElemCodec codec(trf_);
  std::vector<int32_t> wpos_;  // every lane's TRF position, as the step had it before the fast path
  for (size_t k = 0; k < wid_.size(); ++k)
    for (size_t p = 0; p < shape_.lanes; ++p) wpos_.push_back(uniq_[wid_[k] * shape_.treeLanes + p]);
  const unsigned depth = depth_;
  if (d_ == num::DType::bf16)
    contractPackets<uint16_t, float>(cur, trf, codec, wpos_, shape_, out, [&](auto *x, auto *w, size_t n, auto *red) {
      num::ref::reduceTreeBf16(x, w, n, depth, red);
    });
  else if (d_ == num::DType::i8)
    contractPackets<int8_t, int32_t>(cur, trf, codec, wpos_, shape_, out, [&](auto *x, auto *w, size_t n, auto *red) {
      num::ref::reduceTreeI8(x, w, n, depth, red);
    });
  else
    contractPackets<uint32_t, uint32_t>(cur, trf, codec, wpos_, shape_, out, [&](auto *x, auto *w, size_t n, auto *red) {
      reduceTreeGeneric(d_, x, w, n, shape_.treeLanes, depth, red);
    });
}

namespace {

// i8 and the scalar types: packets materialized a block at a time into L1-sized buffers, then the
// same tree kernel as the reference.
template <class Lane, class Sum, class Reduce>
void runBlocks(const uint32_t *xs, const uint32_t *ws, const uint32_t *xid, const uint32_t *wid, const ContractShape &c,
               Scratch &s, std::vector<uint32_t> &out, Reduce reduce) {
  constexpr size_t kBlock = 64;
  const size_t L = c.treeLanes, packets = c.rows * c.times;
  s.bx.resize(kBlock * L * sizeof(Lane));
  s.bw.resize(kBlock * L * sizeof(Lane));
  s.red.resize(kBlock * c.sums);
  Lane *bx = reinterpret_cast<Lane *>(s.bx.data()), *bw = reinterpret_cast<Lane *>(s.bw.data());
  Sum *red = reinterpret_cast<Sum *>(s.red.data());
  static_assert(sizeof(Sum) == sizeof(uint32_t));
  for (size_t k0 = 0; k0 < packets; k0 += kBlock) {
    const size_t n = std::min(kBlock, packets - k0);
    for (size_t k = 0; k < n; ++k)
      for (size_t p = 0; p < L; ++p) {
        bx[k * L + p] = Lane(xs[size_t(xid[k0 + k]) * L + p]);
        bw[k * L + p] = Lane(ws[size_t(wid[k0 + k]) * L + p]);
      }
    reduce(bx, bw, n, red);
    for (size_t k = 0; k < n; ++k)
      for (size_t q = 0; q < c.outLanes; ++q) out[(k0 + k) * c.outLanes + q] = bitsOf(red[k * c.sums + q]);
  }
}

}  // namespace

// The bf16 step on staged stream packets (s.x; ex: their smallest biased exponent): weights staged,
// tiles transposed, the blocked tree, then the packets in no task. No subnormal can arise when every
// nonzero product and sum is a multiple of g = 2^(ex + ew - 254 - 14) >= 2^-126 (ex, ew: the smallest
// biased exponents of the two sides; an 8-bit significand times 2^(e - 127 - 7)), since f32 rounding
// keeps multiples of g.
void ContractKernel::runBf16(ContractScratch &s, const uint8_t *trf, unsigned ex, std::vector<uint32_t> &out,
                             bool tilesStaged) const {
  const ContractShape &c = shape_;
  const size_t L = c.treeLanes, U = uniq_.size() / L;
  out.resize(std::max(slots_, c.rows * c.times) * c.outLanes);
  ElemCodec codec(trf_);
  unsigned ew = 0xFF;
  s.w.resize(U * L);
  uint32_t *ws = s.w.data();
  const int32_t *wpos = uniq_.data();
  if (codec.bits == 16) {  // bf16 weights: spans of consecutive packets at once, else 16-bit loads
    std::vector<uint8_t> staged(U, 0);
    widenSpans(trf, wSpans_, L, ws, staged, ew);
    for (size_t u = 0; u < U; ++u) {
      if (staged[u]) continue;
      uint16_t h[kMaxLanes];
      if (const int32_t base = wbase_[u]; base >= 0) {
        std::memcpy(h, trf + 2 * size_t(base), L * sizeof(uint16_t));
      } else {
        for (size_t p = 0; p < L; ++p) {
          h[p] = 0;
          if (wpos[u * L + p] >= 0) std::memcpy(&h[p], trf + 2 * size_t(wpos[u * L + p]), 2);
        }
      }
      unsigned e = ew;
      for (size_t p = 0; p < L; ++p) {
        uint32_t f = widenBf16(h[p]);
        noteExponent(f, e);
        ws[u * L + p] = f;
      }
      ew = e;
    }
  } else {
    for (size_t i = 0; i < U * L; ++i) {
      uint32_t f = wpos[i] >= 0 ? widenBf16(codec.load(trf, uint64_t(wpos[i]))) : 0;
      noteExponent(f, ew);
      ws[i] = f;
    }
  }
  bool noSubnormals = ex == 0xFF || ew == 0xFF || ex + ew >= 254 + 14 - 126;
  // The blocked tasks: each tile's packets transposed once per slice, then the tree over tiles.
  const TilePlan &tp = tiles_;
  const float *xf = reinterpret_cast<const float *>(s.x.data()), *wf = reinterpret_cast<const float *>(s.w.data());
  const float *side = tp.weightTiles ? wf : xf, *bcast = tp.weightTiles ? xf : wf;
  constexpr size_t V = num::kTileLanes;
  if (!tilesStaged) s.tiles.resize(tp.tileIds.size() * L);
  for (size_t t = 0; t < tp.tiles() && !tilesStaged; ++t) {
    float *tile = s.tiles.data() + t * L * V;
    for (size_t v = 0; v < V; ++v) {
      const float *src = side + size_t(tp.tileIds[t * V + v]) * L;
      for (size_t j = 0; j < L; ++j) tile[j * V + v] = src[j];
    }
  }
  float *of = reinterpret_cast<float *>(out.data());
  num::reduceTreeF32Tiles(s.tiles.data(), bcast, tp.tasks.data(), tp.tasks.size(), tp.outIdx.data(), depth_, c.outLanes,
                          noSubnormals, of);
  if (tp.rest.empty()) return;
  s.red.resize(tp.rest.size() * c.sums);
  num::reduceTreeF32Packets(xf, tp.restX.data(), wf, tp.restW.data(), tp.rest.size(), depth_, noSubnormals,
                            reinterpret_cast<float *>(s.red.data()));
  for (size_t i = 0; i < tp.rest.size(); ++i)
    for (size_t q = 0; q < c.outLanes; ++q) out[size_t(restSlot_[i]) * c.outLanes + q] = s.red[i * c.sums + q];
}

// Stream packet u of a folded fetch, widened, lane p written at to[p * stride].
void ContractKernel::stagePacket(const uint8_t *dm, size_t u, uint32_t *to, size_t stride, unsigned &ex) const {
  const size_t P = shape_.lanes, L = shape_.treeLanes;
  uint16_t h[kMaxLanes];
  if (int32_t base = xbase_[u]; base >= 0) {  // a whole packet of consecutive DM elements
    std::memcpy(h, dm + 2 * size_t(base), L * sizeof(uint16_t));
  } else {
    const int32_t *pos = &xpos_[u * P];
    for (size_t p = 0; p < L; ++p) h[p] = 0;
    for (size_t p = 0; p < P; ++p)
      if (pos[p] >= 0) std::memcpy(&h[p], dm + 2 * size_t(pos[p]), 2);
  }
  unsigned e = ex;
  if (stride == 1) {  // contiguous (vectorizes)
    for (size_t p = 0; p < L; ++p) {
      uint32_t f = widenBf16(h[p]);
      noteExponent(f, e);
      to[p] = f;
    }
  } else {
    for (size_t p = 0; p < L; ++p) {
      uint32_t f = widenBf16(h[p]);
      noteExponent(f, e);
      to[p * stride] = f;
    }
  }
  ex = e;
}

void ContractKernel::runFromDm(const uint8_t *dm, const uint8_t *trf, std::vector<uint32_t> &out) const {
  assert(!xpos_.empty() || shape_.times == 0);
  const size_t P = shape_.lanes, L = shape_.treeLanes, X = xpos_.size() / std::max<size_t>(P, 1);
  Scratch &s = scratch();
  s.x.resize(X * L);
  unsigned ex = 0xFF;
  uint32_t *xs = s.x.data();
  if (tiles_.weightTiles) {
    std::vector<uint8_t> staged(X, 0);
    widenSpans(dm, xSpans_, L, xs, staged, ex);
    for (size_t u = 0; u < X; ++u)
      if (!staged[u]) stagePacket(dm, u, xs + u * L, 1, ex);
    runBf16(s, trf, ex, out, false);
    return;
  }
  // Tiles of stream packets: each written straight into its tile (no staged copy to transpose); only
  // the packets the rest reads are staged as packets too.
  constexpr size_t V = num::kTileLanes;
  s.tiles.resize(tiles_.tileIds.size() * L);
  uint32_t *tiles = reinterpret_cast<uint32_t *>(s.tiles.data());
  for (size_t t = 0; t < tiles_.tiles(); ++t)
    for (size_t v = 0; v < V; ++v) stagePacket(dm, tiles_.tileIds[t * V + v], tiles + t * L * V + v, V, ex);
  for (uint32_t u : xRest_) stagePacket(dm, u, xs + size_t(u) * L, 1, ex);
  runBf16(s, trf, ex, out, true);
}

void ContractKernel::run(const std::vector<uint32_t> &cur, const uint8_t *trf, std::vector<uint32_t> &out) const {
  assert(xpos_.empty());
  const ContractShape &c = shape_;
  const size_t P = c.lanes, L = c.treeLanes, T = c.times, U = uniq_.size() / L, packets = c.rows * T;
  Scratch &s = scratch();
  s.x.resize(T * L);
  ElemCodec codec(trf_);
  if (d_ == num::DType::bf16) {
    unsigned ex = 0xFF;
    uint32_t *xs = s.x.data();
    const uint32_t *in = cur.data();
    if (P == L) {
      for (size_t i = 0; i < T * L; ++i) {
        uint32_t f = widenBf16(in[i]);
        noteExponent(f, ex);
        xs[i] = f;
      }
    } else {
      for (size_t t = 0; t < T; ++t)
        for (size_t p = 0; p < L; ++p) {
          uint32_t f = p < P ? widenBf16(in[t * P + p]) : 0;
          noteExponent(f, ex);
          xs[t * L + p] = f;
        }
    }
    runBf16(s, trf, ex, out, false);
    return;
  }
  s.w.resize(U * L);
  out.resize(packets * c.outLanes);
  for (size_t t = 0; t < T; ++t)
    for (size_t p = 0; p < L; ++p) s.x[t * L + p] = p < P ? cur[t * P + p] : 0;
  for (size_t i = 0; i < U * L; ++i) s.w[i] = uniq_[i] >= 0 ? codec.load(trf, uint64_t(uniq_[i])) : 0;
  const unsigned depth = depth_;
  if (d_ == num::DType::i8)
    runBlocks<int8_t, int32_t>(s.x.data(), s.w.data(), xid_.data(), wid_.data(), c, s, out,
                               [&](auto *x, auto *w, size_t n, auto *red) { num::reduceTreeI8(x, w, n, depth, red); });
  else
    runBlocks<uint32_t, uint32_t>(s.x.data(), s.w.data(), xid_.data(), wid_.data(), c, s, out,
                                  [&](auto *x, auto *w, size_t n, auto *red) {
                                    reduceTreeGeneric(d_, x, w, n, c.treeLanes, depth, red);
                                  });
}

}  // namespace tcp::interp
