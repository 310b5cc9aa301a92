// CommandLine.h — the options every tcp tool shares (--help, --version, --print-stdlib-dir, one positional FILE) and
// their handling; included by the tcpc and tcpi mains, which link Boost.Program_options.
#pragma once

#include "StdlibDir.h"

#include <boost/program_options.hpp>
#include <llvm/Support/FileSystem.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace tcp::cli {

namespace po = boost::program_options;

inline void addCommonOptions(po::options_description &visible) {
  visible.add_options()("help,h", "print this help and exit")("version", "print the version and exit")(
      "print-stdlib-dir", "print the directory of the kernel library (stdlib) the tools use and exit")(
      "include,I", po::value<std::vector<std::string>>()->composing()->value_name("DIR"),
      "add DIR to the search path of library modules (`use gemm::gemm;` loads DIR/gemm.tcp or "
      "DIR/gemm/mod.tcp); searched in order, before the stdlib");
}

// The search path for library modules: the -I directories in order, then the stdlib.
inline std::vector<std::string> searchPath(const po::variables_map &vm, const char *argv0) {
  std::vector<std::string> dirs;
  if (vm.count("include")) dirs = vm["include"].as<std::vector<std::string>>();
  dirs.push_back(stdlibDir(argv0));
  return dirs;
}

// Parses argv into vm (FILE is positional). Returns the exit status when the tool is done (usage
// error: 2; --help or --version printed: 0), or nullopt to go on.
inline std::optional<int> parse(const char *tool, int argc, char **argv, const po::options_description &visible,
                                const std::string &helpFooter, po::variables_map &vm) {
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "input file");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("file", 1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    std::cerr << tool << ": error: " << e.what() << "\n(run '" << tool << " --help' for usage)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible << helpFooter;
    return 0;
  }
  if (vm.count("version")) {
    std::cout << tool << " " << TCP_VERSION << "\n";
    return 0;
  }
  if (vm.count("include"))
    for (const std::string &dir : vm["include"].as<std::vector<std::string>>())
      if (!llvm::sys::fs::is_directory(dir)) {
        std::cerr << tool << ": error: -I '" << dir << "': no such directory (the search path of library modules "
                  << "holds directories)\n(run '" << tool << " --help' for usage)\n";
        return 2;
      }
  if (vm.count("print-stdlib-dir")) {
    std::cout << stdlibDir(argc > 0 ? argv[0] : nullptr) << "\n";
    return 0;
  }
  return std::nullopt;
}

}  // namespace tcp::cli
