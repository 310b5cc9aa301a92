// EngineFields.h — every field of every engine configuration with its legal range, as one walk per struct.
//
// `visitFields(v, config)` names each field to a visitor `v` in record order. The binary writer and
// reader (binary/), the range check (checkEngineConfig), the layout table of docs/binary-format.md
// and the minimum record size all walk the same declarations, so the format, the validation and the
// documentation cannot drift apart. A visitor provides:
//   u(name, x, lo, hi)        an unsigned integer in [lo, hi]; on the wire the narrowest of
//                             u8/u16/u32/u64 that holds hi
//   s(name, x, lo, hi)        a signed integer in [lo, hi]; i8/i16/i32/i64 likewise
//   oneOf(name, x, {a, b})    an unsigned integer from a set; wire width as for u
//   e(name, x)                an enum (enumNames below); u8
//   flag(name, x)             a bool; u8 0 or 1
//   str(name, x)              a string: u32 length and bytes (no control bytes)
//   bitmap(name, x)           a SliceBitmap: u16 width (256), then 32 bytes, slice 0 the lowest bit
//   sub(name, fn)             a nested struct: fn() visits its fields under "name."
//   opt(name, x, fn)          a std::optional: a flag, then fn(value) when present
//   list(name, x, max, fn)    a std::vector: u32 count (at most max), then fn(element) for each
//   when(cond, present, fn)   fields that exist only when `present` (a value read before them)
// Field names are the manual's where it names the parameter (fetch_size, last_dim, commit_in_size);
// an empty name inside opt/list stands for the value itself.
//
// Visitors take non-const references; the writer, the checks and the layout never modify them.
#pragma once

#include "EngineConfig.h"

#include <climits>
#include <initializer_list>

namespace tcp {

// The spellings of an enum's values, indexed by value (the binary stores the index as a u8).
const std::vector<const char *> &enumNames(num::DType);
const std::vector<const char *> &enumNames(SwitchTopology);
const std::vector<const char *> &enumNames(TrfRegion);
const std::vector<const char *> &enumNames(ReduceOp);
const std::vector<const char *> &enumNames(ReducerResize);
const std::vector<const char *> &enumNames(AccumulationKind);
const std::vector<const char *> &enumNames(VeStage);
const std::vector<const char *> &enumNames(BranchMode);
const std::vector<const char *> &enumNames(LogicOp);
const std::vector<const char *> &enumNames(FxpOp);
const std::vector<const char *> &enumNames(FpOp);
const std::vector<const char *> &enumNames(ClipOp);
const std::vector<const char *> &enumNames(VeReduceOp);
const std::vector<const char *> &enumNames(VeOperandKind);
const std::vector<const char *> &enumNames(VeGroup);
const std::vector<const char *> &enumNames(NarrowKind);
const std::vector<const char *> &enumNames(WidenKind);
const std::vector<const char *> &enumNames(DmaMedia);
const std::vector<const char *> &enumNames(EngineKind);

// The wire width of a field: the narrowest of 1, 2, 4 or 8 bytes that holds every value of its range.
constexpr unsigned wireBytes(uint64_t hi) { return hi <= 0xff ? 1 : hi <= 0xffff ? 2 : hi <= 0xffffffffull ? 4 : 8; }
constexpr unsigned wireBytesSigned(int64_t lo, int64_t hi) {
  return lo >= INT8_MIN && hi <= INT8_MAX ? 1 : lo >= INT16_MIN && hi <= INT16_MAX ? 2 : lo >= INT32_MIN && hi <= INT32_MAX ? 4 : 8;
}
// Range texts for messages and the layout table: "1 to 65536", "1, 2, 4, 8, 16 or 32",
// "0 to 5: Forwarding, Broadcast01, Broadcast1, Transpose, InterTranspose, CustomBroadcast".
std::string rangeText(uint64_t lo, uint64_t hi);
std::string rangeTextSigned(int64_t lo, int64_t hi);
std::string setText(std::initializer_list<uint64_t> values);
std::string enumText(const std::vector<const char *> &names);

// The dotted path of the field a visitor is at: "masking.last_dim", "sequencer.entries[2].size".
class FieldPaths {
 protected:
  std::string prefix_;
  std::string path(const char *name) const {
    if (!*name) return prefix_;
    return prefix_.empty() ? std::string(name) : prefix_ + "." + name;
  }
  template <class F> void nested(std::string at, F fn) {
    std::swap(prefix_, at);
    fn();
    std::swap(prefix_, at);
  }
};

namespace limits {
constexpr uint64_t kTime = uint64_t(1) << 48;       // Time::SIZE and other step counts (the manual gives no bound)
constexpr uint64_t kBytes = uint64_t(1) << 40;      // byte counts of a tensor run
constexpr uint64_t kPacketBytes = 65536 * 4;        // a packet: at most 65536 elements (one sequencer entry) of 4 bytes
constexpr uint64_t kEntrySize = 65536;              // "Sequencer" > Configuration Failures: size <= 65,536 per entry
constexpr size_t kEntries = 8;                      // "Entry limit: Maximum 8 entries"
constexpr int64_t kSeqStride = INT32_MAX;           // sequencer strides and offsets (elements of a 512 KB DM slice)
constexpr int64_t kAddress = int64_t(1) << 62;      // DMA bases and strides (global HBM space, DM virtual space)
constexpr uint64_t kChips = 256;
}  // namespace limits

template <class V> void visitFields(V &v, SeqConfig &s) {
  v.list("entries", s.entries, limits::kEntries, [&](SeqEntry &e) {
    v.u("size", e.size, 1, limits::kEntrySize);
    v.s("stride", e.stride, -limits::kSeqStride, limits::kSeqStride);
    v.flag("packet", e.packet);
    v.str("term", e.term);
  });
  v.u("packet_size", s.packetSize, 1, limits::kEntrySize);
  v.s("base_offset", s.baseOffset, -limits::kSeqStride, limits::kSeqStride);
}

template <class V> void visitFields(V &v, FetchConfig &f) {
  v.opt("dm_address", f.dmAddress, [&](uint64_t &a) { v.u("", a, 0, kDmBytesPerSlice - 1); });
  v.sub("sequencer", [&] { visitFields(v, f.sequencer); });
  v.u("time_size", f.timeSize, 1, limits::kTime);
  v.e("in_type", f.inType);
  v.e("out_type", f.outType);
  v.opt("interleave", f.interleave, [&](FetchInterleave &x) {
    v.str("axis", x.axis);
    v.opt("lhs", x.lhs, [&](uint64_t &a) { v.u("", a, 0, kDmBytesPerSlice - 1); });
    v.opt("rhs", x.rhs, [&](uint64_t &a) { v.u("", a, 0, kDmBytesPerSlice - 1); });
  });
  v.opt("masking", f.masking, [&](FetchMasking &m) {
    v.flag("per_index", m.perIndex);
    v.u("last_dim_rightmost_valid_count_dim", m.countDim, 0, limits::kEntries - 1);
    v.u("last_dim", m.lastDim, 0, limits::kEntries - 1);
    v.u("left_pad", m.leftPad, 0, limits::kEntrySize);  // lanes of one packet
    v.list("last_dim_rightmost_valid_count", m.validCounts, 8, [&](uint64_t &c) { v.u("", c, 0, limits::kEntrySize); });
  });
  v.opt("table", f.table, [&](FetchTable &t) {
    v.e("index_type", t.type.in);
    v.e("value_type", t.type.out);
    v.str("param", t.param);
  });
  v.opt("zero_points", f.zeroPoints, [&](FetchZeroPoints &z) {
    v.flag("per_tensor", z.perTensor);
    v.list("values", z.values, 2, [&](int64_t &x) { v.s("", x, INT32_MIN, INT32_MAX); });
  });
  v.u("packet_bytes", f.packetBytes, 1, limits::kPacketBytes);
  v.u("contiguous_sram_access_size", f.contiguousBytes, 0, limits::kBytes);
  v.oneOf("fetch_size", f.fetchSize, {1, 2, 4, 8, 16, 32});
}

template <class V> void visitFields(V &v, SwitchEngineConfig &c) {
  v.e("topology", c.topology);
  v.u("slice2", c.slice2, 0, kSlicesPerCluster);
  v.u("slice1", c.slice1, 0, kSlicesPerCluster);
  v.u("slice0", c.slice0, 0, kSlicesPerCluster);
  v.u("time2", c.time2, 0, limits::kTime);
  v.u("time1", c.time1, 0, limits::kTime);
  v.u("time0", c.time0, 0, limits::kTime);
  v.oneOf("ring_size", c.ringSize, {1, 2, 4, 8, 16, 32, 64, 128, 256});
  v.u("input_time", c.inputTime, 1, limits::kTime);
  v.u("input_packet_bytes", c.inputPacketBytes, 1, limits::kPacketBytes);
  v.list("snoop", c.snoop, kSlicesPerCluster, [&](SliceBitmap &b) { v.bitmap("", b); });
}

template <class V> void visitFields(V &v, CollectConfig &c) {
  v.u("input_packet_bytes", c.inputPacketBytes, 1, limits::kPacketBytes);
}

template <class V> void visitFields(V &v, TrfLoadConfig &c) {
  v.e("region", c.region);
  v.oneOf("rows", c.rows, {1, 2, 4, 8});
  v.e("dtype", c.dtype);
  v.u("elements", c.elements, 1, 16384);  // 64 i4 per 320-bit line × 256 lines
}

template <class V> void visitFields(V &v, VrfLoadConfig &c) {
  v.u("vrf_address", c.vrfAddress, 0, kVrfBytesPerSlice - 1);
  v.u("bytes", c.bytes, 1, kVrfBytesPerSlice);
}

template <class V> void visitFields(V &v, AlignerConfig &c) {
  v.u("collect_flits", c.collectFlits, 1, 3);
  v.opt("shift", c.shift, [&](AlignerShift &s) {
    v.u("shift_count", s.count, 1, 255);
    v.u("shift_stride", s.stride, 1, 255);
    v.str("shift_axes", s.axes);
  });
  v.oneOf("rows", c.rows, {1, 2, 4, 8});
  v.list("time_broadcast", c.timeBroadcast, 64, [&](std::string &t) { v.str("", t); });
  v.opt("trf_sequencer", c.trf, [&](SeqConfig &s) { visitFields(v, s); });
}

template <class V> void visitFields(V &v, ReducerConfig &c) {
  v.e("input", c.input);
  v.e("output", c.output);
  v.e("reduce_op", c.op);
  v.u("spatial_depth", c.spatialDepth, 0, 7);
  v.u("input_lanes", c.inLanes, 1, 128);  // a 64-byte MAC packet of i4
  v.u("output_lanes", c.outLanes, 1, 128);
  v.e("resize", c.resize);
  v.oneOf("rows", c.rows, {1, 2, 4, 8});
  v.opt("mode", c.mode, [&](AccumulationKind &k) { v.e("", k); });
}

// The Vector Engine's program (VectorEngine.h): each step's record holds its stage, the stream's
// element type and the stage's own fields.
template <class V> void visitFields(V &v, VectorConfig &c) {
  v.list("steps", c.steps, 32, [&](VectorStep &s) {
    v.e("stage", s.stage);
    v.e("dtype", s.dtype);
    auto op = [&](auto tag) {  // the stage's op enum, stored as its index
      decltype(tag) e = decltype(tag)(s.op);
      v.e("op", e);
      s.op = uint8_t(e);
    };
    v.when("stage = intra_slice_branch", s.stage == VeStage::Branch, [&] {
      v.e("mode", s.branch);
      v.when("mode = AxisToggle", s.branch == BranchMode::AxisToggle, [&] { v.str("axis", s.axis); });
    });
    v.when("stage = logic", s.stage == VeStage::Logic, [&] { op(LogicOp{}); });
    v.when("stage = fxp", s.stage == VeStage::Fxp, [&] { op(FxpOp{}); });
    v.when("stage = fp", s.stage == VeStage::Fp, [&] { op(FpOp{}); });
    v.when("stage = clip", s.stage == VeStage::Clip, [&] { op(ClipOp{}); });
    v.when("stage = intra_slice_reduce or inter_slice_reduce",
           s.stage == VeStage::IntraReduce || s.stage == VeStage::InterReduce, [&] { op(VeReduceOp{}); });
    v.when("stage = narrow", s.stage == VeStage::Narrow, [&] { op(NarrowKind{}); });
    v.when("stage = widen", s.stage == VeStage::Widen, [&] { op(WidenKind{}); });
    bool alu = s.stage == VeStage::Logic || s.stage == VeStage::Fxp || s.stage == VeStage::Fp ||
               s.stage == VeStage::FpDiv || s.stage == VeStage::Clip;
    v.when("stage = logic, fxp, fp, fp_div or clip", alu, [&] {
      v.u("arg_mode", s.mode, 0, 6);
      v.flag("zip", s.zip);
      v.list("operands", s.operands, 4, [&](VeOperand &o) {
        v.e("kind", o.kind);
        v.e("group", o.group);
        v.when("kind = constant", o.kind == VeOperandKind::Constant,
               [&] { v.s("constant", o.constant, INT32_MIN, INT32_MAX); });
      });
    });
    v.when("stage = fxp_to_fp or fp_to_fxp", s.stage == VeStage::FxpToFp || s.stage == VeStage::FpToFxp,
           [&] { v.u("int_width", s.intWidth, 0, 32); });
    v.when("stage = intra_slice_reduce", s.stage == VeStage::IntraReduce, [&] {
      v.u("reduce_time", s.reduceTime, 1, limits::kTime);
      v.u("slots", s.slots, 1, kVeAccumulatorSlots);
      v.flag("reduce_packet", s.reducePacket);
    });
    v.when("stage = inter_slice_reduce", s.stage == VeStage::InterReduce,
           [&] { v.u("slices", s.reduceTime, 1, kVeSlicesPerCluster); });
  });
}

template <class V> void visitFields(V &v, CastConfig &c) {
  v.e("from", c.from);
  v.e("to", c.to);
  v.str("input_packet", c.inputPacket);
  v.str("packet", c.outputPacket);
  v.u("elements", c.elements, 1, 64);
  v.u("time_size", c.timeSize, 1, limits::kTime);
}

template <class V> void visitFields(V &v, TransposeConfig &c) {
  v.oneOf("element_bits", c.bits, {4, 8, 16, 32});
  v.u("in_rows", c.inRows, 1, 16);
  v.u("packets_per_col", c.packetsPerCol, 1, 4);
  v.oneOf("elements_per_packet", c.elementsPerPacket, {8, 16});
  v.u("out_rows", c.outRows, 1, 32);
  v.oneOf("output_alignment", c.outputAlignment, {8, 16, 32, 64});
  v.u("n", c.n, 1, limits::kTime);
  v.u("input_lanes", c.inLanes, 1, 64);  // a 32-byte packet
  v.u("output_lanes", c.outLanes, 1, 64);
}

template <class V> void visitFields(V &v, CommitConfig &c) {
  v.u("dm_address", c.dmAddress, 0, kDmBytesPerSlice - 1);
  v.sub("sequencer", [&] { visitFields(v, c.sequencer); });
  v.e("dtype", c.dtype);
  v.oneOf("commit_in_size", c.commitInSize, {8, 16, 24, 32});
  v.u("contiguous_sram_access_size", c.contiguousBytes, 0, limits::kBytes);
  v.oneOf("commit_size", c.commitSize, {8, 16, 24, 32});
  v.list("write_offsets", c.writeOffsets, 4, [&](uint64_t &o) { v.u("", o, 0, limits::kBytes); });
  v.opt("slice_bitmap", c.sliceBitmap, [&](SliceBitmap &b) { v.bitmap("", b); });
}

// A DmaSequencer: an engine's command holds at most 8 entries; the transfer's compact form (before
// the outer entries are peeled into one command per position) at most 64.
template <class V> void visitFields(V &v, DmaCommand &c, size_t maxEntries = limits::kEntries) {
  v.list("entries", c.entries, maxEntries, [&](DmaEntry &e) {
    v.u("limit", e.size, 1, limits::kEntrySize);
    v.s("source_stride", e.src, -limits::kAddress, limits::kAddress);
    v.s("dest_stride", e.dst, -limits::kAddress, limits::kAddress);
    v.str("term", e.term);
  });
  v.s("source_base", c.srcBase, -limits::kAddress, limits::kAddress);
  v.s("dest_base", c.dstBase, -limits::kAddress, limits::kAddress);
  v.u("stride0", c.stride0, 1, 4096);  // "<stride0: 1~4096>"
}

template <class V> void visitFields(V &v, DmaConfig &c) {
  v.e("source_media", c.src);
  v.e("dest_media", c.dst);
  v.oneOf("element_bits", c.elemBits, {4, 8, 16, 32});
  v.u("chips", c.chips, 1, limits::kChips);
  v.sub("command", [&] { visitFields(v, c.shared, 64); });
  v.opt("source_param", c.srcParam, [&](std::string &s) { v.str("", s); });
  v.list("engines", c.engines, 8, [&](DmaEngineWork &w) {  // "eight DMA Engines, one per pair of DMNs"
    v.u("cluster", w.cluster, 0, 1);
    v.u("dmn_pair", w.pair, 0, 3);
    v.list("commands", w.commands, 65536, [&](DmaCommand &cmd) { visitFields(v, cmd); });
  });
  v.list("chip_writes", c.chipWrites, limits::kChips * limits::kChips, [&](DmaChipWrite &w) {
    v.flag("used", w.used);
    v.u("source_chip", w.chip, 0, limits::kChips - 1);
    v.s("write_base", w.writeBase, -limits::kAddress, limits::kAddress);
    v.u("pcie_bytes", w.pcieBytes, 0, uint64_t(limits::kAddress));
    v.list("to_chips", w.toChips, limits::kChips, [&](uint64_t &k) { v.u("", k, 0, limits::kChips - 1); });
  });
}

// Visits the fields of whichever engine `e` holds.
template <class V> void visitEngineFields(V &v, EngineConfig &e) {
  std::visit([&](auto &c) { visitFields(v, c); }, e);
}

// A default configuration of engine kind `k` (the reader fills it).
EngineConfig makeEngineConfig(EngineKind k);

}  // namespace tcp
