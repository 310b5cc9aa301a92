// ReplComplete.cpp — tab completion in the REPL: `:` commands, kernel names after :config/:cycles, axes and aliases.
#include "Session.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace tcp::interp {

namespace {
bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '\''; }
}  // namespace

std::vector<std::string> Session::completions(const std::string &line, size_t pos, size_t *wordStart) const {
  pos = std::min(pos, line.size());
  size_t start = pos;
  while (start > 0 && wordChar(line[start - 1])) --start;
  // A `:` inside a word belongs to it only at the start of the line (`:type`); `A::SIZE` completes `SIZE`.
  size_t colon = line.rfind(':', pos == 0 ? 0 : pos - 1);
  size_t first = line.find_first_not_of(" \t");
  if (colon != std::string::npos && colon >= start && colon != first) start = colon + 1;
  *wordStart = start;
  std::string prefix = line.substr(start, pos - start);
  std::set<std::string> words;
  bool atCommand = first != std::string::npos && line[first] == ':';
  if (atCommand && start == first) {
    for (const std::string &c : commandNames()) words.insert(c);
  } else {
    std::string cmd = atCommand ? line.substr(first, line.find_first_of(" \t", first) - first) : "";
    const Symbols &syms = comp_.symbols();
    if (cmd == ":config" || cmd == ":cycles") {
      for (const TypedFunction &f : comp_.typed().functions) words.insert(f.name);
    } else {
      for (const AxisInfo &a : syms.axes.all()) words.insert(a.name);
      for (const std::string &n : syms.aliasOrder) words.insert(n);
      if (!atCommand)
        for (const std::string &n : syms.fnOrder) words.insert(n);
    }
  }
  std::vector<std::string> out;
  for (const std::string &w : words)
    if (w.compare(0, prefix.size(), prefix) == 0) out.push_back(w);
  return out;
}

}  // namespace tcp::interp
