// CyclePrint.cpp — --emit=cycles: the per-operation schedule table, or JSON (llvm::json) with --format=json.
#include "CyclePrint.h"

#include "Roofline.h"

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

const WorkClass kClasses[] = {WorkClass::Hbm, WorkClass::Pcie, WorkClass::Tu, WorkClass::Ve, WorkClass::Other};

std::string percent(double x) { return fmt("%.2f%%", 100.0 * x); }

// One row of the roofline table (Roofline.h; docs/cycle-model.md, Roofline).
std::string rooflineRow(int w, const std::string &name, const Roofline &r) {
  std::string row = fmt("%-*s %9llu", w, name.c_str(), (unsigned long long)r.cycles);
  for (WorkClass c : kClasses) row += fmt(" %7s", percent(r.share(c)).c_str());
  std::string ai = r.hbmBytes ? fmt("%.2f", r.intensity()) : "-";
  row += fmt(" %14llu %11llu %9s %7.2f %-7s %10s %9s %7s", (unsigned long long)r.flops,
             (unsigned long long)r.hbmBytes, ai.c_str(), r.ridge(), r.memoryBound() ? "memory" : "compute",
             percent(r.flopFraction()).c_str(), percent(r.hbmFraction()).c_str(), percent(r.roofFraction()).c_str());
  return row + "\n";
}

void printRooflineText(const ProgramCost &p, const ProgramSchedule &s, int w, llvm::raw_ostream &os) {
  ProgramRoofline r = roofline(p, s);
  os << fmt("roofline (per chip at 1 GHz: %llu bf16 FLOP/cycle = %llu slices x %llu rows x %llu MACs x 2, HBM %llu "
            "B/cycle; time shares overlap)\n",
            (unsigned long long)(2 * peakMacsPerCycle(num::DType::bf16)), (unsigned long long)roof::kSlicesPerChip,
            (unsigned long long)roof::kRowsPerSlice,
            (unsigned long long)(peakMacsPerCycle(num::DType::bf16) / roof::kSlicesPerChip / roof::kRowsPerSlice),
            (unsigned long long)roof::kHbmBytesPerCycle);
  os << fmt("%-*s %9s", w, "kernel", "cycles");
  for (WorkClass c : kClasses) os << fmt(" %7s", workClassName(c));
  os << fmt(" %14s %11s %9s %7s %-7s %10s %9s %7s\n", "flops", "hbm_bytes", "flop/B", "ridge", "bound", "peak_flop%",
            "peak_hbm%", "roof%");
  for (size_t i = 0; i < r.functions.size(); ++i) os << rooflineRow(w, p.functions[i].name, r.functions[i]);
  if (r.functions.size() > 1) os << rooflineRow(w, "(program)", r.program);
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
  printRooflineText(p, s, std::max(w, 9), os);
}

// A fraction in JSON with 6 decimals (llvm::json prints doubles with 17 digits).
void fixed(llvm::json::OStream &j, const char *key, double x) {
  j.attributeBegin(key);
  j.rawValue([&](llvm::raw_ostream &o) { o << fmt("%.6f", x); });
  j.attributeEnd();
}

void rooflineJson(llvm::json::OStream &j, const Roofline &r) {
  j.attribute("cycles", r.cycles);
  j.attributeObject("busy", [&] {
    for (WorkClass c : kClasses) j.attribute(workClassName(c), r.busy[static_cast<int>(c)]);
  });
  j.attribute("macs", r.macs);
  j.attribute("vector_ops", r.vectorOps);
  j.attribute("flops", r.flops);
  j.attribute("hbm_bytes", r.hbmBytes);
  if (r.hbmBytes) fixed(j, "intensity", r.intensity());
  else j.attribute("intensity", nullptr);
  fixed(j, "ridge", r.ridge());
  j.attribute("bound", r.memoryBound() ? "memory" : "compute");
  fixed(j, "flop_fraction", r.flopFraction());
  fixed(j, "hbm_fraction", r.hbmFraction());
  fixed(j, "roof_fraction", r.roofFraction());
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
    ProgramRoofline r = roofline(p, s);
    j.attributeObject("roofline", [&] {
      j.attributeArray("functions", [&] {
        for (size_t i = 0; i < r.functions.size(); ++i)
          j.object([&] {
            j.attribute("kernel", p.functions[i].name);
            rooflineJson(j, r.functions[i]);
          });
      });
      j.attributeObject("program", [&] { rooflineJson(j, r.program); });
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
