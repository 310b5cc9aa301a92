// SessionCommands.cpp — the REPL's `:` commands: mappings, axes and aliases, a kernel's configuration and cycles, a fetch's sequencer.
#include "Session.h"

#include "CyclePrint.h"
#include "EnginePrint.h"
#include "MappingNormalForm.h"
#include "Parser.h"
#include "SequencerMetrics.h"

#include <sstream>

namespace tcp::interp {

namespace {
struct CommandInfo {
  const char *name;
  const char *usage;
  const char *help;
};
const std::vector<CommandInfo> &commandTable() {
  static const std::vector<CommandInfo> kCommands = {
      {":type", ":type NAME", "the mapping alias NAME (or axis, or m![...]) in normal form"},
      {":axes", ":axes", "the declared axes and their sizes"},
      {":aliases", ":aliases", "the type aliases and their mappings"},
      {":config", ":config KERNEL", "the engine configurations of a kernel or stage function (tcpc --emit=config)"},
      {":cycles", ":cycles KERNEL", "the cycle estimate of a kernel or stage function (tcpc --emit=cycles)"},
      {":seq", ":seq MAPPING <D, TIME, PACKET>",
       "the fetch a DM tensor of element mapping MAPPING gets for `.fetch::<D, TIME, PACKET>()`\n"
       "                 (main context; its sequencer, fetch size and cycles as tcpc --emit=config)"},
      {":help", ":help", "this help"},
      {":quit", ":quit", "leave (also end of input)"},
  };
  return kCommands;
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// Splits at the commas outside brackets.
std::vector<std::string> splitTopLevel(const std::string &s) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '(' || c == '<' || c == '{') ++depth;
    if (c == ']' || c == ')' || c == '>' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  for (std::string &p : parts) p = trim(p);
  return parts;
}

// The end of the first word of `s`, an `m![...]` counted whole.
size_t firstArgEnd(const std::string &s) {
  if (s.rfind("m!", 0) == 0) {
    int depth = 0;
    for (size_t k = 2; k < s.size(); ++k) {
      if (s[k] == '[') ++depth;
      if (s[k] == ']' && --depth == 0) return k + 1;
    }
    return s.size();
  }
  size_t e = s.find_first_of(" \t<");
  return e == std::string::npos ? s.size() : e;
}
}  // namespace

const std::vector<std::string> &Session::commandNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> n;
    for (const CommandInfo &c : commandTable()) n.push_back(c.name);
    return n;
  }();
  return kNames;
}

std::string Session::helpText() {
  std::string s =
      "Enter items (axes![...], type aliases, fn), statements or expressions; an expression's\n"
      "value is printed. Definitions persist for the session; kernels and stage functions are\n"
      "checked, lowered and costed when defined.\n";
  for (const CommandInfo &c : commandTable()) {
    std::string usage = c.usage;
    s += "  " + usage + std::string(usage.size() < 15 ? 15 - usage.size() : 1, ' ') + c.help + "\n";
  }
  return s;
}

MappingRef Session::mappingArg(const std::string &arg, const std::string &what) {
  Symbols &syms = comp_.symbols();
  Diagnostics &diags = comp_.diags();
  if (syms.aliases.count(arg)) {
    unsigned before = diags.errorCount();
    MappingRef m = eval_.resolver().aliasMapping(arg, llvm::SMRange(), /*report=*/true);
    if (!m && diags.errorCount() == before) diags.errorNoLoc("`" + arg + "` is a type alias but not a mapping");
    return m;
  }
  if (syms.axes.find(arg)) {
    std::string err;
    MappingRef m = Mapping::symbol(syms.axes, arg, &err);
    if (!m) diags.errorNoLoc(err);
    return m;
  }
  if (arg.rfind("m!", 0) != 0) {
    diags.errorNoLoc("unknown type alias or axis `" + arg + "`");
    return nullptr;
  }
  unsigned buf = comp_.addBuffer(arg, "<" + what.substr(1) + ">");
  unsigned before = diags.errorCount();
  auto stmts = parseReplInput(comp_.sourceMgr(), buf, diags);
  if (diags.errorCount() != before) return nullptr;
  MappingRef m;
  if (stmts.size() != 1 || !stmts[0]->init || stmts[0]->init->kind != ast::Expr::Macro ||
      stmts[0]->init->macro->name != "m") {
    diags.errorNoLoc(what + " takes a mapping alias, an axis or one `m![...]`");
  } else {
    try {
      Value v = eval_.eval(*stmts[0]->init);
      m = v.mapping;
    } catch (const RuntimeError &err) {
      reportRuntime(err);
    }
  }
  inputs_.push_back(std::move(stmts));
  return m;
}

bool Session::typeCommand(const std::string &arg) {
  if (arg.empty()) {
    comp_.diags().errorNoLoc(":type needs a name, e.g. `:type E`");
    return false;
  }
  MappingRef m = mappingArg(arg, ":type");
  if (!m) return false;
  out_ << normalize(m)->str() << "\n";
  return true;
}

namespace {
// The index of the checked function `name`, or an error naming the known ones.
std::optional<size_t> checkedFunction(const Compilation &comp, Diagnostics &diags, const std::string &name,
                                      const std::string &what) {
  if (name.empty()) {
    diags.errorNoLoc(what + " needs a kernel or stage function, e.g. `" + what + " gemm`");
    return std::nullopt;
  }
  const auto &fs = comp.typed().functions;
  for (size_t k = 0; k < fs.size(); ++k)
    if (fs[k].name == name) return k;
  std::string known;
  for (const TypedFunction &f : fs) known += (known.empty() ? "" : ", ") + f.name;
  diags.errorNoLoc("`" + name + "` is not a checked kernel or stage function" +
                   (known.empty() ? std::string(" (none is checked)") : " (checked: " + known + ")"));
  return std::nullopt;
}
}  // namespace

bool Session::configCommand(const std::string &name) {
  auto k = checkedFunction(comp_, comp_.diags(), name, ":config");
  if (!k) return false;
  LoweredProgram one;
  one.functions.push_back(comp_.lowered().functions.at(*k));
  printConfig(one, out_);
  return true;
}

bool Session::cyclesCommand(const std::string &name) {
  auto k = checkedFunction(comp_, comp_.diags(), name, ":cycles");
  if (!k) return false;
  if (*k >= comp_.costs().functions.size()) {
    comp_.diags().errorNoLoc("`" + name + "` has no cycle estimate (the program was loaded without the cycles phase)");
    return false;
  }
  ProgramCost cost;
  cost.functions.push_back(comp_.costs().functions[*k]);
  ProgramSchedule sched;
  sched.functions.push_back(comp_.schedule().functions.at(*k));
  sched.total = sched.functions.back().makespan;
  printCycles(cost, sched, out_, /*json=*/false);
  return true;
}

bool Session::seqCommand(const std::string &arg) {
  Diagnostics &diags = comp_.diags();
  const char *usage = "`:seq MAPPING <D, TIME, PACKET>`, e.g. `:seq m![A, B] <bf16, m![A], m![B]>`";
  size_t end = firstArgEnd(arg);
  std::string bufText = trim(arg.substr(0, end)), rest = trim(arg.substr(end));
  if (rest.rfind("::", 0) == 0) rest = trim(rest.substr(2));
  if (rest.size() >= 2 && rest.front() == '<' && rest.back() == '>') rest = rest.substr(1, rest.size() - 2);
  std::vector<std::string> parts = splitTopLevel(rest);
  if (bufText.empty() || parts.size() != 3 || parts[0].empty()) {
    diags.errorNoLoc(":seq takes a mapping and the fetch's type arguments: " + std::string(usage));
    return false;
  }
  auto dtype = num::parseDType(parts[0]);
  if (!dtype) {
    diags.errorNoLoc("unknown element type `" + parts[0] + "` (" + usage + ")");
    return false;
  }
  MappingRef buf = mappingArg(bufText, ":seq");
  MappingRef time = buf ? mappingArg(parts[1], ":seq") : nullptr;
  MappingRef packet = time ? mappingArg(parts[2], ":seq") : nullptr;
  if (!packet) return false;
  // What the typed phase and the lowering derive for a fetch (OpFetch.cpp, Lowering.cpp).
  unsigned bits = num::storageBits(*dtype);
  SeqOptions opts;
  opts.use = SeqUse::Fetch;
  SeqResult r = derive(buf, time, packet, bits, opts);
  bool ok = true;
  for (const std::string &d : r.diagnostics) diags.errorNoLoc("fetch sequencer: " + d), ok = false;
  if (!ok) return false;
  FetchPlan p = planFetch(r, bits, Context::Main);
  for (const std::string &d : p.diagnostics) diags.errorNoLoc("fetch: " + d), ok = false;
  if (!ok) return false;
  FetchConfig f;
  f.sequencer = *r.config;
  f.timeSize = r.timeSize;
  f.inType = f.outType = *dtype;
  f.packetBytes = p.packetBytes;
  f.contiguousBytes = p.contiguousBytes;
  f.fetchSize = p.fetchSize;
  printEngine(f, out_);
  return true;
}

bool Session::command(const std::string &line, bool *quit) {
  std::istringstream is(line);
  std::string cmd;
  is >> cmd;
  std::string arg;
  std::getline(is, arg);
  arg = trim(arg);
  comp_.diags().restartErrorLimit();
  Symbols &syms = comp_.symbols();
  if (cmd == ":quit" || cmd == ":q" || cmd == ":exit") {
    *quit = true;
    return true;
  }
  if (cmd == ":help" || cmd == ":h" || cmd == ":?") {
    out_ << helpText();
    return true;
  }
  if (cmd == ":axes") {
    for (const AxisInfo &a : syms.axes.all()) out_ << a.name << " = " << a.size << "\n";
    return true;
  }
  if (cmd == ":aliases") {
    for (const std::string &n : syms.aliasOrder) {
      const AliasInfo &info = syms.aliases.at(n);
      out_ << n << " = " << (info.mapping ? info.mapping->str() : std::string("(not a mapping)")) << "\n";
    }
    return true;
  }
  if (cmd == ":type" || cmd == ":t") return typeCommand(arg);
  if (cmd == ":config") return configCommand(arg);
  if (cmd == ":cycles") return cyclesCommand(arg);
  if (cmd == ":seq") return seqCommand(arg);
  comp_.diags().errorNoLoc("unknown command `" + cmd + "`; `:help` lists the commands");
  return false;
}

}  // namespace tcp::interp
