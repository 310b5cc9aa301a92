// LowerFetchAdapter.cpp — the Fetch Adapter's stages of a fetch: interleaving stride, masking registers, table, zero points.
#include "LowerFetchAdapter.h"

#include "FetchMasking.h"

#include <algorithm>
#include <optional>

namespace tcp {

namespace {
std::string dec(uint64_t v) { return std::to_string(v); }
std::string sdec(int64_t v) { return std::to_string(v); }

// "Fetch Adapter" → Masking: the registers that force padding lanes to pad_value 0.
std::optional<FetchMasking> lowerMasking(const TypedOp &op, const SeqConfig &config, unsigned bits, Diagnostics &diags) {
  MaskPlan m = planMasking(config, op.out.time, op.out.packet);
  // Unmaskable padding is legal, but its lanes hold whatever the sequencer reads ("Without masking,
  // the padded element might contain an arbitrary value"); tcpi gives them 0.
  if (!m.error.empty())
    diags.warning(op.range, "fetch masking: " + m.error + "; these padding lanes are not masked and hold whatever "
                            "the sequencer reads");
  if (!m.needed || !m.error.empty()) return std::nullopt;
  // "The main-context adapter supports all five stages, while sub-context adapters only support
  // zero-point subtraction": a sub-context fetch cannot mask.
  if (op.in.ctx == Ctx::Sub) {
    diags.warning(op.range, "fetch masking: the sub-context Fetch Adapter does not mask; the padding lanes of " +
                                op.out.packet->str() + " hold whatever the sequencer reads");
    return std::nullopt;
  }
  FetchMasking out;
  out.perIndex = m.perIndex;
  out.lastDim = m.lastDim;
  out.validCounts.assign(m.validCounts.begin(), m.validCounts.end());
  if (m.perIndex) {
    out.countDim = m.countDim;
  } else {
    out.leftPad = m.leftPad;
    // "limited to 0-255 for 4-bit types, 0-31 for f32, as the final packet size must not exceed 256 bytes"
    uint64_t limit = 1024 / std::max(1u, bits) - 1;
    if (m.validCounts[0] > limit)
      diags.error(op.range, "fetch masking: last_dim_rightmost_valid_count[0] = " + dec(m.validCounts[0]) + " exceeds " +
                                dec(limit) + " for " + num::dtypeName(op.in.dtype) +
                                " elements; one count per index (padding case 3) needs an entry of at most 8 values");
  }
  return out;
}

}  // namespace

void lowerFetchAdapter(FetchConfig &e, const TypedOp &fetch, const TypedOp *begin, const TypedFunction &f,
                       Diagnostics &diags) {
  unsigned bits = num::storageBits(fetch.in.dtype);
  // "Interleaving Tensors": the axis I alternates lhs (I = 0) and rhs (I = 1); its entry steps from
  // one tensor to the other (stride 0 until both addresses are known).
  if (begin && !begin->arg.empty()) {
    std::optional<uint64_t> lhs = begin->address, rhs;
    int id = begin->operandTensors.empty() ? -1 : begin->operandTensors[0];
    if (id >= 0 && id < static_cast<int>(f.tensors.size())) rhs = f.tensors[id].address;
    FetchInterleave il;
    il.axis = begin->arg;
    if (lhs) il.lhs = *lhs;
    if (lhs && rhs) {
      int64_t bytes = int64_t(*rhs) - int64_t(*lhs), elemBits = int64_t(bits);
      il.rhs = *rhs;
      if ((bytes * 8) % elemBits != 0) {
        diags.error(fetch.range, "interleaving: the second tensor starts " + sdec(bytes) +
                                     " bytes after the first, not a whole number of " + num::dtypeName(fetch.in.dtype) +
                                     " elements");
      } else {
        for (SeqEntry &en : e.sequencer.entries)
          if (en.term == begin->arg && en.stride == 0) en.stride = bytes * 8 / elemBits;
      }
    }
    e.interleave = il;
  }
  e.masking = lowerMasking(fetch, e.sequencer, bits, diags);
  if (fetch.arg == "table" && fetch.table >= 0 && size_t(fetch.table) < f.tables.size()) {
    // "Table Indexing": the table's type and size are the program's, its entries the launch's.
    const TypedTable &t = f.tables[fetch.table];
    e.table = FetchTable{t.type, t.name};
  }
  if (fetch.arg == "zero_point" || fetch.arg == "zero_points") {
    FetchZeroPoints z;
    z.perTensor = fetch.arg == "zero_points";
    for (int64_t v : fetch.zeroPoints) z.values.push_back(v);  // the checker keeps them within i8 and the target type
    e.zeroPoints = z;
  }
}

}  // namespace tcp
