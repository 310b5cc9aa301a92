// LowerFetchAdapter.cpp — Fetch Adapter fields of a fetch: interleaving stride, masking registers, table (and its cast), zero points.
#include "LowerFetchAdapter.h"

#include "FetchMasking.h"

#include <algorithm>

namespace tcp {

namespace {
using Field = std::pair<std::string, std::string>;
std::string dec(uint64_t v) { return std::to_string(v); }
std::string sdec(int64_t v) { return std::to_string(v); }

// "Fetch Adapter" → Masking: the registers that force padding lanes to pad_value 0.
void addMasking(std::vector<Field> &fields, const TypedOp &op, const SeqConfig &config, unsigned bits, Diagnostics &diags) {
  MaskPlan m = planMasking(config, op.out.time, op.out.packet);
  // Unmaskable padding is legal, but its lanes hold whatever the sequencer reads ("Without masking,
  // the padded element might contain an arbitrary value"); tcpi gives them 0.
  if (!m.error.empty())
    diags.warning(op.range, "fetch masking: " + m.error + "; these padding lanes are not masked and hold whatever "
                            "the sequencer reads");
  if (!m.needed || !m.error.empty()) return;
  // "The main-context adapter supports all five stages, while sub-context adapters only support
  // zero-point subtraction": a sub-context fetch cannot mask.
  if (op.in.ctx == Ctx::Sub) {
    diags.warning(op.range, "fetch masking: the sub-context Fetch Adapter does not mask; the padding lanes of " +
                                op.out.packet->str() + " hold whatever the sequencer reads");
    return;
  }
  auto list = [](const std::vector<uint64_t> &v) {
    std::string s;
    for (uint64_t x : v) s += (s.empty() ? "" : ", ") + dec(x);
    return "[" + s + "]";
  };
  if (m.perIndex) {
    fields.push_back({"last_dim_rightmost_valid_count_dim", dec(m.countDim)});
    fields.push_back({"last_dim", dec(m.lastDim)});
    fields.push_back({"last_dim_rightmost_valid_count[0.." + dec(m.validCounts.size()) + "]", list(m.validCounts)});
  } else {
    fields.push_back({"last_dim", dec(m.lastDim)});
    fields.push_back({"left_pad", dec(m.leftPad)});
    fields.push_back({"last_dim_rightmost_valid_count[0]", dec(m.validCounts[0])});
    // "limited to 0-255 for 4-bit types, 0-31 for f32, as the final packet size must not exceed 256 bytes"
    uint64_t limit = 1024 / std::max(1u, bits) - 1;
    if (m.validCounts[0] > limit)
      diags.error(op.range, "fetch masking: last_dim_rightmost_valid_count[0] = " + dec(m.validCounts[0]) + " exceeds " +
                                dec(limit) + " for " + num::dtypeName(op.in.dtype) +
                                " elements; one count per index (padding case 3) needs an entry of at most 8 values");
  }
  fields.push_back({"pad_value", "0"});
}

}  // namespace

void lowerFetchAdapter(EngineConfig &e, const TypedOp &fetch, const TypedOp *begin, const TypedFunction &f,
                       Diagnostics &diags) {
  std::vector<Field> fields;
  unsigned bits = num::storageBits(fetch.in.dtype);
  // "Interleaving Tensors": the axis I alternates lhs (I = 0) and rhs (I = 1); its entry steps from
  // one tensor to the other (stride 0 until both addresses are known).
  if (begin && !begin->arg.empty() && e.sequencer) {
    std::optional<uint64_t> lhs = begin->address, rhs;
    int id = begin->operandTensors.empty() ? -1 : begin->operandTensors[0];
    if (id >= 0 && id < static_cast<int>(f.tensors.size())) rhs = f.tensors[id].address;
    std::string where = "unknown (parameters)";
    if (lhs && rhs) {
      int64_t bytes = int64_t(*rhs) - int64_t(*lhs), elemBits = int64_t(bits);
      where = dec(*rhs);
      if ((bytes * 8) % elemBits != 0) {
        diags.error(fetch.range, "interleaving: the second tensor starts " + sdec(bytes) +
                                     " bytes after the first, not a whole number of " + num::dtypeName(fetch.in.dtype) +
                                     " elements");
      } else {
        for (SeqEntry &en : e.sequencer->entries)
          if (en.term == begin->arg && en.stride == 0) en.stride = bytes * 8 / elemBits;
      }
    }
    fields.push_back({"interleave", begin->arg + " (" + dec(2) + " tensors: lhs at " +
                                        (lhs ? dec(*lhs) : std::string("unknown (parameters)")) + ", rhs at " + where + ")"});
  }
  if (e.sequencer) addMasking(fields, fetch, *e.sequencer, bits, diags);
  if (fetch.arg == "table" && fetch.table >= 0 && size_t(fetch.table) < f.tables.size()) {
    // "Table Indexing": the table's type and size are the program's, its entries the launch's.
    const TypedTable &t = f.tables[fetch.table];
    fields.push_back({"table_indexing", t.type.str() + " (parameter `" + t.name + "`)"});
    fields.push_back({"table_entries", dec(tableEntries(t.type.in)) + " (one per " + num::dtypeName(t.type.in) +
                                           " value; loaded at launch)"});
    // Type Casting follows Table Indexing: it casts the table's entries.
    if (t.type.out != fetch.out.dtype)
      fields.push_back({"cast", std::string(num::dtypeName(t.type.out)) + " -> " + num::dtypeName(fetch.out.dtype)});
  }
  if (fetch.arg == "zero_point" || fetch.arg == "zero_points") {
    std::string v;
    for (int64_t z : fetch.zeroPoints) v += (v.empty() ? "" : ", ") + sdec(z);
    if (fetch.zeroPoints.empty()) v = "runtime";
    else if (fetch.arg == "zero_points") v = "[" + v + "]";
    fields.push_back({fetch.arg, v});
  }
  auto at = std::find_if(e.fields.begin(), e.fields.end(), [](const Field &x) { return x.first == "packet_bytes"; });
  e.fields.insert(at, fields.begin(), fields.end());
}

}  // namespace tcp
