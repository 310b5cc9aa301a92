// DeviceChainStream.cpp — chain ops that move a stream: begin, fetch (masking, table, adapter cast, zero points), relayouts, to_trf/to_vrf, commit.
#include "DeviceChain.h"
#include "StreamTables.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace tcp::interp {

namespace {

std::vector<MappingRef> streamMappings(const TensorType &t) { return {t.row, t.time, t.packet, t.element}; }

// Fetch Adapter cast (widening, zero point 0).
uint32_t fetchCast(num::DType from, num::DType to, uint32_t bits) {
  if (from == to) return bits;
  if (num::isInteger(from) && num::isInteger(to)) return uint32_t(num::fetchWidenInt(to, int32_t(bits)));
  if (num::isFloat(from) && num::isFloat(to)) return num::convertFloat(from, to, bits);
  throw DeviceError{std::string("the fetch adapter cannot cast ") + num::dtypeName(from) + " to " + num::dtypeName(to)};
}

// TRF region of a to_trf: byte offset within each Row and the bytes available.
std::pair<uint64_t, uint64_t> trfRegion(const std::string &arg) {
  if (arg.find("SecondHalf") != std::string::npos) return {kTrfRowBytes / 2, kTrfRowBytes / 2};
  if (arg.find("FirstHalf") != std::string::npos) return {0, kTrfRowBytes / 2};
  return {0, kTrfRowBytes};
}

}  // namespace

ChainBuilder::ChainBuilder(DeviceImpl &device, Placements &placed, const std::vector<const TypedOp *> &ops)
    : dev_(device), placed_(placed), full_([&] {
        std::vector<MappingRef> all;
        for (const TypedOp *op : ops) {
          for (auto &m : streamMappings(op->in)) all.push_back(m);
          for (auto &m : streamMappings(op->out)) all.push_back(m);
          for (const TensorType &t : op->operands)
            for (auto &m : streamMappings(t)) all.push_back(m);
        }
        return AxisSpace::of(all);
      }()),
      last_(ops.empty() ? nullptr : ops.back()) {
  assert(!ops.empty());
  for (const TypedOp *op : ops) {
    if (op->name == "commit" && op->address) writes.push_back({*op->address, *op->address + op->out.elementBytes()});
    onlyReadsDm &= op->name == "begin" || op->name == "fetch" || op->name == "collect" || op->name == "to_trf";
  }
}

// A read of a broadcast range stays on the owner's bytes unless the chain writes over it (a slice
// would then read bytes its owner's commit may already have replaced): then it is copied out first.
void ChainBuilder::readDm(int k, uint64_t address, uint64_t bytes) {
  const uint64_t lo = address, hi = address + bytes;
  bool written = false;
  for (const auto &[wlo, whi] : writes) written |= wlo < hi && lo < whi;
  dev_.unaliasDm(lo, hi, !written);
  reads[k] = {lo, hi};
}

std::string ChainBuilder::where(const TypedOp &op) const { return "line " + std::to_string(op.line) + ": " + op.name; }

StreamLayout ChainBuilder::layoutOf(const TensorType &t, bool withRow) const {
  StreamLayout l;
  l.type = t;
  l.rows = withRow && t.row ? t.row->size() : 1;
  l.times = t.time->size();
  l.lanes = t.packet->size();
  l.keys = streamKeys(t.time, t.packet, full_);
  if (withRow && t.row) l.keys = combineKeys(keyTable(t.row, full_), l.keys, full_);
  return l;
}

void ChainBuilder::add(const TypedOp &op) {
  const std::string &n = op.name;
  if (n == "begin") begin(op);
  else if (n == "fetch") fetch(op);
  else if (n == "collect") relayout(op.out);
  else if (n.rfind("vector_", 0) == 0) vector(op);
  else if (n == "switch") switchSlices(op);
  else if (n == "align") {
    if (op.operands.empty()) throw DeviceError{where(op) + ": align without a TRF tensor"};
    trf_ = op.operands[0];
    auto off = placed_.find(op.operandTensors.empty() ? -1 : op.operandTensors[0], placed_.trf, *trf_);
    if (!off) throw DeviceError{where(op) + ": no TRF tensor " + trf_->str() + " was loaded"};
    trfOffset_ = *off;
    alignStream(op);  // DeviceChainAlign.cpp: flits into packets, tiling axes repeated
  } else if (n == "contract") contract(op);
  else if (n == "accumulate") accumulate(op);
  else if (n == "cast") cast(op);
  else if (n == "transpose") transpose(op);
  else if (n == "to_trf") toTrf(op);
  else if (n == "to_vrf") toVrf(op);
  else if (n == "commit") commit(op);
  else throw DeviceError{where(op) + " is not supported by the CPU model"};
}

void ChainBuilder::begin(const TypedOp &op) {
  src_ = op.in;
  auto addr = op.address ? op.address : placed_.find(op.source, placed_.dm, op.in);
  if (!addr) throw DeviceError{where(op) + ": cannot locate the DM tensor " + op.in.str()};
  srcAddr_ = *addr;
  sliceType = op.out;
  dev_.reserveDm(src_.str(), srcAddr_, src_.elementBytes());
  readDm(0, srcAddr_, src_.elementBytes());
  if (!op.arg.empty()) {  // begin_interleaved: Time is the alternation axis, the operand the second tensor
    if (op.operands.empty()) throw DeviceError{where(op) + ": begin_interleaved without its second tensor"};
    auto addr2 = placed_.find(op.operandTensors.empty() ? -1 : op.operandTensors[0], placed_.dm, op.operands[0]);
    if (!addr2) throw DeviceError{where(op) + ": cannot locate the DM tensor " + op.operands[0].str()};
    interleave_ = op.out.time;
    srcAddr2_ = *addr2;
    dev_.reserveDm(op.operands[0].str(), srcAddr2_, op.operands[0].elementBytes());
    readDm(1, srcAddr2_, op.operands[0].elementBytes());
  }
}

void ChainBuilder::fetch(const TypedOp &op) {
  // Lanes gather through the DM tensor's Element mapping; stream axes absent from it broadcast.
  // An interleaved fetch reads the buffer (I, Element): I = 0 the first tensor, I = 1 the second.
  MappingRef buf = interleave_ ? Mapping::pair(interleave_, src_.element) : src_.element;
  std::vector<int64_t> pos = fetchGatherTable(buf, op.out.time, op.out.packet);
  stream_ = layoutOf(op.out, false);
  num::DType from = src_.dtype, to = op.out.dtype;
  // Adapter stages in the manual's order: masking, table indexing, type casting, zero point.
  // "Table Indexing": each valid lane's value indexes the launch's table; Type Casting then casts
  // the table's entries. Masked lanes keep pad_value 0 (they bypass the table).
  std::vector<uint32_t> table;
  num::DType tableIn = from;
  if (op.arg == "table") {
    const LookupTableData &t = launchTable(dev_, op);
    table = t.entries;
    tableIn = t.type.in;
    from = t.type.out;
  }
  fetchCast(from, to, 0);  // reports an unsupported cast now
  // Zero points: one for the stream, or one per interleaved tensor ("Zero-Point Subtraction").
  std::vector<int32_t> zp;
  if (op.arg == "zero_point" || op.arg == "zero_points") {
    if (op.zeroPoints.empty())
      throw DeviceError{where(op) + ": the CPU model needs constant zero points (`fetch_with_" + op.arg + "`)"};
    if (!num::isInteger(to)) throw DeviceError{where(op) + ": zero points need an integer stream"};
    for (int64_t z : op.zeroPoints) zp.push_back(int32_t(z));
  }
  const uint64_t elems = src_.element->size();
  const uint64_t addrs[2] = {srcAddr_, srcAddr2_};
  if (!interleave_ && table.empty() && zp.empty() && from == to) {
    fetchType_ = src_.dtype;
    fetchAt_ = steps.size();
    steps.emplace_back();
    plainFetch(narrowTable(pos));
    return;
  }
  steps.push_back([pos = std::move(pos), from, to, addrs = std::vector<uint64_t>(addrs, addrs + 2), elems, zp,
                   interleaved = bool(interleave_), codec = ElemCodec(src_.dtype), table = std::move(table),
                   tableIn](SliceRun &s) {
    s.replace(takeLanes(pos.size()));
    for (size_t i = 0; i < pos.size(); ++i) {
      if (pos[i] < 0) continue;  // a masked lane: pad_value 0
      size_t tensor = interleaved ? size_t(pos[i]) / elems : 0;
      uint32_t v = codec.load(s.dmRead(int(tensor)) + addrs[tensor], interleaved ? pos[i] % elems : pos[i]);
      if (!table.empty()) v = table[tableIndex(tableIn, v)];
      if (!zp.empty())
        v = uint32_t(num::fetchWidenInt(to, int32_t(v), zp[zp.size() == 1 ? 0 : tensor]));
      else if (from != to)
        v = fetchCast(from, to, v);
      s.cur[i] = v;
    }
  });
}

// The plain gather (no adapter stage): one load per lane, specialised by element width.
void ChainBuilder::plainFetch(std::vector<int32_t> pos) {
  fetchPos_ = pos;
  steps[*fetchAt_] = [pos = std::move(pos), addr = srcAddr_, codec = ElemCodec(fetchType_)](SliceRun &s) {
    const uint8_t *dm = s.dmRead(0) + addr;
    std::vector<uint32_t> out = takeLanes(pos.size());
    if (codec.bits == 16 && !codec.sext) {
      for (size_t i = 0; i < pos.size(); ++i)
        if (pos[i] >= 0) {
          uint16_t h;
          std::memcpy(&h, dm + 2 * size_t(pos[i]), 2);
          out[i] = h;
        }
    } else {
      for (size_t i = 0; i < pos.size(); ++i)
        if (pos[i] >= 0) out[i] = codec.load(dm, uint64_t(pos[i]));
    }
    s.replace(std::move(out));
  };
}

bool ChainBuilder::foldGather(const std::vector<int64_t> &src) {
  // Only straight after the fetch, with no Switch Engine exchange in between.
  if (!fetchAt_ || *fetchAt_ + 1 != steps.size()) return false;
  if (!switches.empty() && switches.back().at == steps.size()) return false;
  std::vector<int32_t> pos(src.size(), -1);
  for (size_t i = 0; i < src.size(); ++i)
    if (src[i] >= 0) pos[i] = fetchPos_[size_t(src[i])];
  plainFetch(std::move(pos));
  return true;
}

namespace {
std::vector<std::vector<uint32_t>> &lanePool() {
  thread_local std::vector<std::vector<uint32_t>> pool;
  return pool;
}
}  // namespace

std::vector<uint32_t> takeLanes(size_t n) {
  std::vector<std::vector<uint32_t>> &pool = lanePool();
  std::vector<uint32_t> v;
  if (!pool.empty()) {
    v = std::move(pool.back());
    pool.pop_back();
  }
  v.assign(n, 0);
  return v;
}

void giveLanes(std::vector<uint32_t> &&buffer) {
  std::vector<std::vector<uint32_t>> &pool = lanePool();
  if (buffer.capacity() == 0 || pool.size() >= 4) return;
  pool.push_back(std::move(buffer));
  pool.back().clear();
}

const uint8_t *SliceRun::dmRead(int k) const { return dmIn[k] ? dmIn[k] : mem->dmData(); }
const uint8_t *SliceRun::trfRead() const { return trfIn ? trfIn : mem->trfData(); }

void SliceRun::replace(std::vector<uint32_t> &&next) {
  giveLanes(std::move(cur));
  cur = std::move(next);
}

void ChainBuilder::relayout(const TensorType &to) {
  StreamLayout next = layoutOf(to, false);
  next.type = to;
  if (next.keys == stream_.keys) {
    stream_ = std::move(next);
    return;
  }
  KeyIndex from(stream_.keys);
  std::vector<int64_t> src = from.findAll(next.keys);
  // A split linear combination (`$(W + Fw) / 16`, `% 16`): a position's first decomposition may sum
  // out of range; any of its decompositions names the same element.
  MappingRef pair = Mapping::pair(to.time, to.packet);
  if (pair && pair->multiValued())
    for (size_t i = 0; i < src.size(); ++i)
      for (const Index &idx : src[i] < 0 ? pair->mapAll(i) : std::vector<Index>{})
        if ((src[i] = from.find(full_.key(idx))) >= 0) break;
  stream_ = std::move(next);
  if (foldGather(src)) return;
  steps.push_back([src = narrowTable(src)](SliceRun &s) {
    std::vector<uint32_t> out = takeLanes(src.size());
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] >= 0) out[i] = s.cur[src[i]];
    s.replace(std::move(out));
  });
}

void ChainBuilder::toTrf(const TypedOp &op) {
  const TensorType &t = op.out;
  auto [offset, bytes] = trfRegion(op.arg);
  if (t.row->size() > kTrfRows)
    throw DeviceError{where(op) + ": " + t.str() + " has " + std::to_string(t.row->size()) + " Rows, the TRF has " +
                      std::to_string(kTrfRows)};
  checkRange(t.str(), "TRF row", offset, num::storageBytes(t.dtype, t.element->size()), offset + bytes);
  KeyIndex from(stream_.keys);
  std::vector<int64_t> src = from.findAll(combineKeys(keyTable(t.row, full_), keyTable(t.element, full_), full_));
  size_t E = t.element->size();
  num::DType d = t.dtype;
  placed_.add(placed_.trf, op.result, t, offset);
  trfWrite = TrfSpan{offset, offset + num::storageBytes(d, E), t.row->size()};
  trfWriteWhole = std::all_of(src.begin(), src.end(), [](int64_t p) { return p >= 0; });
  if (&op == last_ && foldTrf(src, E, offset, d)) return;
  steps.push_back([src = narrowTable(src), E, offset = offset, codec = ElemCodec(d)](SliceRun &s) {
    uint8_t *trf = s.mem->trfData();
    const uint32_t *cur = s.cur.data();
    for (size_t row = 0, i = 0; i < src.size(); ++row) {
      uint8_t *base = trf + row * kTrfRowBytes + offset;
      const size_t n = std::min(E, src.size() - i);
      if (codec.bits == 16) {  // whole 16-bit elements: one store each (the bf16 weights of a GEMM)
        for (size_t e = 0; e < n; ++e)
          if (src[i + e] >= 0) {
            const uint16_t h = uint16_t(cur[src[i + e]]);
            std::memcpy(base + 2 * e, &h, 2);
          }
      } else {
        for (size_t e = 0; e < n; ++e)
          if (src[i + e] >= 0) codec.store(base, e, cur[src[i + e]]);
      }
      i += n;
    }
  });
}

bool ChainBuilder::foldTrf(const std::vector<int64_t> &src, size_t E, uint64_t offset, num::DType d) {
  // Straight after a plain fetch of whole-byte elements of the same type, with no Switch Engine exchange between.
  const unsigned bits = num::storageBits(d);
  if (!fetchAt_ || *fetchAt_ + 1 != steps.size() || fetchType_ != d || stream_.type.dtype != d || bits % 8 != 0) return false;
  if (!switches.empty() && switches.back().at == steps.size()) return false;
  // Byte runs (TRF byte, DM byte or -1 for zeros, bytes): element (row, e) takes the DM element the
  // fetch gave its lane; a lane the fetch left as padding writes 0; an element no lane holds is not written.
  struct Run {
    uint64_t trf;
    int64_t dm;
    uint64_t bytes;
  };
  std::vector<Run> runs;
  const uint64_t B = bits / 8;
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] < 0) continue;
    const uint64_t to = (i / E) * kTrfRowBytes + offset + (i % E) * B;
    const int32_t p = fetchPos_[size_t(src[i])];
    const int64_t from = p < 0 ? -1 : int64_t(p) * int64_t(B);
    Run *r = runs.empty() ? nullptr : &runs.back();
    if (r && r->trf + r->bytes == to && ((from < 0 && r->dm < 0) || (from >= 0 && r->dm >= 0 && r->dm + int64_t(r->bytes) == from)))
      r->bytes += B;
    else
      runs.push_back({to, from, B});
  }
  steps.pop_back();  // the fetch: the step reads DM itself
  fetchAt_.reset();
  steps.push_back([runs = std::move(runs), addr = srcAddr_](SliceRun &s) {
    uint8_t *trf = s.mem->trfData();
    const uint8_t *dm = s.dmRead(0) + addr;
    for (const Run &r : runs) {
      if (r.dm < 0) std::memset(trf + r.trf, 0, r.bytes);
      else std::memcpy(trf + r.trf, dm + r.dm, r.bytes);
    }
  });
  return true;
}

void ChainBuilder::toVrf(const TypedOp &op) {
  const TensorType &t = op.out;
  uint64_t addr = op.address.value_or(0);
  checkRange(t.str(), "VRF", addr, num::storageBytes(t.dtype, t.element->size()), kVrfBytes);
  KeyIndex from(stream_.keys);
  std::vector<int64_t> src = from.findAll(keyTable(t.element, full_));
  num::DType d = t.dtype;
  steps.push_back([src = std::move(src), addr, codec = ElemCodec(d)](SliceRun &s) {
    uint8_t *vrf = s.mem->vrfData() + addr;
    for (size_t i = 0; i < src.size(); ++i)
      if (src[i] >= 0) codec.store(vrf, i, s.cur[src[i]]);
  });
  placed_.add(placed_.vrf, op.result, t, addr);
}

void ChainBuilder::commit(const TypedOp &op) {
  const TensorType &t = op.out;
  if (!op.address) throw DeviceError{where(op) + ": commit without a DM address"};
  uint64_t addr = *op.address;
  dev_.reserveDm(t.str(), addr, t.elementBytes());
  dev_.unaliasDm(addr, addr + t.elementBytes());  // (it writes the elements, not the padding between)
  if (t.dtype != stream_.type.dtype)
    throw DeviceError{where(op) + ": commit of a " + num::dtypeName(stream_.type.dtype) + " stream into " + t.str()};
  // Each lane whose index the destination holds is written; padding and truncated lanes are not.
  std::vector<int64_t> pos = commitScatterTable(t.element, stream_.type.time, stream_.type.packet);
  num::DType d = t.dtype;
  steps.push_back([pos = std::move(pos), addr, codec = ElemCodec(d)](SliceRun &s) {
    uint8_t *dm = s.mem->dmData() + addr;
    for (size_t i = 0; i < pos.size(); ++i)
      if (pos[i] >= 0) codec.store(dm, pos[i], s.cur[i]);
  });
  placed_.add(placed_.dm, op.result, t, addr);
}

}  // namespace tcp::interp
