// DeviceChainCompute.cpp — chain ops that compute: contraction (reducer tree), temporal accumulation, cast, vector_fxp.
#include "DeviceChain.h"

#include "DeviceContract.h"
#include "MappingFactor.h"
#include "NumericKernels.h"
#include "RowIds.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>

namespace tcp::interp {

namespace {

// "Cast Engine" > Precision Lowering only: i32 → i4/i8/i16 (wrapping), f32 → f8e5m2/f8e4m3/f16/bf16
// (canonical NaN, f8e4m3 saturating, f8 subnormals kept); Numerics.h states the rules.
uint32_t castEngine(num::DType from, num::DType to, uint32_t bits) {
  if (!num::castEngineSupported(from, to))
    throw DeviceError{std::string("the cast engine cannot cast ") + num::dtypeName(from) + " to " + num::dtypeName(to)};
  if (from == num::DType::i32) return uint32_t(num::castI32To(to, int32_t(bits)));
  return num::convertFloat(from, to, bits);
}

// num::addF32 on f32 bits without branches (the accumulator's inner loop): operands and sum canonical.
inline uint32_t canonBits(uint32_t u) {
  uint32_t m = u & 0x7FFFFFFFu;
  uint32_t flushed = m < 0x00800000u ? u & 0x80000000u : u;
  return m > 0x7F800000u ? num::kCanonicalNanF32 : flushed;
}
inline uint32_t addF32Bits(uint32_t a, uint32_t b) {
  return canonBits(num::f32Bits(num::f32FromBits(canonBits(a)) + num::f32FromBits(canonBits(b))));
}

// Keys of the Time positions with the reduced terms removed: a Time term is reduced when no term of
// the output (OutTime, OutPacket) covers any of its coordinates (`K / 16` against `K % 16 / 4`).
std::vector<int64_t> keptTimeKeys(const MappingRef &time, const std::vector<MappingRef> &outs, const AxisSpace &space) {
  Factorization f = factorization(time);
  std::vector<FactorTerm> outTerms;
  for (const MappingRef &m : outs)
    for (FactorTerm &u : factorize(m)) outTerms.push_back(std::move(u));
  std::vector<const FactorTerm *> reduced;
  for (const FactorTerm &t : f.terms) {
    if (t.kind != FactorTerm::Axis) continue;
    bool kept = false;
    for (const FactorTerm &u : outTerms) {  // coordinate strides [stride, stride * valid digits) intersect
      if (u.kind != FactorTerm::Axis || u.axis.name != t.axis.name) continue;
      uint64_t tLo = t.axisStride, tHi = t.axisStride * std::max<uint64_t>(t.valid(), 1);
      uint64_t uLo = u.axisStride, uHi = u.axisStride * std::max<uint64_t>(u.valid(), 1);
      kept |= std::max(tLo, uLo) < std::min(tHi, uHi);
    }
    if (!kept) reduced.push_back(&t);
  }
  // Axes every Time term of which is reduced (by base name: a padded `B'` carries B's coordinates).
  std::vector<std::string> gone;
  bool allGone = true, paddedGone = false;
  for (const FactorTerm *t : reduced) {
    paddedGone |= !t->axis.padBase.empty();
    bool whole = true;
    for (const FactorTerm &u : f.terms)
      if (u.kind == FactorTerm::Axis && u.axis.name == t->axis.name)
        whole &= std::find(reduced.begin(), reduced.end(), &u) != reduced.end();
    if (whole) {
      gone.push_back(t->axis.name);
      gone.push_back(t->axis.baseName());
    }
    allGone &= whole;
  }
  std::vector<int64_t> keys(time->size(), -1);
  for (uint64_t i = 0; i < time->size(); ++i) {
    uint64_t j = i;
    for (const FactorTerm *t : reduced) j -= ((i / t->bufStride) % t->count) * t->bufStride;
    if (time->map(i)) {
      if (auto idx = time->map(j)) keys[i] = space.key(*idx);
    }
    if (keys[i] < 0 && allGone && paddedGone) {
      // A padded axis reduced away (`B' / 32`): its left pad makes B' = 0 padding on its own, yet the
      // position holds elements with the Packet; key the kept axes only.
      std::optional<Index> raw = time->mapPartial(i);
      if (!raw) continue;
      for (const std::string &a : gone) raw->set(a, 0);
      keys[i] = space.key(*raw);
    }
  }
  return keys;
}

// The accumulator's register runs (num::accumulateRunsF32): kRunLanes destinations whose first
// arrivals come from consecutive sources and whose adds do too, round by round (the contraction's
// task order puts a task's outputs side by side, and the same task of the next time step beside
// again). Each run is `rounds` source bases and kRunLanes destinations; its destinations are marked
// in `taken`, for the other paths to skip.
struct AccRuns {
  std::vector<uint32_t> rounds;
  std::vector<int32_t> bases, dsts;
};
AccRuns registerRuns(const std::vector<std::pair<int32_t, int32_t>> &stores,
                     const std::vector<std::pair<int32_t, int32_t>> &adds, size_t N, size_t sources,
                     std::vector<uint8_t> &taken) {
  constexpr size_t W = num::kRunLanes;
  std::vector<int32_t> storeOf(N, -1), destOfStore(sources, -1);
  for (auto [from, to] : stores) {
    storeOf[size_t(to)] = from;
    if (size_t(from) < sources) destOfStore[size_t(from)] = to;
  }
  std::vector<size_t> first(N + 1, 0);  // each destination's add sources in time order
  for (auto m : adds) ++first[size_t(m.second) + 1];
  for (size_t d = 0; d < N; ++d) first[d + 1] += first[d];
  std::vector<int32_t> srcs(adds.size());
  {
    std::vector<size_t> at(first.begin(), first.end() - 1);
    for (auto m : adds) srcs[at[size_t(m.second)]++] = m.first;
  }
  AccRuns runs;
  int32_t run[W];
  for (size_t d = 0; d < N; ++d) {
    const int32_t s0 = storeOf[d];
    if (taken[d] || s0 < 0 || size_t(s0) + W > sources) continue;
    const size_t c = first[d + 1] - first[d];
    bool ok = true;
    for (size_t j = 0; j < W && ok; ++j) {
      const int32_t dj = j == 0 ? int32_t(d) : destOfStore[size_t(s0) + j];
      ok = dj >= 0 && !taken[size_t(dj)] && first[size_t(dj) + 1] - first[size_t(dj)] == c;
      for (size_t r = 0; r < c && ok; ++r) ok = srcs[first[size_t(dj)] + r] == srcs[first[d] + r] + int32_t(j);
      run[j] = dj;
    }
    if (!ok) continue;
    runs.rounds.push_back(uint32_t(c + 1));
    runs.bases.push_back(s0);
    runs.bases.insert(runs.bases.end(), srcs.begin() + long(first[d]), srcs.begin() + long(first[d + 1]));
    for (int32_t dj : run) {
      runs.dsts.push_back(dj);
      taken[size_t(dj)] = 1;
    }
  }
  return runs;
}

}  // namespace

void ChainBuilder::contract(const TypedOp &op) {
  using num::DType;
  DType d = stream_.type.dtype;
  if (!num::isReducerInput(d)) throw DeviceError{where(op) + ": the Reducer does not take " + num::dtypeName(d)};
  assert(trf_);
  unsigned D = num::reducerTreeDepth(d);
  size_t L = size_t(1) << D, P = stream_.lanes, T = stream_.times;
  unsigned depth = D;
  if (op.arg.rfind("depth ", 0) == 0) depth = unsigned(std::stoul(op.arg.substr(6)));
  size_t Q = op.out.packet->size(), sums = L >> depth;
  if (P > L || depth > D || Q > sums)
    throw DeviceError{where(op) + ": a packet of " + std::to_string(P) + " lanes reduced at depth " + std::to_string(depth) +
                      " into " + std::to_string(Q) + " lanes does not fit the " + std::to_string(L) + "-lane reducer"};
  const TensorType &in = op.in;
  size_t R = in.row->size();
  // Weight of lane (r, t, p): the TRF element at the lane's index plus Row r (projected onto the TRF's axes).
  const TensorType &trf = *trf_;
  AxisSpace space = AxisSpace::of({trf.row, trf.element});
  KeyIndex weights(combineKeys(keyTable(trf.row, space), keyTable(trf.element, space), space));
  std::vector<int64_t> rowK = keyTable(in.row, space), laneK = streamKeys(stream_.type.time, stream_.type.packet, space);
  const uint64_t shared = space.axesUsed(rowK) & space.axesUsed(laneK);  // axes a key sum can carry out of
  size_t E = trf.element->size(), rowElems = kTrfRowBytes * 8 / num::storageBits(trf.dtype);
  if (rowK.size() != R || laneK.size() != T * P)
    throw DeviceError{where(op) + ": the stream does not match the contraction's Row, Time and Packet"};
  // Packet (r, t), lane p: the key of Row r plus stream lane (t, p), looked up among the TRF's.
  auto positions = [&](size_t k, int32_t *pos) {
    const size_t r = k / T, t = k % T;
    for (size_t p = 0; p < P; ++p) {
      int64_t a = rowK[r], b = laneK[t * P + p];
      int64_t f = weights.find(shared == 0 ? (a < 0 || b < 0 ? -1 : a + b) : space.addOn(a, b, shared));
      pos[p] = f >= 0 ? int32_t((f / E) * rowElems + f % E) : -1;
    }
  };
  // A bf16 stream straight from a plain fetch (collect and align folded into its gather, no Switch
  // Engine exchange after it) is read from DM by the step itself: the fetch step goes away.
  const bool fromDm = d == DType::bf16 && fetchType_ == DType::bf16 && fetchAt_ && *fetchAt_ + 1 == steps.size() &&
                      (switches.empty() || switches.back().at != steps.size()) && fetchPos_.size() == T * P;
  if (fromDm) {
    steps.pop_back();
    fetchAt_.reset();
  }
  // Times whose lanes carry the same TRF keys (they differ only on axes the TRF lacks) have the same weights.
  std::vector<uint32_t> timeClass(T);
  {
    RowIds<int64_t> classes(P);
    for (size_t t = 0; t < T; ++t) timeClass[t] = classes.insert(laneK.data() + t * P).first;
  }
  ContractSource source{fromDm ? &fetchPos_ : nullptr, &timeClass};
  auto kernel = std::make_shared<ContractKernel>(d, trf.dtype, depth, ContractShape{R, T, P, L, Q, sums},
                                                       std::function<void(size_t, int32_t *)>(positions), source);
  uint64_t offset = trfOffset_, dmAddr = srcAddr_;
  trfRead = TrfSpan{offset, offset + num::storageBytes(trf.dtype, E), trf.row->size()};
  contract_ = kernel;
  contractAt_ = steps.size();
  steps.push_back([kernel, offset, fromDm, dmAddr](SliceRun &s) {
    const uint8_t *trf = s.trfRead() + offset;
    std::vector<uint32_t> out = takeLanes(0);
    if (fromDm) kernel->runFromDm(s.dmRead(0) + dmAddr, trf, out);
    else kernel->run(s.cur, trf, out);
    s.replace(std::move(out));
  });
  stream_ = layoutOf(op.out, true);
}

void ChainBuilder::accumulate(const TypedOp &op) {
  // Contraction outputs with the same index on the output's axes add up, in time order.
  const TensorType &in = stream_.type, &out = op.out;
  AxisSpace space = AxisSpace::of({out.time, out.packet});
  KeyIndex dst(streamKeys(out.time, out.packet, space));
  std::vector<int64_t> rowK = in.row ? keyTable(in.row, space) : std::vector<int64_t>{0};
  std::vector<int64_t> timeK = keptTimeKeys(in.time, {out.time, out.packet}, space), pktK = keyTable(in.packet, space);
  size_t R = rowK.size(), T = timeK.size(), Q = pktK.size();
  assert(R * T * Q == stream_.keys.size());
  // Straight after a contraction: its outputs in the order its blocked kernel stores them fastest
  // (task by task); the gathers below read them where they are.
  std::vector<uint32_t> slot;
  if (contract_ && contractAt_ + 1 == steps.size() && (switches.empty() || switches.back().at != steps.size()) &&
      contract_->packets() == R * T && contract_->outLanes() == Q)
    slot = contract_->outputsInTaskOrder();
  contract_.reset();
  auto source = [&](size_t r, size_t t, size_t q) {
    const size_t k = r * T + t;
    return int32_t((slot.empty() ? k : size_t(slot[k])) * Q + q);
  };
  // (source, destination) in time order; the first arrival at a destination stores (marked ~destination).
  std::vector<std::pair<int32_t, int32_t>> moves;
  size_t N = out.time->size() * out.packet->size();
  std::vector<uint8_t> seen(N, 0);
  for (size_t t = 0; t < T; ++t)
    for (size_t r = 0; r < R; ++r)
      for (size_t q = 0; q < Q; ++q) {
        if (rowK[r] < 0 || timeK[t] < 0 || pktK[q] < 0) continue;
        int64_t o = dst.find(rowK[r] + timeK[t] + pktK[q]);
        if (o < 0) continue;
        moves.emplace_back(source(r, t, q), seen[size_t(o)] ? int32_t(o) : ~int32_t(o));
        seen[size_t(o)] = 1;
      }
  // A destination's moves are its first arrival (a store) then adds in time order, and destinations
  // do not interact: every store first, then every add in order, gives the same sums.
  bool isFloat = num::isFloat(out.dtype);
  std::vector<std::pair<int32_t, int32_t>> stores, adds;
  for (auto [from, to] : moves) (to < 0 ? stores : adds).emplace_back(from, to < 0 ? ~to : to);
  AccRuns runs;
  if (isFloat) {
    std::vector<uint8_t> taken(N, 0);
    const size_t slots = slot.empty() ? R * T : size_t(*std::max_element(slot.begin(), slot.end())) + 1;
    runs = registerRuns(stores, adds, N, slots * Q, taken);
    auto rest = [&](std::vector<std::pair<int32_t, int32_t>> &v) {
      v.erase(std::remove_if(v.begin(), v.end(), [&](const auto &m) { return taken[size_t(m.second)] != 0; }), v.end());
    };
    rest(stores);
    rest(adds);
  }
  // Adds ordered by (block of 64 destinations, rank among its destination's adds, destination): each
  // destination's adds stay in time order, consecutive adds hit different destinations (no chain
  // through one accumulator) and a block's sources stay in L1. Built by counting, not sorting: each
  // destination's adds in time order (a stable bucketing), then block by block, rank by rank.
  std::vector<uint32_t> count(N, 0);
  for (auto m : adds) ++count[size_t(m.second)];
  {
    std::vector<size_t> first(N + 1, 0);
    for (size_t d = 0; d < N; ++d) first[d + 1] = first[d] + count[d];
    std::vector<std::pair<int32_t, int32_t>> byDest(adds.size());
    {
      std::vector<size_t> at(first.begin(), first.end() - 1);
      for (auto m : adds) byDest[at[size_t(m.second)]++] = m;
    }
    size_t k = 0;
    for (size_t base = 0; base < N; base += 64) {
      const size_t end = std::min(N, base + 64);
      const uint32_t rounds = *std::max_element(count.begin() + long(base), count.begin() + long(end));
      for (uint32_t r = 0; r < rounds; ++r)
        for (size_t d = base; d < end; ++d)
          if (r < count[d]) adds[k++] = byDest[first[d] + r];
    }
    assert(k == adds.size());
  }
  // Float blocks whose 64 destinations all take the same number c of adds run as c rounds of 64
  // gathered adds (the order above is exactly that: rank-major, destination-minor); the rest one by one.
  struct Dense {
    uint32_t base, rounds;
    size_t at;
  };
  std::vector<Dense> dense;
  std::vector<int32_t> gather;
  std::vector<std::pair<int32_t, int32_t>> single;
  {
    for (size_t i = 0; i < adds.size();) {
      size_t base = size_t(adds[i].second) & ~size_t(63), j = i;
      while (j < adds.size() && (size_t(adds[j].second) & ~size_t(63)) == base) ++j;
      bool uniform = isFloat && base + 64 <= N && count[base] > 0;
      for (size_t d = base; uniform && d < base + 64; ++d) uniform = count[d] == count[base];
      if (uniform) {
        dense.push_back({uint32_t(base), count[base], gather.size()});
        for (size_t k = i; k < j; ++k) {
          assert(size_t(adds[k].second) == base + (k - i) % 64);
          gather.push_back(adds[k].first);
        }
      } else {
        single.insert(single.end(), adds.begin() + long(i), adds.begin() + long(j));
      }
      i = j;
    }
  }
  steps.push_back([stores = std::move(stores), single = std::move(single), dense = std::move(dense),
                   gather = std::move(gather), runs = std::move(runs), N, isFloat](SliceRun &s) {
    std::vector<uint32_t> acc = takeLanes(N);
    const uint32_t *cur = s.cur.data();
    uint32_t *a = acc.data();
    const float *curF = reinterpret_cast<const float *>(cur);
    float *accF = reinterpret_cast<float *>(a);
    constexpr size_t W = num::kRunLanes, kBatch = 64;  // runs per call: of one round count, in order
    float sums[kBatch * W];
    for (size_t i = 0, at = 0; i < runs.rounds.size();) {
      size_t n = 1;
      while (n < kBatch && i + n < runs.rounds.size() && runs.rounds[i + n] == runs.rounds[i]) ++n;
      num::accumulateRunsF32(curF, runs.bases.data() + at, runs.rounds[i], n, sums);
      for (size_t j = 0; j < n * W; ++j) std::memcpy(&a[runs.dsts[i * W + j]], &sums[j], 4);
      at += n * runs.rounds[i];
      i += n;
    }
    for (auto [from, to] : stores) a[to] = cur[from];
    for (const Dense &d : dense)
      for (uint32_t r = 0; r < d.rounds; ++r) num::addGatherF32(accF + d.base, curF, gather.data() + d.at + size_t(r) * 64, 64);
    if (isFloat) {
      for (auto [from, to] : single) a[to] = addF32Bits(a[to], cur[from]);
    } else {
      for (auto [from, to] : single) a[to] = a[to] + cur[from];  // wrapping i32 addition
    }
    s.replace(std::move(acc));
  });
  stream_ = layoutOf(out, false);
}

void ChainBuilder::cast(const TypedOp &op) {
  num::DType from = stream_.type.dtype, to = op.out.dtype;
  castEngine(from, to, 0);  // reports an unsupported cast now
  steps.push_back([from, to](SliceRun &s) {
      for (uint32_t &v : s.cur) v = castEngine(from, to, v);
    });
  relayout(op.out);
}

}  // namespace tcp::interp
