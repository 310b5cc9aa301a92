// repl_bench.cpp — a REPL session's cost per line entered: 40,000 lines against 10,000 (the reference); linear is a ratio of about 4.
#include "Session.h"

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

namespace {

// Half type aliases, half `let` bindings, one input per line, piped as a script.
std::string script(int lines) {
  std::string s = "axes![A = 8, B = 512];\n";
  for (int k = 0; k < lines; ++k)
    s += k % 2 ? "let x" + std::to_string(k) + " = " + std::to_string(k) + ";\n"
               : "type T" + std::to_string(k) + " = m![A, B];\n";
  return s;
}

void BM_ReplSession(benchmark::State &state) {
  std::string text = script(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string out, err;
    llvm::raw_string_ostream os(out), es(err);
    tcp::interp::Session session(os, es);
    std::istringstream in(text);
    benchmark::DoNotOptimize(tcp::interp::runRepl(in, /*interactive=*/false, session));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// 10,000 lines is the reference; 40,000 should take about 4 times as long (items/s stays level).
BENCHMARK(BM_ReplSession)->Arg(10000)->Arg(40000)->Unit(benchmark::kMillisecond);

}  // namespace
