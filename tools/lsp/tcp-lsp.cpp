// tcp-lsp.cpp — the tcp language server: LSP over stdin/stdout for editors (editors/vscode/).
#include "CommandLine.h"
#include "LspAnalysis.h"
#include "LspServer.h"

#include <iostream>

int main(int argc, char **argv) {
  boost::program_options::options_description visible(
      "Usage: tcp-lsp\n\nA Language Server Protocol server for .tcp files on stdin/stdout: diagnostics as tcpc\n"
      "reports them, hover (types, mappings), go-to-definition and completion of engine methods.\n\nOptions");
  tcp::cli::addCommonOptions(visible);
  boost::program_options::variables_map vm;
  if (auto status = tcp::cli::parse("tcp-lsp", argc, argv, visible, "", vm)) return *status;
  if (vm.count("file")) {
    std::cerr << "tcp-lsp: error: tcp-lsp takes no file; an editor starts it and talks over stdin/stdout\n";
    return 2;
  }
  tcp::lsp::setLibrarySearchPath(tcp::cli::searchPath(vm, argc > 0 ? argv[0] : nullptr));
  std::ios::sync_with_stdio(false);
  tcp::lsp::Server server(std::cin, std::cout);
  return server.run();
}
