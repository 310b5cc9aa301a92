// trace_format_test.cpp — every trace tcpc writes (--emit=trace) is Chrome trace-event JSON that
// Perfetto and chrome://tracing import: the JSON Object Format's required fields per event phase,
// track names for every track, slices that nest on each track, and the schedule's numbers.
#include "CycleTrace.h"
#include "Driver.h"

#include <gtest/gtest.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using llvm::json::Object;
using llvm::json::Value;

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const char *dir : {"tests/golden", "samples", "tests/conformance/manual"}) {
    fs::path root = fs::path(TCP_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto &e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() == ".tcp") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The Trace Event Format's checks for the phases tcp writes ("X" complete, "C" counter, "M"
// metadata); every problem is appended to `problems`.
void validate(const Value &trace, std::vector<std::string> &problems) {
  auto problem = [&](const std::string &p) { problems.push_back(p); };
  const Object *top = trace.getAsObject();
  if (!top) return problem("the trace is not a JSON object");
  const llvm::json::Array *events = top->getArray("traceEvents");
  if (!events) return problem("no traceEvents array");
  struct Slice {
    int64_t ts, end;
    std::string name;
  };
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> tracks;
  std::set<std::pair<int64_t, int64_t>> namedThreads;
  std::set<int64_t> namedProcesses, pids;
  static const std::set<std::string> kMetadata = {"process_name", "process_sort_index", "thread_name",
                                                  "thread_sort_index"};
  for (size_t k = 0; k < events->size(); ++k) {
    std::string at = "event " + std::to_string(k) + ": ";
    const Object *e = (*events)[k].getAsObject();
    if (!e) {
      problem(at + "not an object");
      continue;
    }
    auto ph = e->getString("ph");
    auto name = e->getString("name");
    auto pid = e->getInteger("pid");
    auto tid = e->getInteger("tid");
    auto ts = e->getNumber("ts");
    const Object *args = e->getObject("args");
    if (!ph || ph->size() != 1) problem(at + "no one-letter ph");
    if (!name || name->empty()) problem(at + "no name");
    if (!pid || *pid < 0) problem(at + "no pid");
    if (!ph || !name || !pid) continue;
    pids.insert(*pid);
    if (*ph == "X") {
      auto dur = e->getNumber("dur");
      if (!tid) problem(at + "a complete event needs tid");
      if (!ts || *ts < 0) problem(at + "a complete event needs ts >= 0");
      if (!dur || *dur <= 0) problem(at + "a complete event needs dur > 0");
      if (args == nullptr && e->get("args")) problem(at + "args is not an object");
      if (tid && ts && dur) tracks[{*pid, *tid}].push_back({int64_t(*ts), int64_t(*ts + *dur), name->str()});
    } else if (*ph == "C") {
      if (!ts || *ts < 0) problem(at + "a counter needs ts >= 0");
      if (!args || args->empty()) problem(at + "a counter needs args with its series");
      else
        for (const auto &kv : *args)
          if (!kv.second.getAsNumber()) problem(at + "counter series " + kv.first.str() + " is not a number");
    } else if (*ph == "M") {
      if (!kMetadata.count(name->str())) problem(at + "unknown metadata " + name->str());
      if (!args) {
        problem(at + "metadata needs args");
        continue;
      }
      bool isName = name->endswith("_name");
      if (isName && !args->getString("name")) problem(at + name->str() + " needs args.name");
      if (!isName && !args->getInteger("sort_index")) problem(at + name->str() + " needs args.sort_index");
      if (*name == "process_name") namedProcesses.insert(*pid);
      if (*name == "thread_name") {
        if (!tid) problem(at + "thread_name needs tid");
        else namedThreads.insert({*pid, *tid});
      }
    } else {
      problem(at + "phase " + ph->str() + " (tcp writes X, C and M only)");
    }
  }
  for (int64_t pid : pids)
    if (!namedProcesses.count(pid)) problem("process " + std::to_string(pid) + " has no process_name");
  // Perfetto draws a track's complete events as a stack: two slices either nest or are disjoint.
  for (auto &[track, slices] : tracks) {
    std::string at = "track (" + std::to_string(track.first) + ", " + std::to_string(track.second) + "): ";
    if (!namedThreads.count(track)) problem(at + "no thread_name");
    std::sort(slices.begin(), slices.end(), [](const Slice &a, const Slice &b) { return a.ts < b.ts || (a.ts == b.ts && a.end > b.end); });
    std::vector<int64_t> open;
    for (const Slice &s : slices) {
      while (!open.empty() && open.back() <= s.ts) open.pop_back();
      if (!open.empty() && s.end > open.back()) problem(at + s.name + " overlaps the slice before it without nesting");
      open.push_back(s.end);
    }
  }
}

// The checks fail on what Perfetto would reject or draw wrongly.
TEST(TraceFormat, ValidatorCatchesBrokenTraces) {
  auto problemsOf = [](const char *json) {
    std::vector<std::string> problems;
    llvm::Expected<Value> v = llvm::json::parse(json);
    EXPECT_TRUE(bool(v));
    if (v) validate(*v, problems);
    return problems;
  };
  EXPECT_TRUE(problemsOf(R"({"traceEvents": [
      {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "p"}},
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 3, "args": {"name": "t"}},
      {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 3},
      {"name": "b", "ph": "X", "ts": 2, "dur": 5, "pid": 1, "tid": 3},
      {"name": "c", "ph": "C", "ts": 2, "pid": 1, "args": {"bytes": 5}}]})")
                  .empty());
  EXPECT_EQ(problemsOf(R"({"traceEvents": [
      {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "p"}},
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 3, "args": {"name": "t"}},
      {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 3},
      {"name": "b", "ph": "X", "ts": 5, "dur": 10, "pid": 1, "tid": 3}]})"),
            std::vector<std::string>{"track (1, 3): b overlaps the slice before it without nesting"});
  EXPECT_EQ(problemsOf(R"({"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 0, "pid": 2, "tid": 1}]})"),
            (std::vector<std::string>{"event 0: a complete event needs dur > 0", "process 2 has no process_name",
                                      "track (2, 1): no thread_name"}));
  EXPECT_EQ(problemsOf(R"({"traceEvents": [{"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "p"}},
      {"name": "a", "ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 4}, {"name": "c", "ph": "C", "ts": 1, "pid": 1,
      "args": {"bytes": "many"}}, {"name": "z", "ph": "B", "ts": 1, "pid": 1, "tid": 4}]})"),
            (std::vector<std::string>{"event 2: counter series bytes is not a number",
                                      "event 3: phase B (tcp writes X, C and M only)", "track (1, 4): no thread_name"}));
  EXPECT_EQ(problemsOf(R"({"events": []})"), std::vector<std::string>{"no traceEvents array"});
}

std::string traceOf(const tcp::Compilation &c, const std::string &name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  tcp::printTrace(c.costs(), c.schedule(), name, os);
  return os.str();
}

TEST(TraceFormat, EveryTraceOfTheCorpusImports) {
  std::vector<fs::path> files = corpus();
  ASSERT_GE(files.size(), 300u);
  size_t traced = 0, slices = 0;
  for (const fs::path &f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    tcp::Compilation c(llvm::nulls());
    c.setRngdS(text.str().find("--target=rngd-s") != std::string::npos);
    if (!c.load(f.string()) || !c.run(tcp::Phase::Cycles, nullptr)) continue;
    std::string where = fs::relative(f, TCP_SOURCE_DIR).string();
    llvm::Expected<Value> trace = llvm::json::parse(traceOf(c, where));
    if (!trace) {
      ADD_FAILURE() << where << ": not JSON: " << llvm::toString(trace.takeError());
      continue;
    }
    std::vector<std::string> problems;
    validate(*trace, problems);
    for (const std::string &p : problems) ADD_FAILURE() << where << ": " << p;
    // The context tracks hold the schedule: one slice per operation, at its start, for its cycles.
    size_t ops = 0;
    for (const auto &f2 : c.costs().functions) ops += f2.ops.size();
    size_t contextSlices = 0;
    for (const Value &e : *trace->getAsObject()->getArray("traceEvents")) {
      const Object &o = *e.getAsObject();
      if (o.getString("ph") != llvm::StringRef("X")) continue;
      ++slices;
      int64_t tid = *o.getInteger("tid");
      if (tid == 1 || tid == 100 || tid == 200) ++contextSlices;
    }
    size_t zero = 0;  // an op of 0 cycles draws nothing
    for (const auto &f2 : c.costs().functions)
      for (const auto &op : f2.ops) zero += op.cycles == 0;
    EXPECT_EQ(contextSlices + zero, ops) << where;
    ++traced;
  }
  EXPECT_GE(traced, 200u);
  EXPECT_GT(slices, traced);
}

// The GEMM sample, checked against its schedule: the DMA's engines, the main op's engine tracks and
// the occupancy counters (its golden, tests/golden/tools/trace_gemm.tcp, pins the whole JSON).
TEST(TraceFormat, GemmSampleTracksAndCounters) {
  tcp::Compilation c(llvm::nulls());
  ASSERT_TRUE(c.load(std::string(TCP_SOURCE_DIR) + "/samples/hello/gemm.tcp") && c.run(tcp::Phase::Cycles, nullptr));
  llvm::Expected<Value> trace = llvm::json::parse(traceOf(c, "gemm.tcp"));
  ASSERT_TRUE(bool(trace));
  std::map<std::string, std::string> threadNames;  // tid -> name
  std::map<std::string, std::vector<const Object *>> byTrack;
  uint64_t peakDm = 0;
  for (const Value &e : *trace->getAsObject()->getArray("traceEvents")) {
    const Object &o = *e.getAsObject();
    std::string ph = o.getString("ph")->str();
    if (ph == "M" && o.getString("name") == llvm::StringRef("thread_name"))
      threadNames[std::to_string(*o.getInteger("tid"))] = o.getObject("args")->getString("name")->str();
    if (ph == "X") byTrack[std::to_string(*o.getInteger("tid"))].push_back(&o);
    if (ph == "C" && o.getString("name") == llvm::StringRef("dm bytes per slice"))
      peakDm = std::max<uint64_t>(peakDm, *o.getObject("args")->getInteger("bytes"));
  }
  EXPECT_EQ(threadNames["1"], "main context");
  EXPECT_EQ(threadNames["100"], "sub context");
  EXPECT_EQ(threadNames["200"], "DMA");
  EXPECT_EQ(threadNames["210"], "DMA engine (cluster 0, pair 0)");
  EXPECT_EQ(threadNames["213"], "DMA engine (cluster 0, pair 3)");
  EXPECT_EQ(threadNames["17"], "main: reducer");
  ASSERT_EQ(byTrack["200"].size(), 3u);  // to_dm, to_dm, to_hbm
  EXPECT_EQ(byTrack["200"][2]->getString("name"), llvm::StringRef("to_hbm (line 61)"));
  EXPECT_EQ(byTrack["200"][2]->getInteger("ts"), 50168);
  EXPECT_EQ(byTrack["200"][2]->getInteger("dur"), 68767);
  ASSERT_EQ(byTrack["1"].size(), 1u);
  const Object &gemm = *byTrack["1"][0];
  EXPECT_EQ(gemm.getInteger("ts"), 41964);
  EXPECT_EQ(gemm.getInteger("dur"), 8204);
  EXPECT_EQ(gemm.getObject("args")->getObject("engine_cycles")->getInteger("reducer"), 4096);
  // The reducer starts after the fill latencies of fetch, switch, collect and aligner (1 each).
  EXPECT_EQ(byTrack["17"][0]->getInteger("ts"), 41964 + 4);
  EXPECT_EQ(byTrack["17"][0]->getInteger("dur"), 4096 + 5);
  EXPECT_EQ(peakDm, c.costs().functions[0].peakBytes.at(tcp::MemTier::Dm));
}

}  // namespace
