// CycleTrace.cpp — --emit=trace: the schedule as Chrome trace-event JSON (llvm::json), one track per context, DMA Engine and Tensor Unit engine.
#include "CycleTrace.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <map>
#include <set>

namespace tcp {

namespace {

// Track ids within a function's process. The engines of a Tensor Unit operation, in pipeline order.
const char *const kTuEngines[] = {"fetch",   "table",   "switch",     "collect", "trf_load", "vrf_load", "aligner",
                                  "reducer", "accumulate", "vector", "cast",    "transpose", "commit"};
constexpr int kEngineCount = sizeof(kTuEngines) / sizeof(kTuEngines[0]);
constexpr int kMainTid = 1, kMainEngineTid = 10;  // main context, then its engines 10..
constexpr int kSubTid = 100, kSubEngineTid = 110;
constexpr int kDmaTid = 200, kDmaEngineTid = 210;  // the DMA resource, then engine (cluster, pair)


struct Track {
  int tid;
  std::string name;
};

class TraceWriter {
 public:
  explicit TraceWriter(llvm::json::OStream &j) : j_(j) {}

  void function(const FunctionCost &f, const FunctionSchedule &fs, int pid, uint64_t offset) {
    std::map<int, std::string> tracks;  // tid -> name, for the ones used
    std::vector<std::map<MemTier, uint64_t>> live = liveFootprint(f.ops);
    for (size_t i = 0; i < f.ops.size(); ++i) {
      const OpCost &op = f.ops[i];
      const ScheduledOp &so = fs.ops[i];
      uint64_t start = offset + so.start;
      std::string label = op.name + " (line " + std::to_string(op.line) + ")";
      if (op.resource == Resource::Dma) {
        tracks[kDmaTid] = "DMA";
        slice(pid, kDmaTid, label, start, op.cycles, [&] { opArgs(f, op, so); });
        for (const DmaEngineCost &e : op.dmaEngines) {
          int tid = kDmaEngineTid + int(e.cluster) * 8 + int(e.pair);
          tracks[tid] = "DMA engine (cluster " + std::to_string(e.cluster) + ", pair " + std::to_string(e.pair) + ")";
          slice(pid, tid, label, start, std::min(e.cycles, op.cycles), [&] {
            j_.attribute("line", op.line);
            j_.attribute("cycles", e.cycles);
            j_.attribute("commands", e.commands);
            j_.attribute("bytes_per_chip", e.bytes);
          });
        }
      } else {
        bool main = op.resource == Resource::Main;
        int ctxTid = main ? kMainTid : kSubTid, engineTid = main ? kMainEngineTid : kSubEngineTid;
        tracks[ctxTid] = main ? "main context" : "sub context";
        slice(pid, ctxTid, label, start, op.cycles, [&] { opArgs(f, op, so); });
        // Each engine starts when the data reaches it (the fill latencies of the engines before it)
        // and works for its own cycles plus its latency; the longest one sets the op's length.
        uint64_t fill = 0;
        for (const EngineCost &e : op.engines) {
          int tid = engineTid + engineIndex(e.engine);  // < kSubTid - kMainEngineTid engines
          tracks[tid] = std::string(main ? "main" : "sub") + ": " + e.engine;
          slice(pid, tid, e.engine + " (line " + std::to_string(op.line) + ")", start + fill, e.cycles + e.latency, [&] {
            j_.attribute("op", op.name);
            j_.attribute("line", op.line);
            j_.attribute("cycles", e.cycles);
            j_.attribute("latency", e.latency);
          });
          fill += e.latency;
        }
      }
      counters(pid, start, live[i]);
    }
    counters(pid, offset + fs.makespan, live.back());
    for (const auto &track : tracks) {  // (clang rejects structured bindings captured by a lambda in C++17)
      const auto &tid = track.first;
      const auto &name = track.second;
      metadata(pid, tid, "thread_name", [&] { j_.attribute("name", name); });
      metadata(pid, tid, "thread_sort_index", [&] { j_.attribute("sort_index", tid); });
    }
  }

  template <typename Args>
  void metadata(int pid, int tid, const char *name, Args args) {
    j_.object([&] {
      j_.attribute("name", name);
      j_.attribute("ph", "M");
      j_.attribute("pid", pid);
      j_.attribute("tid", tid);
      j_.attributeObject("args", args);
    });
  }

 private:
  template <typename Args>
  void slice(int pid, int tid, const std::string &name, uint64_t ts, uint64_t dur, Args args) {
    if (dur == 0) return;  // nothing to draw (an engine with no work)
    j_.object([&] {
      j_.attribute("name", name);
      j_.attribute("cat", tid >= kDmaTid ? "dma" : "tensor_unit");
      j_.attribute("ph", "X");
      j_.attribute("ts", ts);
      j_.attribute("dur", dur);
      j_.attribute("pid", pid);
      j_.attribute("tid", tid);
      j_.attributeObject("args", args);
    });
  }

  void opArgs(const FunctionCost &f, const OpCost &op, const ScheduledOp &so) {
    j_.attribute("function", f.name);
    j_.attribute("line", op.line);
    j_.attribute("context", resourceName(op.resource));
    j_.attribute("cycles", op.cycles);
    j_.attributeObject("engine_cycles", [&] {
      for (const EngineCost &e : op.engines) j_.attribute(e.engine, e.cycles);
    });
    j_.attributeObject("bytes", [&] {
      for (const auto &[tier, b] : op.bytes) {
        if (b.read) j_.attribute(std::string(memTierName(tier)) + "_read", b.read);
        if (b.write) j_.attribute(std::string(memTierName(tier)) + "_write", b.write);
      }
    });
    if (so.blocksDma) j_.attribute("occupies_dma", true);  // "Bank Starvation"
  }

  void counters(int pid, uint64_t ts, const std::map<MemTier, uint64_t> &live) {
    for (const auto &entry : live) {
      const MemTier tier = entry.first;
      const uint64_t bytes = entry.second;
      j_.object([&] {
        j_.attribute("name", std::string(memTierName(tier)) + " bytes per slice");
        j_.attribute("ph", "C");
        j_.attribute("ts", ts);
        j_.attribute("pid", pid);
        j_.attributeObject("args", [&] { j_.attribute("bytes", bytes); });
      });
    }
  }

  // The track of an engine: its place in the pipeline; an engine the list does not name gets a track
  // of its own after the known ones.
  int engineIndex(const std::string &name) {
    for (int k = 0; k < kEngineCount; ++k)
      if (name == kTuEngines[k]) return k;
    auto it = extraEngines_.emplace(name, kEngineCount + int(extraEngines_.size())).first;
    return it->second;
  }

  llvm::json::OStream &j_;
  std::map<std::string, int> extraEngines_;
};

}  // namespace

void printTrace(const ProgramCost &p, const ProgramSchedule &s, const std::string &source, llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 1);
  j.object([&] {
    j.attributeArray("traceEvents", [&] {
      TraceWriter w(j);
      uint64_t offset = 0;
      for (size_t fi = 0; fi < p.functions.size(); ++fi) {
        const FunctionCost &f = p.functions[fi];
        int pid = int(fi) + 1;
        w.metadata(pid, 0, "process_name", [&] { j.attribute("name", (f.isDevice ? "kernel " : "stage ") + f.name); });
        w.metadata(pid, 0, "process_sort_index", [&] { j.attribute("sort_index", pid); });
        w.function(f, s.functions[fi], pid, offset);
        offset += s.functions[fi].makespan;
      }
    });
    j.attributeObject("otherData", [&] {
      j.attribute("source", source);
      j.attribute("clock", "1 us of the trace = 1 core cycle (1 ns at 1 GHz)");
      j.attribute("total_cycles", s.total);
    });
  });
  os << "\n";
}

}  // namespace tcp
