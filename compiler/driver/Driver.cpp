// Driver.cpp — runs the phases of the pipeline in order and stops after the one asked for.
#include "Driver.h"
#include "SourceRead.h"

#include <llvm/Support/FileSystem.h>

#include "BankStarvation.h"

#include "AstPrinter.h"
#include "CyclePrint.h"
#include "CycleTrace.h"
#include "HostCheck.h"
#include "Imports.h"
#include "ModuleLoader.h"
#include "Parser.h"
#include "Resolver.h"
#include "StdlibDir.h"

#include <llvm/Support/MemoryBuffer.h>

#include <chrono>

namespace tcp {

namespace {
// Appends the wall seconds since the last mark to `steps` under `name` (tcpc --time).
class StepClock {
 public:
  explicit StepClock(std::vector<std::pair<const char *, double>> &steps) : steps_(steps) { steps_.clear(); }
  void mark(const char *name) {
    auto now = std::chrono::steady_clock::now();
    steps_.emplace_back(name, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  std::vector<std::pair<const char *, double>> &steps_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};
}  // namespace

const std::vector<PhaseInfo> &phases() {
  static const std::vector<PhaseInfo> kPhases = {
      {Phase::Tokens, "tokens", "the token stream (line:col KIND 'text')"},
      {Phase::Ast, "ast", "the abstract syntax tree"},
      {Phase::Resolved, "resolved", "axes, aliases in normal form and functions after name resolution"},
      {Phase::Typed, "typed", "kernels and stage functions as checked chains of typed ops"},
      {Phase::Config, "config", "per-engine configurations of every Tensor Unit operation"},
      {Phase::Cycles, "cycles", "estimated cycles per operation, the schedule, bytes and footprints"},
  };
  return kPhases;
}

std::optional<Phase> phaseByName(const std::string &name) {
  for (const PhaseInfo &p : phases())
    if (name == p.name) return p.phase;
  return std::nullopt;
}

Compilation::Compilation(llvm::raw_ostream &diagOut) : diags_(sm_, diagOut), searchPath_{stdlibDir(nullptr)} {}

unsigned Compilation::addBuffer(const std::string &text, const std::string &name) {
  auto buf = llvm::MemoryBuffer::getMemBufferCopy(text, name);
  return sm_.AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
}

bool Compilation::load(const std::string &path) {
  std::string text;
  std::string error = readSourceBounded(path, text);
  if (!error.empty()) {
    diags_.errorNoLoc(error);
    return false;
  }
  return accept(llvm::MemoryBuffer::getMemBufferCopy(text, path), path);
}

bool Compilation::loadText(const std::string &text, const std::string &name) {
  return accept(llvm::MemoryBuffer::getMemBufferCopy(text, name), name);
}

bool Compilation::accept(std::unique_ptr<llvm::MemoryBuffer> buf, const std::string &name) {
  llvm::StringRef text = buf->getBuffer();
  if (text.size() > kMaxSourceBytes) {
    diags_.errorNoLoc("'" + name + "' is " + std::to_string(text.size() >> 20) +
                      " MiB; source files are limited to 64 MiB");
    return false;
  }
  size_t nul = text.find('\0');
  if (nul != llvm::StringRef::npos) {
    diags_.errorNoLoc("'" + name + "' is not a text file (NUL byte at offset " + std::to_string(nul) + ")");
    return false;
  }
  mainBuffer_ = sm_.AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
  return true;
}

bool Compilation::run(Phase last, llvm::raw_ostream *emit) {
  // Phase 1: tokens. Lexing is part of parsing; --emit=tokens prints the stream alone.
  if (last == Phase::Tokens) {
    if (emit) dumpTokens(sm_, mainBuffer_, *emit);
    return !diags_.hasErrors();
  }
  StepClock clock(steps_);
  // Phase 2: parse into the AST: the file and every module it loads (`mod`, `use`), their imports
  // checked, merged into one program (ModuleLoader.h, Imports.h).
  {
    ModuleLoader loader(sm_, diags_, searchPath_);
    ModuleTree tree = loader.load(mainBuffer_);
    if (!diags_.hasErrors()) checkImports(tree, diags_);
    program_ = mergeModules(tree);
  }
  clock.mark("parse");
  if (diags_.hasErrors()) return false;
  completed_ = Phase::Ast;
  if (last == Phase::Ast) {
    if (emit) printAst(*program_, sm_, *emit);
    return true;
  }
  // Phase 3: name resolution and mapping checks.
  Resolver resolver(symbols_, diags_);
  resolver.resolveProgram(*program_);
  clock.mark("resolve");
  if (diags_.hasErrors()) return false;
  completed_ = Phase::Resolved;
  if (last == Phase::Resolved) {
    if (emit) printResolved(symbols_, *emit);
    return true;
  }
  // Phase 4: tensor types, the stream typestate and every engine rule.
  TypeChecker checker(symbols_, diags_);
  checker.setRngdS(rngdS_);
  typed_ = checker.check();
  clock.mark("check");
  // Host code (main, #[test] functions, host helpers) against the host API and the typed kernels.
  checkHostCode(symbols_, typed_, diags_);
  clock.mark("host");
  if (diags_.hasErrors()) return false;
  completed_ = Phase::Typed;
  if (last == Phase::Typed) {
    if (emit) printTyped(typed_, *emit);
    return true;
  }
  // Phase 5: engine configurations (sequencers, collect, aligner, reducer, vector, cast, commit).
  lowered_ = lower(typed_, diags_);
  clock.mark("lower");
  if (diags_.hasErrors()) return false;
  completed_ = Phase::Config;
  if (last == Phase::Config) {
    if (emit) printConfig(lowered_, *emit);
    return true;
  }
  // Phase 6: cycle estimates per operation, scheduled on main / sub / DMA (docs/cycle-model.md).
  costs_ = costProgram(typed_, lowered_);
  schedule_ = tcp::schedule(costs_);
  reportBankStarvation(costs_, schedule_, diags_);
  clock.mark("cycles");
  completed_ = Phase::Cycles;
  if (last == Phase::Cycles) {
    if (emit && trace_) printTrace(costs_, schedule_, sm_.getMemoryBuffer(mainBuffer_)->getBufferIdentifier().str(), *emit);
    else if (emit) printCycles(costs_, schedule_, *emit, json_);
    return true;
  }
  return !diags_.hasErrors();
}

namespace {
// Puts `item` in `list` in place of the element named `name`, or appends it; returns its index.
template <typename T>
size_t replaceOrAppend(std::vector<T> &list, const std::string &name, T item) {
  for (size_t k = 0; k < list.size(); ++k)
    if (list[k].name == name) {
      list[k] = std::move(item);
      return k;
    }
  list.push_back(std::move(item));
  return list.size() - 1;
}
}  // namespace

void Compilation::forget(const std::vector<std::string> &names) {
  for (const std::string &name : names)
    for (size_t k = typed_.functions.size(); k-- > 0;) {
      if (typed_.functions[k].name != name) continue;
      typed_.functions.erase(typed_.functions.begin() + k);
      if (k < lowered_.functions.size()) lowered_.functions.erase(lowered_.functions.begin() + k);
      if (k < costs_.functions.size()) costs_.functions.erase(costs_.functions.begin() + k);
      if (k < schedule_.functions.size()) schedule_.functions.erase(schedule_.functions.begin() + k);
    }
  schedule_.total = 0;
  for (const FunctionSchedule &f : schedule_.functions) schedule_.total += f.makespan;
}

bool Compilation::define(const std::vector<std::string> &names) {
  unsigned before = diags_.errorCount();
  TypeChecker checker(symbols_, diags_);
  checker.setRngdS(rngdS_);
  TypedProgram typed = checker.check(names);
  // A definition that fails leaves the earlier one in place (the session restores its symbols).
  if (diags_.errorCount() != before) return false;
  if (typed.functions.empty()) return forget(names), true;  // host functions now hold those names
  LoweredProgram lowered = lower(typed, diags_);
  if (diags_.errorCount() != before) return false;
  ProgramCost costs = costProgram(typed, lowered);
  ProgramSchedule sched = tcp::schedule(costs);
  reportBankStarvation(costs, sched, diags_);
  // The later stages' lists stay parallel to the typed program's (a session that stopped before
  // the cycles has no costs yet: they are computed for the whole program now).
  bool costed = costs_.functions.size() == typed_.functions.size();
  for (size_t k = 0; k < typed.functions.size(); ++k) {
    std::string name = typed.functions[k].name;
    size_t at = replaceOrAppend(typed_.functions, name, std::move(typed.functions[k]));
    replaceOrAppend(lowered_.functions, name, std::move(lowered.functions[k]));
    if (!costed) continue;
    replaceOrAppend(costs_.functions, name, std::move(costs.functions[k]));
    if (at < schedule_.functions.size()) schedule_.functions[at] = std::move(sched.functions[k]);
    else schedule_.functions.push_back(std::move(sched.functions[k]));
  }
  if (!costed) {
    costs_ = costProgram(typed_, lowered_);
    schedule_ = tcp::schedule(costs_);
  }
  schedule_.total = 0;
  for (const FunctionSchedule &f : schedule_.functions) schedule_.total += f.makespan;
  return true;
}

}  // namespace tcp
