// golden_runner.cpp — runs every golden .tcp test under a directory and compares what users see.
//
// A test is a file `NAME.tcp` (or `NAME.repl`, fed to tcpi on stdin). Directives in `//` comments:
//   // RUN: tcpc --emit=ast %s      the command (default: `tcpc --check %s`; `.repl`: `tcpi < %s`)
//   // error@+1: message           a diagnostic `error: message` on the next line (also @-N, or
//   // error: message              on this line); every error printed must be expected
//   // expect: text                stdout contains this line (in order)
//   // exit: N                     expected exit status (default: 1 with errors, else 0)
//   // timeout: S                  the RUN line must finish within S seconds (times $TCP_GOLDEN_TIME_SCALE,
//                                  e.g. 10 under sanitizers); it is killed after 3 times that
// A RUN line may chain commands with `&&`, `||`, `|` or `;`: each command naming a tool of the build
// (tcpc, tcpi) runs that build's binary. `%t` is a scratch path prefix (removed afterwards; printed
// back as `%t`; files or directories), e.g. `tcpc ../x.tcp -o %t.tcpb && tcpc --disassemble %t.tcpb`.
// Other commands (`cd`, `/usr/bin/python3 script.py`) run as written. Test tools built next
// to this runner (`tcpb_patch`, which corrupts one field of a binary) are found the same way.
// A sibling `NAME.out` pins stdout, then `--- stderr` and stderr, then `--- exit N` when N != 0.
// A file with a `// FIXTURE: ...` line is a module the tests load (`mod`, `use`), not a test.
// `--update` rewrites the .out files. Tests named fail_* must pin at least one error message.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string binDir;
  std::string toolDir;  // the runner's own directory: test tools (tcpb_patch)
  std::string testDir;
  bool update = false;
  std::string filter;
};

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Expected {
  unsigned line;
  std::string message;
  bool matched = false;
};

struct Result {
  std::string out, err;
  int exit = 0;
  double seconds = 0;
};

// Slowdown allowed for `// timeout:` bounds (sanitizer builds run several times slower).
double timeScale() {
  const char *s = std::getenv("TCP_GOLDEN_TIME_SCALE");
  double v = s ? std::atof(s) : 1.0;
  return v > 0 ? v : 1.0;
}

// Expands the first word of every command in a chain (`a && b | c; d`) that names a tool of the build.
std::string expandTools(const Options &opt, const std::string &cmd) {
  static const std::regex cmdStart(R"((^|&&|\|\||\||;)(\s*)([A-Za-z_][\w-]*))");
  std::string out;
  auto begin = std::sregex_iterator(cmd.begin(), cmd.end(), cmdStart);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch &m = *it;
    std::string word = m[3];
    size_t at = m.position(3);
    out += cmd.substr(last, at - last);
    if (fs::exists(opt.binDir + "/" + word)) out += shellQuote(opt.binDir + "/" + word);
    else if (!opt.toolDir.empty() && fs::exists(opt.toolDir + "/" + word)) out += shellQuote(opt.toolDir + "/" + word);
    else out += word;
    last = at + word.size();
  }
  return out + cmd.substr(last);
}

void replaceAll(std::string &s, const std::string &from, const std::string &to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
}

Result run(const Options &opt, const fs::path &test, std::string cmd, double timeout) {
  // Expand tool names to the build's binaries, %s to the test path and %t to a scratch prefix.
  fs::path tmp = fs::temp_directory_path() / ("tcp_golden_" + std::to_string(getpid()));
  std::string scratch = tmp.string() + ".t";
  std::string rest = expandTools(opt, cmd);
  replaceAll(rest, "%s", shellQuote(test.filename().string()));
  replaceAll(rest, "%t", scratch);
  // The command's own `<` redirection, if any, takes precedence over the outer </dev/null.
  // A time bound kills the whole command (coreutils timeout) well after the bound is missed.
  if (timeout > 0) rest = "timeout -k 1 " + std::to_string(int(timeout * 3) + 1) + " sh -c " + shellQuote(rest);
  std::string full = "cd " + shellQuote(test.parent_path().string()) + " && ( " + rest + " ) >" +
                     shellQuote(tmp.string() + ".out") + " 2>" + shellQuote(tmp.string() + ".err") + " </dev/null";
  auto start = std::chrono::steady_clock::now();
  int status = std::system(full.c_str());
  Result r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = readFile(tmp.string() + ".out");
  r.err = readFile(tmp.string() + ".err");
  replaceAll(r.out, scratch, "%t");
  replaceAll(r.err, scratch, "%t");
  fs::remove(tmp.string() + ".out");
  fs::remove(tmp.string() + ".err");
  std::error_code ec;
  if (cmd.find("%t") != std::string::npos)
    for (const auto &entry : fs::directory_iterator(fs::temp_directory_path(), ec))
      if (entry.path().filename().string().rfind(fs::path(scratch).filename().string(), 0) == 0)
        fs::remove_all(entry.path(), ec);  // a scratch directory too (samples/transformer writes its .npy files there)
  return r;
}

std::string renderOut(const Result &r) {
  std::string s = r.out;
  if (!r.err.empty()) s += "--- stderr\n" + r.err;
  if (r.exit != 0) s += "--- exit " + std::to_string(r.exit) + "\n";
  return s;
}

// Returns an empty string on success, else a description of the failure.
std::string check(const Options &opt, const fs::path &test) {
  std::string text = readFile(test);
  std::vector<std::string> src = lines(text);
  bool repl = test.extension() == ".repl";
  std::string cmd = repl ? "tcpi < %s" : "tcpc --check %s";
  std::vector<Expected> errors;
  std::vector<std::string> expects;
  int exitWanted = -1;
  double timeout = 0;
  static const std::regex errRe(R"(//\s*error(@([+-]\d+))?:\s*(.*\S)\s*$)");
  static const std::regex runRe(R"(^\s*//\s*RUN:\s*(.*\S)\s*$)");
  static const std::regex expectRe(R"(^\s*//\s*expect:\s?(.*)$)");
  static const std::regex exitRe(R"(^\s*//\s*exit:\s*(\d+)\s*$)");
  static const std::regex timeoutRe(R"(^\s*//\s*timeout:\s*([0-9.]+)\s*s?\s*$)");
  for (unsigned k = 0; k < src.size(); ++k) {
    std::smatch m;
    if (std::regex_search(src[k], m, runRe)) cmd = m[1];
    else if (std::regex_search(src[k], m, expectRe)) expects.push_back(m[1]);
    else if (std::regex_search(src[k], m, exitRe)) exitWanted = std::stoi(m[1]);
    else if (std::regex_search(src[k], m, timeoutRe)) timeout = std::stod(m[1]) * timeScale();
    else if (std::regex_search(src[k], m, errRe)) {
      int offset = m[2].matched ? std::stoi(m[2]) : 0;
      errors.push_back({static_cast<unsigned>(static_cast<int>(k) + 1 + offset), m[3]});
    }
  }
  fs::path outFile = test;
  outFile.replace_extension(".out");
  bool hasOut = fs::exists(outFile);
  std::string name = test.filename().string();
  if (name.rfind("fail_", 0) == 0 && errors.empty() && !hasOut && !opt.update)
    return "a fail_ test must pin its error messages (// error@+1: ... or a .out file)";

  Result r = run(opt, test, cmd, timeout);
  std::string problems;
  if (timeout > 0 && r.seconds > timeout)
    problems += "took " + std::to_string(r.seconds) + " s, more than its bound of " + std::to_string(timeout) + " s\n";
  if (hasOut || (opt.update && errors.empty() && expects.empty())) {
    std::string actual = renderOut(r);
    if (opt.update) {
      // A test with no expectations that prints nothing and exits 0 pins that by default: no empty .out.
      if (hasOut || !actual.empty()) std::ofstream(outFile, std::ios::binary) << actual;
    } else if (actual != readFile(outFile)) {
      problems += "output differs from " + outFile.filename().string() + "; actual:\n" + actual;
    }
  }
  // Inline error expectations: every `file:L:C: error: msg` must be expected, and vice versa.
  static const std::regex diagRe(R"(^[^:\s]+:(\d+):(\d+): error: (.*)$)");
  for (const std::string &l : lines(r.err)) {
    std::smatch m;
    if (!std::regex_search(l, m, diagRe)) continue;
    unsigned line = std::stoul(m[1]);
    std::string msg = m[3];
    bool found = false;
    for (Expected &e : errors)
      if (!e.matched && e.line == line && msg.find(e.message) != std::string::npos) {
        e.matched = found = true;
        break;
      }
    if (!found && !errors.empty()) problems += "unexpected diagnostic: " + l + "\n";
  }
  for (const Expected &e : errors)
    if (!e.matched) problems += "missing error on line " + std::to_string(e.line) + ": " + e.message + "\n";
  size_t pos = 0;
  for (const std::string &e : expects) {
    size_t at = r.out.find(e, pos);
    if (at == std::string::npos) {
      problems += "missing output line: " + e + "\n";
      continue;
    }
    pos = at + e.size();
  }
  int wantExit = exitWanted >= 0 ? exitWanted : (!errors.empty() ? 1 : -1);
  if (wantExit >= 0 && r.exit != wantExit)
    problems += "exit status " + std::to_string(r.exit) + ", expected " + std::to_string(wantExit) + "\n";
  if (wantExit < 0 && !hasOut && r.exit != 0)
    problems += "exit status " + std::to_string(r.exit) + "\n" + r.err;
  if (r.exit >= 128) problems += "the tool crashed (status " + std::to_string(r.exit) + ")\n";
  if (!problems.empty() && !errors.empty() && !r.err.empty()) problems += "stderr was:\n" + r.err;
  return problems;
}

}  // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--update") opt.update = true;
    else if (a == "--bin" && k + 1 < argc) opt.binDir = argv[++k];
    else if (a == "--filter" && k + 1 < argc) opt.filter = argv[++k];
    else opt.testDir = a;
  }
  if (opt.binDir.empty() || opt.testDir.empty()) {
    std::cerr << "usage: tcp_golden --bin BUILD/bin [--update] [--filter SUBSTR] TESTDIR\n";
    return 2;
  }
  opt.binDir = fs::absolute(opt.binDir).string();
  std::error_code ec;
  fs::path self = fs::canonical("/proc/self/exe", ec);
  if (!ec) opt.toolDir = self.parent_path().string();
  std::vector<fs::path> tests;
  if (fs::is_regular_file(opt.testDir)) {  // one test: its folder is the root
    tests.push_back(opt.testDir);
    opt.testDir = fs::path(opt.testDir).parent_path().string();
  } else if (!fs::is_directory(opt.testDir)) {
    std::cerr << "tcp_golden: " << opt.testDir << " is neither a test file nor a folder\n";
    return 2;
  }
  if (tests.empty()) {
    for (const auto &entry : fs::recursive_directory_iterator(opt.testDir)) {
      auto ext = entry.path().extension();
      // A module other tests load (`// FIXTURE: what it is`) is not a test itself.
      bool fixture = ext == ".tcp" && readFile(entry.path()).find("// FIXTURE:") != std::string::npos;
      if (!fixture && (ext == ".tcp" || ext == ".repl") &&
          (opt.filter.empty() || entry.path().string().find(opt.filter) != std::string::npos))
        tests.push_back(entry.path());
    }
  }
  std::sort(tests.begin(), tests.end());
  unsigned passed = 0, failed = 0;
  for (const fs::path &t : tests) {
    std::string problems = check(opt, t);
    if (problems.empty()) {
      ++passed;
    } else {
      ++failed;
      std::cout << "FAIL " << fs::relative(t, opt.testDir).string() << "\n" << problems << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
