// lsp_frame.cpp — test tool: turns a script of JSON-RPC messages into LSP's framed stream, and a framed stream back into readable JSON.
//
//   lsp_frame SCRIPT       prints each message of SCRIPT with its Content-Length header
//   lsp_frame --unframe    reads framed messages from stdin and prints each as indented JSON
//
// A SCRIPT holds one JSON message per line (`#` lines and blank lines are skipped); the string
// "$TEXT(FILE)" inside a message stands for the contents of FILE (relative to the working
// directory) as a JSON string. `--unframe` checks every header: a Content-Length that does not match
// the body is an error (exit 1). The golden tests/golden/lsp/session.tcp pipes
// `lsp_frame session.jsonl | tcp-lsp | lsp_frame --unframe`.
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "lsp_frame: cannot read " << path << "\n";
    std::exit(1);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int frame(const std::string &script) {
  std::istringstream lines(readFile(script));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    for (size_t at; (at = line.find("\"$TEXT(")) != std::string::npos;) {
      size_t close = line.find(")\"", at);
      if (close == std::string::npos) break;
      std::string file = line.substr(at + 7, close - at - 7);
      std::string quoted = llvm::formatv("{0}", llvm::json::Value(readFile(file))).str();
      line.replace(at, close + 2 - at, quoted);
    }
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(line);
    if (!v) {
      std::cerr << "lsp_frame: not JSON: " << llvm::toString(v.takeError()) << "\n" << line << "\n";
      return 1;
    }
    std::string body = llvm::formatv("{0}", *v).str();
    std::cout << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  }
  return 0;
}

int unframe() {
  std::string line;
  size_t n = 0;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::string header = "Content-Length: ";
    if (line.compare(0, header.size(), header) != 0) {
      std::cerr << "lsp_frame: expected a Content-Length header, found `" << line << "`\n";
      return 1;
    }
    size_t length = std::stoul(line.substr(header.size()));
    std::getline(std::cin, line);
    if (line != "\r" && !line.empty()) {
      std::cerr << "lsp_frame: the header is not followed by an empty line\n";
      return 1;
    }
    std::string body(length, '\0');
    std::cin.read(body.data(), std::streamsize(length));
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(body);
    if (size_t(std::cin.gcount()) != length || !v) {
      if (!v) llvm::consumeError(v.takeError());
      std::cerr << "lsp_frame: message " << n << " does not match its Content-Length " << length << "\n";
      return 1;
    }
    std::cout << "--- message " << n++ << "\n" << llvm::formatv("{0:2}", *v).str() << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "--unframe") return unframe();
  if (argc == 2) return frame(argv[1]);
  std::cerr << "usage: lsp_frame SCRIPT | lsp_frame --unframe\n";
  return 2;
}
