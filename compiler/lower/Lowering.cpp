// Lowering.cpp — derives every engine's configuration of each Tensor Unit operation and DMA transfer, in program order, and prints them (--emit=config).
#include "Lowering.h"

#include "DmaLowering.h"
#include "EnginePrint.h"
#include "LowerContraction.h"
#include "LowerFetchAdapter.h"

#include <llvm/Support/ErrorHandling.h>

#include <algorithm>

namespace tcp {

namespace {
Context seqContext(Ctx c) { return c == Ctx::Sub ? Context::Sub : Context::Main; }

void addDiagnostics(Diagnostics &diags, const TypedOp &op, const std::string &engine, const std::vector<std::string> &ds) {
  for (const std::string &d : ds) diags.error(op.range, engine + ": " + d);
}

// The Fetch Sequencer and the adapter's batching: packet, contiguous run, fetch_size ("Fetch Engine").
// nullopt after reporting why the sequencer cannot be configured.
std::optional<FetchConfig> lowerFetch(const TypedOp &op, Ctx ctx, Diagnostics &diags) {
  unsigned inBits = num::storageBits(op.in.dtype);
  auto seq = fetchSequencer(op);
  const SeqResult &r = *seq;
  addDiagnostics(diags, op, "fetch sequencer", r.diagnostics);
  if (!r.ok()) return std::nullopt;
  FetchConfig f;
  f.sequencer = *r.config;
  f.timeSize = r.timeSize;
  f.inType = op.in.dtype;
  f.outType = op.out.dtype;
  unsigned outBits = op.out.dtype != op.in.dtype ? num::storageBits(op.out.dtype) : 0;
  FetchPlan p = planFetch(r, inBits, seqContext(ctx), outBits);
  addDiagnostics(diags, op, "fetch", p.diagnostics);
  f.packetBytes = p.packetBytes;
  f.contiguousBytes = p.contiguousBytes;
  f.fetchSize = p.fetchSize;
  return f;
}

// "Slice Bitmap": bit i enables the commit to slice i; present only when some of the 256 slices
// hold no data (`m![1 # 256]`).
std::optional<SliceBitmap> sliceBitmap(const MappingRef &slice) {
  if (!slice || slice->size() != kSlicesPerCluster) return std::nullopt;
  SliceBitmap on;
  for (uint64_t i = 0; i < kSlicesPerCluster; ++i) on[i] = slice->map(i).has_value();
  if (on.all()) return std::nullopt;
  return on;
}

std::optional<CommitConfig> lowerCommit(const TypedOp &op, Ctx ctx) {
  unsigned bits = num::storageBits(op.out.dtype);
  auto seq = commitSequencer(op);
  const SeqResult &r = *seq;
  if (!r.ok()) return std::nullopt;  // the typed phase reported it
  CommitPlan p = planCommit(r, bits, seqContext(ctx));
  CommitConfig c;
  c.dmAddress = op.address.value_or(0);
  c.sequencer = *r.config;
  c.dtype = op.out.dtype;
  c.commitInSize = p.commitInSize;
  c.contiguousBytes = p.contiguousBytes;
  c.commitSize = p.commitSize;
  c.writeOffsets.assign(p.writeOffsets.begin(), p.writeOffsets.end());
  c.sliceBitmap = sliceBitmap(op.out.slice);
  return c;
}

// Adds an engine's configuration to the operation after checking every field's range: a derived
// value outside what the hardware's registers hold is an error at the op that needs it.
void add(TuConfig &tu, const TypedOp &op, EngineConfig e, Diagnostics &diags) {
  if (auto bad = checkEngineConfig(e, tu.ctx, tu.stage))
    diags.error(op.range, std::string(engineName(engineKind(e))) + ": the configuration is outside the hardware's range: " +
                              bad->field + " " + bad->problem);
  tu.engines.push_back(std::move(e));
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
    size_t lowered = 0;  // typed ops this function's configurations account for
    for (const TypedOp &op : f.ops)
      if (isDmaOp(op)) {
        fc.tus.push_back(lowerDmaOp(f, op, diags));
        ++lowered;
      }
    // Chain -1: the Tensor Unit ops of a stage function, which starts from a stream parameter.
    bool stageOps = std::any_of(f.ops.begin(), f.ops.end(), [](const TypedOp &op) {
      return op.chain < 0 && !isDmaOp(op);
    });
    for (int chain = stageOps ? -1 : 0; chain < f.chains; ++chain) {
      TuConfig tu;
      tu.chain = chain;
      tu.stage = chain < 0;
      VectorConfig vector;
      bool vectorOk = true;  // every vector_* op of the chain has a stage (else it was reported)
      uint64_t source = 0;  // DM address of the tensor `begin` streams
      const TypedOp *beginOp = nullptr;
      const TypedOp *lastVector = nullptr;  // the chain's last vector_* op
      for (const TypedOp &op : f.ops) {
        if (op.chain != chain || (tu.stage && isDmaOp(op))) continue;
        const std::string &n = op.name;
        if (tu.stage && tu.line == 0) {  // the first op opens the operation (a generic context stays Unknown)
          tu.ctx = op.in.ctx;
          tu.line = op.line;
        }
        ++lowered;
        unsigned errors = diags.errorCount();
        // An engine whose derivation reported an error is left out; checking its range would repeat it.
        auto push = [&](EngineConfig e) {
          if (diags.errorCount() == errors) add(tu, op, std::move(e), diags);
        };
        if (n == "begin") {
          tu.ctx = op.out.ctx;
          tu.line = op.line;
          source = op.address.value_or(0);
          beginOp = &op;
          continue;
        }
        if (n == "fetch") {
          std::optional<FetchConfig> e = lowerFetch(op, tu.ctx, diags);
          if (!e) continue;
          lowerFetchAdapter(*e, op, beginOp, f, diags);
          if (!tu.stage) e->dmAddress = source;
          push(std::move(*e));
        } else if (n == "switch") {
          push(lowerSwitch(op));
        } else if (n == "collect") {
          push(CollectConfig{op.in.packetBytes()});
        } else if (n == "to_trf") {
          push(lowerTrfLoad(op));
        } else if (n == "to_vrf") {
          push(VrfLoadConfig{op.address.value_or(0), op.out.elementBytes()});
        } else if (n == "align") {
          push(lowerAligner(op));
        } else if (n == "contract") {
          const TypedOp *acc = nullptr;
          for (const TypedOp &o : f.ops)
            if (o.chain == chain && o.name == "accumulate") acc = &o;
          push(lowerReducer(op, acc));
        } else if (n.rfind("vector_", 0) == 0) {
          lastVector = &op;
          if (auto step = lowerVectorStep(op, diags)) vector.steps.push_back(*step);
          else vectorOk = false;
          if (n == "vector_final" && vectorOk) push(std::move(vector));
        } else if (n == "cast") {
          push(lowerCast(op));
        } else if (n == "transpose") {
          if (auto t = lowerTranspose(op)) push(*t);
        } else if (n == "commit") {
          if (auto c = lowerCommit(op, tu.ctx)) push(std::move(*c));
        } else if (n != "accumulate") {  // accumulate is the reducer's, lowered with its contract
          --lowered;
        }
      }
      // A stage function may end inside the Vector Engine (before vector_final): its steps still run.
      bool vectorOut = std::any_of(tu.engines.begin(), tu.engines.end(),
                                   [](const EngineConfig &e) { return engineKind(e) == EngineKind::Vector; });
      if (vectorOk && lastVector && !vectorOut) add(tu, *lastVector, std::move(vector), diags);
      fc.tus.push_back(std::move(tu));
    }
    // Nothing is lost silently: every typed op has its configuration (internal invariant).
    if (lowered != f.ops.size())
      llvm::report_fatal_error("internal error: lowering `" + llvm::Twine(f.name) + "` configured " +
                               llvm::Twine(lowered) + " of its " + llvm::Twine(f.ops.size()) + " typed ops");
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
      for (const EngineConfig &e : tu.engines) printEngine(e, os);
    }
  }
}

}  // namespace tcp
