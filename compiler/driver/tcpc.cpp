// tcpc.cpp — the tcp compiler command line: check a .tcp file or print any phase of the pipeline.
#include "BinaryReader.h"
#include "BinaryWriter.h"
#include "CommandLine.h"
#include "DiagnosticJson.h"
#include "Driver.h"
#include "HugePages.h"

#include <boost/program_options.hpp>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <iostream>

namespace po = boost::program_options;

int main(int argc, char **argv) {
  tcp::cli::preferHugePages(argv);
  std::string emitName;
  std::string formatName = "text";
  std::string targetName = "rngd";
  std::string outputPath;
  std::string phaseList;
  for (const tcp::PhaseInfo &p : tcp::phases())
    phaseList += std::string("\n  ") + p.name + std::string(10 - std::string(p.name).size(), ' ') + p.description;
  // Not a phase of its own: the cycles phase's schedule in another form.
  phaseList += "\n  trace     the cycles phase's schedule as Chrome trace-event JSON for Perfetto (-o FILE.json: to that file)";

  po::options_description visible(
      "Usage: tcpc FILE [options]\n       tcpc FILE -o FILE.tcpb\n       tcpc FILE --emit=trace -o FILE.json\n"
      "       tcpc --disassemble FILE.tcpb\n\nOptions");
  tcp::cli::addCommonOptions(visible);
  visible.add_options()
      ("check", "run every phase (parse, resolve, type-check, lower, estimate); print nothing on success")
      ("emit", po::value<std::string>(&emitName), ("stop after a phase and print it:" + phaseList).c_str())
      ("format", po::value<std::string>(&formatName),
       "output form of --emit=cycles and of the diagnostics: text (default) or json (diagnostics as one "
       "JSON object on stderr, printed when there are any)")
      ("target", po::value<std::string>(&targetName),
       "the chip: rngd (default) or rngd-s (adds the RNGD-S fetch casts i4/i16 -> i9, f8 -> bf16)")
      ("output,o", po::value<std::string>(&outputPath),
       "write the engine configurations as a binary (.tcpb) after every phase succeeds (with "
       "--emit=trace: write the trace there instead)")
      ("disassemble", "read a binary written by -o and print it as --emit=config does")
      ("time", "print the wall time of each step (parse, resolve, check, host, lower, cycles) on stderr");
  po::variables_map vm;
  if (auto status = tcp::cli::parse("tcpc", argc, argv, visible,
                                    "\nExit status: 0 on success, 1 on errors in the program, 2 on usage errors.\n", vm))
    return *status;
  if (!vm.count("file")) {
    std::cerr << "tcpc: error: no input file\n(run 'tcpc --help' for usage)\n";
    return 2;
  }

  if (vm.count("disassemble")) {
    if (vm.count("emit") || vm.count("output") || vm.count("check")) {
      std::cerr << "tcpc: error: --disassemble takes only a binary file (no --emit, -o or --check)\n"
                   "(run 'tcpc --help' for usage)\n";
      return 2;
    }
    tcp::BinaryReadResult r = tcp::readBinaryFile(vm["file"].as<std::string>());
    if (!r.ok()) {
      std::cerr << "tcpc: error: " << r.error << "\n";
      return 1;
    }
    tcp::printConfig(*r.program, llvm::outs());
    llvm::outs().flush();
    return 0;
  }

  tcp::Phase last = tcp::phases().back().phase;
  llvm::raw_ostream *emit = nullptr;
  bool trace = vm.count("emit") && emitName == "trace";
  if (trace) {
    last = tcp::Phase::Cycles;
    emit = &llvm::outs();
  } else if (vm.count("emit")) {
    auto p = tcp::phaseByName(emitName);
    if (!p) {
      std::cerr << "tcpc: error: unknown phase '" << emitName << "' for --emit; phases are:" << phaseList << "\n";
      return 2;
    }
    last = *p;
    emit = &llvm::outs();
  }
  if (vm.count("output") && last < tcp::Phase::Config) {
    std::cerr << "tcpc: error: -o writes the engine configurations; it needs the phases up to config\n"
                 "(run 'tcpc --help' for usage)\n";
    return 2;
  }

  if (formatName != "text" && formatName != "json") {
    std::cerr << "tcpc: error: unknown format '" << formatName << "' for --format; formats are text and json\n";
    return 2;
  }

  if (targetName != "rngd" && targetName != "rngd-s") {
    std::cerr << "tcpc: error: unknown target '" << targetName << "' for --target; targets are rngd and rngd-s\n";
    return 2;
  }

  // --emit=trace -o FILE: the trace goes to FILE (and no binary is written), once every phase succeeded.
  std::string traceText;
  llvm::raw_string_ostream traceStream(traceText);
  bool traceToFile = trace && vm.count("output");
  if (traceToFile) emit = &traceStream;

  tcp::Compilation comp(llvm::errs());
  comp.setJson(formatName == "json");
  comp.setTrace(trace);
  comp.setRngdS(targetName == "rngd-s");
  comp.setSearchPath(tcp::cli::searchPath(vm, argv[0]));
  // --format=json: the diagnostics are collected and printed as one JSON object when the run ends.
  std::vector<tcp::DiagnosticRecord> records;
  if (formatName == "json") comp.diags().setSink([&](const tcp::DiagnosticRecord &r) { records.push_back(r); });
  struct PrintRecords {
    std::vector<tcp::DiagnosticRecord> &records;
    ~PrintRecords() {
      if (!records.empty()) tcp::printDiagnosticsJson(records, llvm::errs());
    }
  } printRecords{records};
  const std::string input = vm["file"].as<std::string>();
  if (vm.count("output") && input != "-" && outputPath != "-" && llvm::sys::fs::equivalent(input, outputPath)) {
    std::cerr << "tcpc: error: refusing to write the output to '" << outputPath << "': it is the input file\n";
    return 1;
  }
  if (!comp.load(input)) return 1;
  bool ok = comp.run(last, emit);
  llvm::outs().flush();
  if (vm.count("time")) {
    double total = 0;
    llvm::errs() << "tcpc: time:";
    for (const auto &[name, seconds] : comp.stepSeconds()) {
      llvm::errs() << llvm::format(" %s %.6f s,", name, seconds);
      total += seconds;
    }
    llvm::errs() << llvm::format(" total %.6f s\n", total);
  }
  if (ok && traceToFile) {
    std::string error;
    if (!tcp::writeFileAtomically(outputPath, traceStream.str(), error)) {
      std::cerr << "tcpc: error: " << error << "\n";
      return 1;
    }
  }
  if (ok && vm.count("output") && !trace) {
    std::string error;
    if (!tcp::writeBinaryFile(comp.lowered(), outputPath, error)) {
      std::cerr << "tcpc: error: " << error << "\n";
      return 1;
    }
  }
  return ok ? 0 : 1;
}
