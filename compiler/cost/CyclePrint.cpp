// CyclePrint.cpp — --emit=cycles: the per-operation schedule table, or JSON (llvm::json) with --format=json.
#include "CyclePrint.h"

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace tcp {

namespace {

const MemTier kTiers[] = {MemTier::Hbm, MemTier::Dm, MemTier::Trf, MemTier::Vrf};
const MemTier kFootprintTiers[] = {MemTier::Dm, MemTier::Trf, MemTier::Vrf};

std::map<MemTier, TierBytes> totalBytes(const ProgramCost &p) {
  std::map<MemTier, TierBytes> t;
  for (MemTier m : kTiers) t[m] = {};
  for (const FunctionCost &f : p.functions)
    for (const OpCost &op : f.ops)
      for (const auto &[m, b] : op.bytes) {
        t[m].read += b.read;
        t[m].write += b.write;
      }
  return t;
}

std::map<MemTier, uint64_t> peak(const ProgramCost &p) {
  std::map<MemTier, uint64_t> t;
  for (MemTier m : kFootprintTiers) t[m] = 0;
  for (const FunctionCost &f : p.functions)
    for (const auto &[m, b] : f.peakBytes) t[m] = std::max(t[m], b);
  return t;
}

// printf into a std::string (column layout of the table).
std::string fmt(const char *f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

void printText(const ProgramCost &p, const ProgramSchedule &s, llvm::raw_ostream &os) {
  int w = 10;  // the kernel column fits the longest function name
  for (const FunctionCost &f : p.functions) w = std::max<int>(w, static_cast<int>(f.name.size()));
  os << fmt("%-*s %-52s %5s %-7s %9s %9s %9s  %s\n", w, "kernel", "op", "line", "context", "start", "end",
                     "cycles", "engines (cycles+latency)");
  for (size_t fi = 0; fi < p.functions.size(); ++fi) {
    const FunctionCost &f = p.functions[fi];
    for (size_t i = 0; i < f.ops.size(); ++i) {
      const OpCost &op = f.ops[i];
      const ScheduledOp &so = s.functions[fi].ops[i];
      std::string engines;
      for (const EngineCost &e : op.engines) {
        if (!engines.empty()) engines += " ";
        engines += e.engine + "=" + std::to_string(e.cycles);
        if (e.latency) engines += "+" + std::to_string(e.latency);
      }
      os << fmt("%-*s %-52s %5u %-7s %9llu %9llu %9llu  ", w, f.name.c_str(), op.name.c_str(), op.line,
                         resourceName(op.resource), (unsigned long long)so.start, (unsigned long long)so.end,
                         (unsigned long long)op.cycles)
         << engines << "\n";
    }
    os << fmt("%-*s makespan %llu cycles\n", w, f.name.c_str(), (unsigned long long)s.functions[fi].makespan);
  }
  os << "total " << s.total << " cycles\n";
  os << "bytes:";
  for (const auto &[m, b] : totalBytes(p)) os << " " << memTierName(m) << " read " << b.read << " write " << b.write << ";";
  os << "\npeak bytes per slice:";
  for (const auto &[m, b] : peak(p)) os << " " << memTierName(m) << " " << b;
  os << "\n";
}

void printJson(const ProgramCost &p, const ProgramSchedule &s, llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("total_cycles", s.total);
    j.attributeArray("ops", [&] {
      for (size_t fi = 0; fi < p.functions.size(); ++fi) {
        const FunctionCost &f = p.functions[fi];
        for (size_t i = 0; i < f.ops.size(); ++i) {
          const OpCost &op = f.ops[i];
          const ScheduledOp &so = s.functions[fi].ops[i];
          j.object([&] {
            j.attribute("kernel", f.name);
            j.attribute("name", op.name);
            j.attribute("line", op.line);
            j.attribute("context", resourceName(op.resource));
            j.attribute("start", so.start);
            j.attribute("end", so.end);
            j.attribute("cycles", op.cycles);
            j.attributeObject("engines", [&] {
              for (const EngineCost &e : op.engines) j.attribute(e.engine, e.cycles);
            });
            j.attributeObject("latencies", [&] {
              for (const EngineCost &e : op.engines) j.attribute(e.engine, e.latency);
            });
          });
        }
      }
    });
    j.attributeObject("bytes", [&] {
      for (const auto &tierBytes : totalBytes(p)) {  // (clang: no structured binding in the lambda)
        const auto &b = tierBytes.second;
        j.attributeObject(memTierName(tierBytes.first), [&] {
          j.attribute("read", b.read);
          j.attribute("write", b.write);
        });
      }
    });
    j.attributeObject("peak_bytes", [&] {
      for (const auto &[m, b] : peak(p)) j.attribute(memTierName(m), b);
    });
  });
  os << "\n";
}

}  // namespace

void printCycles(const ProgramCost &p, const ProgramSchedule &s, llvm::raw_ostream &os, bool json) {
  if (json)
    printJson(p, s, os);
  else
    printText(p, s, os);
}

}  // namespace tcp
