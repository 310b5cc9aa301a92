// manifest_runner.cpp — recomputes tcp's verdict on every manual listing and compares it with the manifest.
//
//   tcp_manifest [--update] DIR MANIFEST
//
// DIR holds the listings (tests/conformance/manual/*.tcp); MANIFEST (tests/conformance/manifest.txt)
// has one line per listing:
//
//   NNN_name | VERDICT [| manual: THE MANUAL'S OWN VERDICT]
//
// VERDICT is what `tcpc --check` concludes:
//   checks N                 every phase passes; N typed ops (all functions)
//   refused L:C MESSAGE      the first error (no error says "not supported yet")
//   unsupported L:C MESSAGE  the first "not supported yet" error: a construct tcp does not implement
// The third column records what the manual says about a listing where it matters (listings it marks
// invalid, listings it prints with an error); `--update` rewrites the verdicts and keeps it. A
// listing the manual marks invalid (`manual: invalid ...`) must not check. Lines starting with `#`
// are comments. Any difference is printed as a diff and fails the run.
#include "Driver.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct Entry {
  std::string verdict;
  std::string manual;  // "manual: ..." or ""
};

std::string verdictOf(const fs::path &listing) {
  std::string diagText;
  llvm::raw_string_ostream diagOut(diagText);
  tcp::Compilation c(diagOut);
  bool ok = c.load(listing.string()) && c.run(tcp::Phase::Cycles, nullptr);
  diagOut.flush();
  if (ok) {
    size_t ops = 0;
    for (const tcp::TypedFunction &f : c.typed().functions) ops += f.ops.size();
    return "checks " + std::to_string(ops);
  }
  static const std::regex kError(R"(^[^\n]*?:(\d+):(\d+): error: (.*)$)");
  std::string first, unsupported;
  std::istringstream lines(diagText);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, kError)) continue;
    std::string text = std::string(m[1]) + ":" + std::string(m[2]) + " " + std::string(m[3]);
    if (first.empty()) first = text;
    if (unsupported.empty() && text.find("not supported yet") != std::string::npos) unsupported = text;
  }
  if (!unsupported.empty()) return "unsupported " + unsupported;
  if (!first.empty()) return "refused " + first;
  return "refused (no located diagnostic) " + trim(diagText);
}

}  // namespace

int main(int argc, char **argv) {
  bool update = false;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--update") update = true;
    else args.push_back(a);
  }
  if (args.size() != 2) {
    std::cerr << "usage: tcp_manifest [--update] LISTING_DIR MANIFEST\n";
    return 2;
  }
  fs::path dir = args[0], manifest = args[1];
  std::vector<fs::path> listings;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tcp") listings.push_back(e.path());
  std::sort(listings.begin(), listings.end());

  // The manifest: header comments, then one entry per listing.
  std::vector<std::string> header;
  std::map<std::string, Entry> expected;
  std::vector<std::string> order;
  {
    std::ifstream in(manifest);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') {
        if (expected.empty()) header.push_back(line);
        continue;
      }
      std::vector<std::string> cols;
      std::stringstream ss(line);
      std::string col;
      while (std::getline(ss, col, '|')) cols.push_back(trim(col));
      if (cols.size() < 2) {
        std::cerr << manifest.string() << ": malformed line: " << line << "\n";
        return 2;
      }
      Entry e{cols[1], cols.size() > 2 ? cols[2] : ""};
      expected[cols[0]] = e;
      order.push_back(cols[0]);
    }
  }

  int differences = 0;
  std::map<std::string, Entry> actual;
  for (const fs::path &p : listings) {
    std::string name = p.stem().string();
    Entry e{verdictOf(p), expected.count(name) ? expected[name].manual : ""};
    actual[name] = e;
    if (!expected.count(name)) {
      std::cout << "+" << name << " | " << e.verdict << "\n";
      ++differences;
    } else if (expected[name].verdict != e.verdict) {
      std::cout << "-" << name << " | " << expected[name].verdict << "\n+" << name << " | " << e.verdict << "\n";
      ++differences;
    }
    // The manual's own verdict: a listing it marks invalid is never accepted.
    if (e.manual.rfind("manual: invalid", 0) == 0 && e.verdict.rfind("checks", 0) == 0) {
      std::cout << "!" << name << " checks, but the manual marks it invalid (" << e.manual << ")\n";
      ++differences;
    }
  }
  for (const std::string &name : order)
    if (!actual.count(name)) {
      std::cout << "-" << name << " | " << expected[name].verdict << "   (no such listing)\n";
      ++differences;
    }

  if (update) {
    std::ofstream out(manifest);
    for (const std::string &h : header) out << h << "\n";
    for (const auto &[name, e] : actual) out << name << " | " << e.verdict << (e.manual.empty() ? "" : " | " + e.manual) << "\n";
    std::cout << "updated " << manifest.string() << " (" << actual.size() << " listings, " << differences
              << " differences)\n";
    return 0;
  }
  size_t checks = 0, refused = 0, unsupported = 0;
  for (const auto &[name, e] : actual) {
    checks += e.verdict.rfind("checks", 0) == 0;
    refused += e.verdict.rfind("refused", 0) == 0;
    unsupported += e.verdict.rfind("unsupported", 0) == 0;
  }
  std::cout << actual.size() << " listings: " << checks << " check, " << refused << " refused, " << unsupported
            << " unsupported; " << differences << " differences from " << manifest.string() << "\n";
  if (differences) std::cout << "(rerun with --update to accept the new verdicts, then review the diff)\n";
  return differences ? 1 : 0;
}
