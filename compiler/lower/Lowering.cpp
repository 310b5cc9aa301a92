// Lowering.cpp — derives fetch/commit/TRF sequencers and the collect, aligner, reducer, vector and cast
// parameters of every Tensor Unit operation ("Sequencer → Configuration", engine pages).
#include "Lowering.h"

#include "CastEngine.h"
#include "LowerFetchAdapter.h"
#include "LowerContraction.h"
#include "TransposeEngine.h"
#include "DmaLowering.h"
#include "MappingNormalForm.h"

#include <algorithm>

namespace tcp {

namespace {
std::string dec(uint64_t v) { return std::to_string(v); }

Context seqContext(Ctx c) { return c == Ctx::Sub ? Context::Sub : Context::Main; }

void addDiagnostics(Diagnostics &diags, const TypedOp &op, const std::string &engine, const std::vector<std::string> &ds) {
  for (const std::string &d : ds) diags.error(op.range, engine + ": " + d);
}

EngineConfig lowerFetch(const TypedOp &op, Ctx ctx, Diagnostics &diags, uint64_t *timeSize) {
  EngineConfig e{"fetch", std::nullopt, {}};
  unsigned inBits = num::storageBits(op.in.dtype);
  auto seq = fetchSequencer(op);
  const SeqResult &r = *seq;
  addDiagnostics(diags, op, "fetch sequencer", r.diagnostics);
  if (!r.ok()) return e;
  e.sequencer = r.config;
  unsigned outBits = op.out.dtype != op.in.dtype ? num::storageBits(op.out.dtype) : 0;
  FetchPlan p = planFetch(r, inBits, seqContext(ctx), outBits);
  addDiagnostics(diags, op, "fetch", p.diagnostics);
  *timeSize = r.timeSize;
  if (outBits && op.arg != "table") e.fields.push_back({"cast", std::string(num::dtypeName(op.in.dtype)) + " -> " + num::dtypeName(op.out.dtype)});
  e.fields.push_back({"packet_bytes", dec(p.packetBytes)});
  e.fields.push_back({"contiguous_sram_access_size", dec(p.contiguousBytes)});
  e.fields.push_back({"fetch_size", dec(p.fetchSize)});
  e.fields.push_back({"fetches_per_packet", dec(p.fetchesPerPacket)});
  e.fields.push_back({"cycles", dec(p.cycles)});
  return e;
}

// "Slice Bitmap": bit i enables the commit to slice i; printed (in hex, slice 0 the lowest bit) only
// when some of the 256 slices hold no data (`m![1 # 256]`).
std::optional<std::string> sliceBitmap(const MappingRef &slice) {
  if (!slice || slice->size() != 256) return std::nullopt;
  std::vector<bool> on(256);
  unsigned count = 0;
  for (uint64_t i = 0; i < 256; ++i) count += (on[i] = slice->map(i).has_value());
  if (count == 256) return std::nullopt;
  std::string hex;
  for (int digit = 63; digit >= 0; --digit) {
    unsigned v = 0;
    for (int b = 3; b >= 0; --b) v = v * 2 + on[digit * 4 + b];
    if (hex.empty() && v == 0 && digit > 0) continue;
    hex += "0123456789abcdef"[v];
  }
  return "0x" + hex + " (" + dec(count) + " of 256 slices)";
}

EngineConfig lowerCommit(const TypedOp &op, Ctx ctx, Diagnostics &diags) {
  EngineConfig e{"commit", std::nullopt, {}};
  unsigned bits = num::storageBits(op.out.dtype);
  auto seq = commitSequencer(op);
  const SeqResult &r = *seq;
  if (!r.ok()) return e;  // the typed phase reported it
  e.sequencer = r.config;
  CommitPlan p = planCommit(r, bits, seqContext(ctx));
  e.fields.push_back({"dm_address", dec(op.address.value_or(0))});
  e.fields.push_back({"commit_in_size", dec(p.commitInSize)});
  e.fields.push_back({"contiguous_sram_access_size", dec(p.contiguousBytes)});
  e.fields.push_back({"commit_size", dec(p.commitSize)});
  e.fields.push_back({"writes_per_packet", dec(p.writesPerPacket)});
  std::string offsets;
  for (uint64_t w : p.writeOffsets) offsets += (offsets.empty() ? "" : ", ") + dec(w);
  e.fields.push_back({"write_offsets", "[" + offsets + "]"});
  if (auto bitmap = sliceBitmap(op.out.slice)) e.fields.push_back({"slice_bitmap", *bitmap});
  (void)diags;
  return e;
}

}  // namespace

std::shared_ptr<const SeqResult> fetchSequencer(const TypedOp &op) {
  if (op.sequencer) return op.sequencer;
  SeqOptions o;
  o.use = SeqUse::Fetch;
  return std::make_shared<const SeqResult>(derive(op.in.packet, op.out.time, op.out.packet, num::storageBits(op.in.dtype), o));
}

std::shared_ptr<const SeqResult> commitSequencer(const TypedOp &op) {
  if (op.sequencer) return op.sequencer;
  SeqOptions o;
  o.use = SeqUse::Commit;
  return std::make_shared<const SeqResult>(derive(op.out.element, op.in.time, op.in.packet, num::storageBits(op.out.dtype), o));
}

LoweredProgram lower(const TypedProgram &typed, Diagnostics &diags) {
  LoweredProgram out;
  for (const TypedFunction &f : typed.functions) {
    FunctionConfig fc;
    fc.name = f.name;
    fc.isDevice = f.isDevice;
    for (const TypedOp &op : f.ops)
      if (isDmaOp(op)) fc.tus.push_back(lowerDmaOp(f, op, diags));
    // Chain -1: the Tensor Unit ops of a stage function, which starts from a stream parameter.
    bool stageOps = std::any_of(f.ops.begin(), f.ops.end(), [](const TypedOp &op) {
      return op.chain < 0 && !isDmaOp(op);
    });
    for (int chain = stageOps ? -1 : 0; chain < f.chains; ++chain) {
      TuConfig tu;
      tu.chain = chain;
      tu.stage = chain < 0;
      EngineConfig vector{"vector", std::nullopt, {}};
      uint64_t source = 0;  // DM address of the tensor `begin` streams
      const TypedOp *beginOp = nullptr;
      for (const TypedOp &op : f.ops) {
        if (op.chain != chain || (tu.stage && isDmaOp(op))) continue;
        const std::string &n = op.name;
        if (tu.stage && tu.line == 0) {  // the first op opens the operation (a generic context stays Unknown)
          tu.ctx = op.in.ctx;
          tu.line = op.line;
        }
        if (n == "begin") {
          tu.ctx = op.out.ctx;
          tu.line = op.line;
          source = op.address.value_or(0);
          beginOp = &op;
          continue;
        }
        if (n == "fetch") {
          EngineConfig e = lowerFetch(op, tu.ctx, diags, &tu.timeSize);
          lowerFetchAdapter(e, op, beginOp, f, diags);
          if (!tu.stage) e.fields.insert(e.fields.begin(), {"dm_address", dec(source)});
          tu.engines.push_back(e);
        } else if (n == "switch") {
          tu.engines.push_back(lowerSwitch(op));
        } else if (n == "collect") {
          uint64_t bytes = op.in.packetBytes();
          tu.engines.push_back({"collect", std::nullopt,
                                {{"input_packet_bytes", dec(bytes)}, {"flits_per_packet", dec((bytes + 31) / 32)},
                                 {"padding_bytes", dec((bytes + 31) / 32 * 32 - bytes)}}});
        } else if (n == "to_trf") {
          tu.engines.push_back(lowerTrfLoad(op));
        } else if (n == "to_vrf") {
          tu.engines.push_back({"vrf_load", std::nullopt, {{"vrf_address", dec(op.address.value_or(0))}, {"bytes", dec(op.out.elementBytes())}}});
        } else if (n == "align") {
          tu.engines.push_back(lowerAligner(op));
        } else if (n == "contract") {
          const TypedOp *acc = nullptr;
          for (const TypedOp &o : f.ops)
            if (o.chain == chain && o.name == "accumulate") acc = &o;
          tu.engines.push_back(lowerReducer(op, acc));
        } else if (n.rfind("vector_", 0) == 0) {
          std::string step = n.substr(7);
          if (!op.arg.empty()) step += " " + op.arg;
          if (op.imm) step += " " + std::to_string(*op.imm);
          if (!op.operands.empty()) step += " vrf";
          vector.fields.push_back({"step", step});
          if (n == "vector_final") tu.engines.push_back(vector);
        } else if (n == "cast") {
          tu.engines.push_back(lowerCast(op));
        } else if (n == "transpose") {
          tu.engines.push_back(lowerTranspose(op));
        } else if (n == "commit") {
          tu.engines.push_back(lowerCommit(op, tu.ctx, diags));
        }
      }
      fc.tus.push_back(std::move(tu));
    }
    // Program order: DMA transfers and Tensor Unit operations by their source line.
    std::stable_sort(fc.tus.begin(), fc.tus.end(), [](const TuConfig &a, const TuConfig &b) { return a.line < b.line; });
    out.functions.push_back(std::move(fc));
  }
  return out;
}

void printConfig(const LoweredProgram &program, llvm::raw_ostream &os) {
  for (const FunctionConfig &f : program.functions) {
    os << (f.isDevice ? "kernel " : "stage ") << f.name << "\n";
    for (const TuConfig &tu : f.tus) {
      if (tu.stage)
        os << "  tu stage (" << ctxName(tu.ctx) << " context, line " << tu.line << ")\n";
      else if (tu.chain < 0)
        os << "  dma (line " << tu.line << ")\n";
      else
        os << "  tu " << tu.chain << " (" << ctxName(tu.ctx) << " context, line " << tu.line << ")\n";
      for (const EngineConfig &e : tu.engines) {
        os << "    " << e.engine << ":";
        if (e.sequencer) os << " " << e.sequencer->str();
        os << "\n";
        if (e.sequencer) os << "      // " << e.sequencer->verbose() << "\n";
        for (const auto &[k, v] : e.fields) os << "      " << k << " = " << v << "\n";
      }
    }
  }
}

}  // namespace tcp
