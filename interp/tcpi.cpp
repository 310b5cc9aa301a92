// tcpi.cpp — the tcp interpreter command line: run a .tcp file's main or tests, or start the REPL.
#include "Session.h"

#include <boost/program_options.hpp>
#include <llvm/Support/raw_ostream.h>

#include <iostream>
#include <unistd.h>

namespace po = boost::program_options;

int main(int argc, char **argv) {
  po::options_description visible(
      "Usage: tcpi [FILE] [options]\n\n"
      "With FILE, checks it and runs its `fn main`. Without FILE, starts a REPL; when standard\n"
      "input is not a terminal, reads and evaluates it as a script.\n\nOptions");
  visible.add_options()
      ("help,h", "print this help and exit")
      ("version", "print the version and exit")
      ("test", "run the file's #[test] functions instead of main");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "input file");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    std::cerr << "tcpi: error: " << e.what() << "\n(run 'tcpi --help' for usage)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << visible << "\nREPL commands:\n" << tcp::interp::Session::helpText()
              << "\nExit status: 0 on success, 1 on errors or failed checks, 2 on usage errors.\n";
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "tcpi " << TCP_VERSION << "\n";
    return 0;
  }
  tcp::interp::Session session(llvm::outs(), llvm::errs());
  if (vm.count("file")) {
    if (!session.loadFile(vm["file"].as<std::string>())) return 1;
    bool ok = vm.count("test") ? session.runTests() : session.runMain();
    llvm::outs().flush();
    return ok ? 0 : 1;
  }
  if (vm.count("test")) {
    std::cerr << "tcpi: error: --test needs a FILE\n";
    return 2;
  }
  return tcp::interp::runRepl(std::cin, isatty(0) != 0, session);
}
