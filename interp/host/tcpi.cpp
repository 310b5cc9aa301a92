// tcpi.cpp — the tcp interpreter command line: run a .tcp file's main or tests, or start the REPL.
#include "CommandLine.h"
#include "HugePages.h"
#include "HostLimits.h"
#include "PhaseTimer.h"
#include "Session.h"

#include <boost/program_options.hpp>
#include <llvm/LineEditor/LineEditor.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace po = boost::program_options;

int main(int argc, char **argv) {
  tcp::cli::preferHugePages(argv);
  po::options_description visible(
      "Usage: tcpi [FILE] [options]\n\n"
      "With FILE, checks it and runs its `fn main`. Without FILE, starts a REPL; when standard\n"
      "input is not a terminal, reads and evaluates it as a script.\n\nOptions");
  tcp::cli::addCommonOptions(visible);
  visible.add_options()
      ("test", "run the file's #[test] functions instead of main")
      ("max-steps", po::value<uint64_t>()->default_value(tcp::interp::kDefaultMaxSteps),
       "most expressions host code may evaluate in one run (main, a test, a REPL input)")
      ("max-memory", po::value<std::string>()->default_value(tcp::interp::byteText(tcp::interp::defaultMaxMemory())),
       "most memory the process may hold for host tensors and tables (bytes, or with K/M/G suffix)")
      ("time", "print the wall time of checking, kernel launches, PCIe DMA (to_hbm, to_host) and the answer key "
               "`contraction` to standard error")
      ("target", po::value<std::string>()->default_value("rngd"),
       "the chip: rngd or rngd-s (adds the RNGD-S fetch casts i4/i16 -> i9, f8 -> bf16)");
  po::variables_map vm;
  if (auto status = tcp::cli::parse("tcpi", argc, argv, visible,
                                    "\nREPL commands:\n" + tcp::interp::Session::helpText() +
                                        "\nExit status: 0 on success, 1 on errors or failed checks, 2 on usage errors.\n",
                                    vm))
    return *status;
  const std::string target = vm["target"].as<std::string>();
  if (target != "rngd" && target != "rngd-s") {
    std::cerr << "tcpi: error: unknown target '" << target << "' for --target; targets are rngd and rngd-s\n";
    return 2;
  }
  uint64_t maxMemory = 0;
  std::string memText = vm["max-memory"].as<std::string>();
  if (vm["max-memory"].defaulted()) maxMemory = tcp::interp::defaultMaxMemory();
  else if (!tcp::interp::parseByteCount(memText, maxMemory) || maxMemory == 0) {
    std::cerr << "tcpi: error: invalid --max-memory '" << memText << "': a byte count such as 4G or 512M\n";
    return 2;
  }
  tcp::interp::HostLimits::get() = {vm["max-steps"].as<uint64_t>(), maxMemory};
  tcp::interp::Session session(llvm::outs(), llvm::errs());
  session.setRngdS(target == "rngd-s");
  session.setSearchPath(tcp::cli::searchPath(vm, argv[0]));
  if (vm.count("file")) {
    auto start = std::chrono::steady_clock::now();
    if (!session.loadFile(vm["file"].as<std::string>())) return 1;
    double check = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool ok = vm.count("test") ? session.runTests() : session.runMain();
    llvm::outs().flush();
    if (vm.count("time")) {
      using tcp::interp::Phase;
      llvm::errs() << llvm::format("tcpi: time: check %.6f s", check);
      for (Phase p : {Phase::Launch, Phase::ToHbm, Phase::ToHost, Phase::AnswerKey})
        llvm::errs() << llvm::format(", %s %.6f s", tcp::interp::phaseName(p), tcp::interp::phaseSeconds(p));
      llvm::errs() << llvm::format(" (of the launches: dma %.6f s, chains %.6f s)",
                                   tcp::interp::phaseSeconds(Phase::KernelDma), tcp::interp::phaseSeconds(Phase::KernelChains));
      llvm::errs() << "\ntcpi: cpu time (all threads):";
      for (Phase p : {Phase::Launch, Phase::ToHbm, Phase::ToHost, Phase::AnswerKey})
        llvm::errs() << llvm::format(" %s %.6f s%s", tcp::interp::phaseName(p), tcp::interp::phaseCpuSeconds(p),
                                     p == Phase::AnswerKey ? "" : ",");
      llvm::errs() << llvm::format(" (of the launches: dma %.6f s, chains %.6f s)",
                                   tcp::interp::phaseCpuSeconds(Phase::KernelDma), tcp::interp::phaseCpuSeconds(Phase::KernelChains));
      llvm::errs() << llvm::format("\ntcpi: device memory: %llu bytes resident at the end of a launch (peak),"
                                   " %llu more read from broadcasts held once (DM ranges, TRF tensors)\n",
                                   (unsigned long long)tcp::interp::peakDeviceBytes(),
                                   (unsigned long long)tcp::interp::peakSharedDeviceBytes());
    }
    return ok ? 0 : 1;
  }
  if (vm.count("test")) {
    std::cerr << "tcpi: error: --test needs a FILE\n";
    return 2;
  }
  // History persists in $TCPI_HISTORY, else ~/.tcpi-history (interactive sessions only).
  const char *history = std::getenv("TCPI_HISTORY");
  std::string historyPath = history ? history : llvm::LineEditor::getDefaultHistoryPath("tcpi");
  return tcp::interp::runRepl(std::cin, isatty(0) != 0, session, historyPath);
}
