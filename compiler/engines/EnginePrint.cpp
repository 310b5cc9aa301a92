// EnginePrint.cpp — prints the Tensor Unit engines' configurations in the --emit=config form (DMA: DmaConfigPrint.cpp).
#include "EnginePrint.h"

#include <cstdio>
#include <cstring>

#include "EngineFields.h"

namespace tcp {

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;
std::string dec(uint64_t v) { return std::to_string(v); }

template <class T> std::string list(const std::vector<T> &v) {
  std::string s;
  for (const T &x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return "[" + s + "]";
}

std::string typeName(num::DType d) { return num::dtypeName(d); }

void fetchFields(const FetchConfig &f, Fields &out) {
  if (f.dmAddress) out.push_back({"dm_address", dec(*f.dmAddress)});
  // Type Casting of the fetched values; with a table, it casts the table's entries (below).
  if (!f.table && f.inType != f.outType) out.push_back({"cast", typeName(f.inType) + " -> " + typeName(f.outType)});
  if (const auto &i = f.interleave) {
    const std::string unknown = "unknown (parameters)";
    out.push_back({"interleave", i->axis + " (2 tensors: lhs at " + (i->lhs ? dec(*i->lhs) : unknown) + ", rhs at " +
                                     (i->rhs ? dec(*i->rhs) : unknown) + ")"});
  }
  if (const auto &m = f.masking) {
    if (m->perIndex) {
      out.push_back({"last_dim_rightmost_valid_count_dim", dec(m->countDim)});
      out.push_back({"last_dim", dec(m->lastDim)});
      out.push_back({"last_dim_rightmost_valid_count[0.." + dec(m->validCounts.size()) + "]", list(m->validCounts)});
    } else {
      out.push_back({"last_dim", dec(m->lastDim)});
      out.push_back({"left_pad", dec(m->leftPad)});
      out.push_back({"last_dim_rightmost_valid_count[0]", dec(m->validCounts.empty() ? 0 : m->validCounts[0])});
    }
    out.push_back({"pad_value", "0"});
  }
  if (const auto &t = f.table) {
    out.push_back({"table_indexing", t->type.str() + " (parameter `" + t->param + "`)"});
    out.push_back({"table_entries", dec(tableEntries(t->type.in)) + " (one per " + typeName(t->type.in) +
                                        " value; loaded at launch)"});
    if (t->type.out != f.outType) out.push_back({"cast", typeName(t->type.out) + " -> " + typeName(f.outType)});
  }
  if (const auto &z = f.zeroPoints) {
    std::string v;
    for (int32_t x : z->values) v += (v.empty() ? "" : ", ") + std::to_string(x);
    if (z->values.empty()) v = "runtime";
    else if (z->perTensor) v = "[" + v + "]";
    out.push_back({z->perTensor ? "zero_points" : "zero_point", v});
  }
  out.push_back({"packet_bytes", dec(f.packetBytes)});
  out.push_back({"contiguous_sram_access_size", dec(f.contiguousBytes)});
  out.push_back({"fetch_size", dec(f.fetchSize)});
  out.push_back({"fetches_per_packet", dec(f.fetchesPerPacket())});
  out.push_back({"cycles", dec(f.cycles())});
}

void switchFields(const SwitchEngineConfig &c, Fields &out) {
  out.push_back({"topology", topologyName(c.topology)});
  for (const char *p : switchParamNames(c.topology)) out.push_back({p, dec(c.param(p))});
  if (c.topology != SwitchTopology::CustomBroadcast) out.push_back({"ring_size", dec(c.ringSize)});
  out.push_back({"input_time", dec(c.inputTime)});
  out.push_back({"cycles_per_packet", dec(c.cyclesPerPacket())});
  out.push_back({"cycles", dec(c.cycles())});
  if (c.topology == SwitchTopology::InterTranspose)
    out.push_back({"time_select", "slice o takes the input time steps whose time1 digit is o's"});
  std::vector<std::vector<uint32_t>> bitmaps(c.snoop.size());
  for (size_t o = 0; o < c.snoop.size(); ++o)
    for (uint32_t s = 0; s < kSlicesPerCluster; ++s)
      if (c.snoop[o][s]) bitmaps[o].push_back(s);
  for (auto &line : bitmapLines(bitmaps, c.ringSize)) out.push_back(std::move(line));
}

void trfLoadFields(const TrfLoadConfig &c, Fields &out) {
  out.push_back({"region", enumNames(c.region)[size_t(c.region)]});
  // "FirstHalf uses the lower 64 rows (rows 0–63) and SecondHalf uses the upper 64 rows (rows 64–127)".
  out.push_back({"rows_in_bank", c.region == TrfRegion::SecondHalf ? "64..127" : c.region == TrfRegion::FirstHalf ? "0..63" : "0..127"});
  out.push_back({"rows", dec(c.rows)});
  out.push_back({"reg_types", std::to_string(c.regType())});
  out.push_back({"elements_per_row", dec(c.elements) + " of " + dec(c.capacity())});
  out.push_back({"bytes_per_row", dec(c.bytesPerRow())});
}

void alignerFields(const AlignerConfig &c, Fields &out) {
  out.push_back({"collect_flits", dec(c.collectFlits)});
  if (c.shift) {
    out.push_back({"shift_count", dec(c.shift->count)});
    out.push_back({"shift_stride", dec(c.shift->stride)});
    out.push_back({"shift_axes", "[" + c.shift->axes + "]"});
  }
  out.push_back({"rows", dec(c.rows)});
  std::string tiling;
  for (const std::string &t : c.timeBroadcast) tiling += (tiling.empty() ? "" : ", ") + t;
  out.push_back({"time_broadcast", "[" + tiling + "]"});
  if (!c.trf) return;
  out.push_back({"reg_read_size", dec(c.regReadSize())});
  out.push_back({"packet_broadcast", dec(c.packetBroadcast())});
  // The manual numbers entries from the inner loop outwards: "Entry 0: { size: 2, stride: 1024 }".
  const auto &e = c.trf->entries;
  std::string entries;
  for (size_t k = e.size(), i = 0; k-- > 0; ++i)
    entries += std::string(entries.empty() ? "" : ", ") + "Entry " + dec(i) + ": { size: " + dec(e[k].size) +
               ", stride: " + std::to_string(e[k].stride) + " }";
  out.push_back({"entries", entries.empty() ? "none" : entries});
}

void reducerFields(const ReducerConfig &c, Fields &out) {
  out.push_back({"input", typeName(c.input)});
  out.push_back({"output", typeName(c.output)});
  out.push_back({"reduce_op", enumNames(c.op)[size_t(c.op)]});
  out.push_back({"tree_depth", dec(c.treeDepth())});
  out.push_back({"spatial_depth", dec(c.spatialDepth)});
  out.push_back({"lanes", dec(c.inLanes) + " -> " + dec(c.outLanes)});
  if (c.resize != ReducerResize::None) out.push_back({"resize", enumNames(c.resize)[size_t(c.resize)]});
  out.push_back({"rows", dec(c.rows)});
  if (c.mode) out.push_back({"mode", enumNames(*c.mode)[size_t(*c.mode)]});
}

// One line per step: the stage, its op, operands (a constant, `vrf`, `stash`, `()` for a skipped
// group; `@group0` for VeBranchOperand::group), a mode other than the default, and the stage's numbers.
void vectorFields(const VectorConfig &c, Fields &out) {
  for (const VectorStep &s : c.steps) {
    std::string step = enumNames(s.stage)[size_t(s.stage)];
    std::string op = veOpName(s);
    if (!op.empty()) step += " " + op;
    if (s.zip) step += " zip";
    if (s.stage == VeStage::Branch && s.branch == BranchMode::AxisToggle) step += " axis=" + s.axis;
    for (const VeOperand &o : s.operands) {
      if (o.kind == VeOperandKind::Constant) {
        if (s.dtype == num::DType::f32) {
          uint32_t bits = uint32_t(int32_t(o.constant));
          float f;
          std::memcpy(&f, &bits, 4);
          char buf[32];
          std::snprintf(buf, sizeof buf, "%g", double(f));
          step += std::string(" ") + buf;
        } else {
          step += " " + std::to_string(o.constant);
        }
      } else {
        step += std::string(" ") + (o.kind == VeOperandKind::None ? "apply" : enumNames(o.kind)[size_t(o.kind)]);
      }
      if (o.group != VeGroup::Always) step += std::string("@") + enumNames(o.group)[size_t(o.group)];
    }
    unsigned arity = s.stage == VeStage::Fp ? fpArity(FpOp(s.op)) : 2;
    bool alu = s.stage == VeStage::Logic || s.stage == VeStage::Fxp || s.stage == VeStage::Fp ||
               s.stage == VeStage::FpDiv || s.stage == VeStage::Clip;
    static const char *const unary[] = {"Mode0", "Mode1"}, *const binary[] = {"Mode00", "Mode01", "Mode10", "Mode11"},
                             *const ternary[] = {"Mode012", "Mode002", "Mode102", "Mode112", "Mode020", "Mode021", "Mode120"};
    unsigned def = arity == 2 ? 1 : 0;
    if (alu && s.mode != def && s.mode < (arity == 1 ? 2u : arity == 2 ? 4u : 7u))
      step += std::string(" mode=") + (arity == 1 ? unary : arity == 2 ? binary : ternary)[s.mode];
    if (s.stage == VeStage::FxpToFp || s.stage == VeStage::FpToFxp) step += " int_width=" + dec(s.intWidth);
    if (s.stage == VeStage::IntraReduce)
      step += " time=" + dec(s.reduceTime) + " slots=" + dec(s.slots) + (s.reducePacket ? " packet" : "");
    if (s.stage == VeStage::InterReduce) step += " slices=" + dec(s.reduceTime);
    out.push_back({"step", step});
  }
}

void castFields(const CastConfig &c, Fields &out) {
  out.push_back({"from", typeName(c.from)});
  out.push_back({"to", typeName(c.to)});
  out.push_back({"input_packet", c.inputPacket});
  out.push_back({"packet", c.outputPacket});
  out.push_back({"elements", dec(c.elements)});
  out.push_back({"input_bytes", dec(c.inputBytes())});
  out.push_back({"output_data_bytes", dec(c.outputDataBytes())});
  out.push_back({"output_padding_bytes", dec(c.outputPaddingBytes())});
  out.push_back({"cycles", dec(c.cycles())});
}

void transposeFields(const TransposeConfig &c, Fields &out) {
  out.push_back({"in_rows", dec(c.inRows)});
  out.push_back({"packets_per_col", dec(c.packetsPerCol)});
  out.push_back({"elements_per_packet", dec(c.elementsPerPacket)});
  out.push_back({"in_cols", dec(c.inCols())});
  out.push_back({"out_rows", dec(c.outRows)});
  out.push_back({"trimmed_rows", dec(c.inCols() - c.outRows)});
  out.push_back({"output_alignment", dec(c.outputAlignment)});
  out.push_back({"buffering", c.doubleBuffered() ? "double" : "single"});
  out.push_back({"n", dec(c.n)});
  out.push_back({"input_flits_per_iter", dec(c.inputFlitsPerIter())});
  out.push_back({"output_flits_per_iter", dec(c.outputFlitsPerIter())});
  out.push_back({"cycles_per_iter", dec(c.cyclesPerIter())});
  out.push_back({"cycles", dec(c.cycles())});
}

// "Slice Bitmap" in hex (slice 0 the lowest bit), with the number of enabled slices.
std::string sliceBitmapText(const SliceBitmap &b) {
  std::string hex;
  for (int digit = int(kSlicesPerCluster / 4) - 1; digit >= 0; --digit) {
    unsigned v = 0;
    for (int k = 3; k >= 0; --k) v = v * 2 + b[size_t(digit * 4 + k)];
    if (hex.empty() && v == 0 && digit > 0) continue;
    hex += "0123456789abcdef"[v];
  }
  return "0x" + hex + " (" + dec(b.count()) + " of 256 slices)";
}

void commitFields(const CommitConfig &c, Fields &out) {
  out.push_back({"dm_address", dec(c.dmAddress)});
  out.push_back({"commit_in_size", dec(c.commitInSize)});
  out.push_back({"contiguous_sram_access_size", dec(c.contiguousBytes)});
  out.push_back({"commit_size", dec(c.commitSize)});
  out.push_back({"writes_per_packet", dec(c.writesPerPacket())});
  out.push_back({"write_offsets", list(c.writeOffsets)});
  if (c.sliceBitmap) out.push_back({"slice_bitmap", sliceBitmapText(*c.sliceBitmap)});
}

}  // namespace

std::vector<EngineBlock> engineBlocks(const EngineConfig &e) {
  EngineBlock b;
  b.name = engineName(engineKind(e));
  std::visit(
      [&](const auto &c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, FetchConfig>) {
          b.sequencer = &c.sequencer;
          fetchFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, SwitchEngineConfig>) {
          switchFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, CollectConfig>) {
          b.fields = {{"input_packet_bytes", dec(c.inputPacketBytes)},
                      {"flits_per_packet", dec(c.flitsPerPacket())},
                      {"padding_bytes", dec(c.paddingBytes())}};
        } else if constexpr (std::is_same_v<C, TrfLoadConfig>) {
          trfLoadFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, VrfLoadConfig>) {
          b.fields = {{"vrf_address", dec(c.vrfAddress)}, {"bytes", dec(c.bytes)}};
        } else if constexpr (std::is_same_v<C, AlignerConfig>) {
          if (c.trf) b.sequencer = &*c.trf;
          alignerFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, ReducerConfig>) {
          reducerFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, VectorConfig>) {
          vectorFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, CastConfig>) {
          castFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, TransposeConfig>) {
          transposeFields(c, b.fields);
        } else if constexpr (std::is_same_v<C, CommitConfig>) {
          b.sequencer = &c.sequencer;
          commitFields(c, b.fields);
        }
      },
      e);
  if (const auto *dma = std::get_if<DmaConfig>(&e)) return dmaBlocks(*dma);
  return {b};
}

void printEngine(const EngineConfig &e, llvm::raw_ostream &os) {
  for (const EngineBlock &b : engineBlocks(e)) {
    os << "    " << b.name << ":";
    if (b.sequencer) os << " " << b.sequencer->str();
    os << "\n";
    if (b.sequencer) os << "      // " << b.sequencer->verbose() << "\n";
    for (const auto &[k, v] : b.fields) os << "      " << k << " = " << v << "\n";
  }
}

}  // namespace tcp
