// Driver.h — the compilation pipeline: the ordered list of phases and how to stop after any of them.
#pragma once

#include "Ast.h"
#include "Diagnostics.h"
#include "Symbols.h"
#include "CycleModel.h"
#include "Lowering.h"
#include "Scheduler.h"
#include "TypeCheck.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcp {

// The phases of tcpc, in the order they run. `--emit=<name>` stops after a phase and prints it.
enum class Phase { Tokens, Ast, Resolved, Typed, Config, Cycles };

struct PhaseInfo {
  Phase phase;
  const char *name;         // the --emit spelling
  const char *description;  // for --help
};
const std::vector<PhaseInfo> &phases();
std::optional<Phase> phaseByName(const std::string &name);

// One source file on its way through the pipeline.
class Compilation {
 public:
  explicit Compilation(llvm::raw_ostream &diagOut);
  // Reads a file (or "-" for stdin) into the source manager; reports unreadable, binary or
  // oversized files as diagnostics. Returns false on failure.
  bool load(const std::string &path);
  // Same checks as load(), for in-memory source (tests, tools).
  bool loadText(const std::string &text, const std::string &name);
  // Adds an in-memory buffer (REPL input, tests). Returns its buffer id.
  unsigned addBuffer(const std::string &text, const std::string &name);

  // Runs every phase up to and including `last`; if `emit` is set, prints that phase's output.
  // Returns true when no errors were reported.
  bool run(Phase last, llvm::raw_ostream *emit);
  // The REPL: checks, lowers and costs the kernels and stage functions among `names` (declared and
  // resolved already), reporting errors as the phases do, and puts them in the program in place of
  // earlier definitions of the same names. Returns false after an error (nothing is replaced).
  bool define(const std::vector<std::string> &names);
  // --format=json: phases with a JSON form (cycles) print it instead of text.
  void setJson(bool json) { json_ = json; }
  // --emit=trace: the cycles phase prints its schedule as Chrome trace-event JSON (CycleTrace.h).
  void setTrace(bool trace) { trace_ = trace; }
  // Directories searched in order for library modules (`use gemm::gemm;` → gemm.tcp): the
  // `-I DIR`s, then the stdlib (docs/language.md, "Modules"). Until set: the stdlib alone.
  void setSearchPath(std::vector<std::string> dirs) { searchPath_ = std::move(dirs); }
  const std::vector<std::string> &searchPath() const { return searchPath_; }
  // --target=rngd-s: the RNGD-S chip (its extra Fetch Adapter casts).
  void setRngdS(bool rngdS) { rngdS_ = rngdS; }

  llvm::SourceMgr &sourceMgr() { return sm_; }
  Diagnostics &diags() { return diags_; }
  ast::Program *program() { return program_.get(); }
  Symbols &symbols() { return symbols_; }
  const Symbols &symbols() const { return symbols_; }
  const TypedProgram &typed() const { return typed_; }
  const LoweredProgram &lowered() const { return lowered_; }
  const ProgramCost &costs() const { return costs_; }
  const ProgramSchedule &schedule() const { return schedule_; }
  unsigned mainBuffer() const { return mainBuffer_; }
  // The last phase run() finished without errors (nullopt: not even the parse).
  std::optional<Phase> completed() const { return completed_; }
  // Wall seconds of each step run() took, in order (tcpc --time): parse (with the modules),
  // resolve, check (kernels), host (host code), lower, cycles.
  const std::vector<std::pair<const char *, double>> &stepSeconds() const { return steps_; }

 private:
  llvm::SourceMgr sm_;
  Diagnostics diags_;
  std::unique_ptr<ast::Program> program_;
  Symbols symbols_;
  TypedProgram typed_;
  LoweredProgram lowered_;
  ProgramCost costs_;
  ProgramSchedule schedule_;
  bool json_ = false;
  bool trace_ = false;
  bool rngdS_ = false;
  std::vector<std::string> searchPath_;
  bool accept(std::unique_ptr<llvm::MemoryBuffer> buf, const std::string &name);
  void forget(const std::vector<std::string> &names);  // drops these functions from every stage
  unsigned mainBuffer_ = 0;
  std::optional<Phase> completed_;
  std::vector<std::pair<const char *, double>> steps_;
};

}  // namespace tcp
