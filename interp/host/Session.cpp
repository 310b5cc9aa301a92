// Session.cpp — loading files, running main and tests, evaluating REPL input and `:` commands.
#include "Session.h"

#include "MappingNormalForm.h"
#include "Parser.h"

#include <sstream>

namespace tcp::interp {

Session::Session(llvm::raw_ostream &out, llvm::raw_ostream &err)
    : out_(out), comp_(err), eval_(comp_.symbols(), comp_.diags(), out),
      host_(std::make_unique<HostRuntime>(eval_, comp_)) {
  eval_.setHostRuntime(host_.get());
}

bool Session::loadFile(const std::string &path) {
  if (!comp_.load(path)) return false;
  return comp_.run(Phase::Config, nullptr);
}

bool Session::reportRuntime(const RuntimeError &err) {
  comp_.diags().runtimeError(err.range, err.message);
  return false;
}

bool Session::runMain() {
  auto it = comp_.symbols().fns.find("main");
  if (it == comp_.symbols().fns.end()) return true;  // a library of kernels and tests
  const ast::Item &fn = *it->second.item;
  try {
    eval_.callFunction(fn, {}, fn.range);
  } catch (const RuntimeError &err) {
    return reportRuntime(err);
  }
  return true;
}

bool Session::runTests() {
  unsigned passed = 0, failed = 0;
  for (const std::string &name : comp_.symbols().fnOrder) {
    const FnInfo &f = comp_.symbols().fns.at(name);
    if (!f.isTest) continue;
    out_ << "test " << name << " ... ";
    out_.flush();
    try {
      eval_.callFunction(*f.item, {}, f.item->range);
      out_ << "ok\n";
      ++passed;
    } catch (const RuntimeError &err) {
      out_ << "FAILED\n";
      out_.flush();
      reportRuntime(err);
      ++failed;
    }
  }
  out_ << passed << " passed, " << failed << " failed\n";
  return failed == 0;
}

void Session::declare(const ast::Item &item) {
  Symbols &syms = comp_.symbols();
  // The REPL lets a later definition replace an alias or function of the same name.
  if (item.kind == ast::Item::TypeAlias && syms.aliases.erase(item.name)) {
    auto &order = syms.aliasOrder;
    order.erase(std::remove(order.begin(), order.end(), item.name), order.end());
  }
  if (item.kind == ast::Item::Fn && syms.fns.erase(item.name)) {
    auto &order = syms.fnOrder;
    order.erase(std::remove(order.begin(), order.end(), item.name), order.end());
  }
  eval_.resolver().declareItem(item);
}

bool Session::evalInput(const std::string &text, unsigned firstLine) {
  // Pad with newlines so diagnostics carry the line numbers of the whole input stream.
  std::string padded(firstLine > 1 ? firstLine - 1 : 0, '\n');
  padded += text;
  unsigned buf = comp_.addBuffer(padded, "<stdin>");
  Diagnostics &diags = comp_.diags();
  unsigned before = diags.errorCount();
  std::vector<ast::StmtP> stmts = parseReplInput(comp_.sourceMgr(), buf, diags);
  if (diags.errorCount() != before) return false;
  for (const auto &s : stmts)
    if (s->kind == ast::Stmt::ItemS && s->item) declare(*s->item);
  for (const auto &s : stmts) {
    if (s->kind == ast::Stmt::ItemS && s->item) eval_.resolver().checkItem(*s->item);
    else eval_.resolver().checkStmt(*s);
  }
  bool ok = diags.errorCount() == before;
  if (ok) {
    // Host code runs only when it checks: against the session's definitions and its bindings' types.
    if (!hostCheck_) hostCheck_ = std::make_unique<HostSessionChecker>(comp_.symbols(), comp_.typed(), diags);
    std::map<std::string, HostType> globals;
    for (const auto &[name, value] : eval_.globals()) globals[name] = hostTypeOfValue(value);
    std::vector<const ast::Stmt *> input;
    for (const auto &s : stmts) input.push_back(s.get());
    ok = hostCheck_->checkInput(input, globals);
  }
  if (ok) {
    try {
      for (size_t k = 0; k < stmts.size(); ++k) {
        const ast::Stmt &s = *stmts[k];
        if (s.kind == ast::Stmt::ItemS) continue;
        bool tail = k + 1 == stmts.size() && s.kind == ast::Stmt::ExprS && !s.semi;
        if (!tail) {
          eval_.execStmt(s);
          continue;
        }
        Value v = eval_.eval(*s.init);
        if (v.kind != Value::Unit) out_ << v.debug() << "\n";
      }
    } catch (const RuntimeError &err) {
      ok = reportRuntime(err);
    }
  }
  inputs_.push_back(std::move(stmts));
  return ok && diags.errorCount() == before;
}

std::string Session::helpText() {
  return "Enter items (axes![...], type aliases, fn), statements or expressions; an expression's\n"
         "value is printed. Definitions persist for the session.\n"
         "  :type NAME     the mapping alias NAME (or axis, or m![...]) in normal form\n"
         "  :axes          the declared axes and their sizes\n"
         "  :aliases       the type aliases and their mappings\n"
         "  :help          this help\n"
         "  :quit          leave (also end of input)\n";
}

bool Session::command(const std::string &line, bool *quit) {
  std::istringstream is(line);
  std::string cmd;
  is >> cmd;
  std::string arg;
  std::getline(is, arg);
  arg.erase(0, arg.find_first_not_of(" \t"));
  while (!arg.empty() && std::isspace(static_cast<unsigned char>(arg.back()))) arg.pop_back();
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
  if (cmd == ":type" || cmd == ":t") {
    if (arg.empty()) {
      comp_.diags().errorNoLoc(":type needs a name, e.g. `:type E`");
      return false;
    }
    MappingRef m;
    if (syms.aliases.count(arg)) {
      unsigned before = comp_.diags().errorCount();
      m = eval_.resolver().aliasMapping(arg, llvm::SMRange(), /*report=*/true);
      if (!m) {
        if (comp_.diags().errorCount() == before)
          comp_.diags().errorNoLoc("`" + arg + "` is a type alias but not a mapping");
        return false;
      }
    } else if (syms.axes.find(arg)) {
      std::string err;
      m = Mapping::symbol(syms.axes, arg, &err);
    } else if (arg.rfind("m!", 0) == 0) {
      unsigned buf = comp_.addBuffer(arg, "<type>");
      unsigned before = comp_.diags().errorCount();
      auto stmts = parseReplInput(comp_.sourceMgr(), buf, comp_.diags());
      if (comp_.diags().errorCount() != before || stmts.size() != 1 || !stmts[0]->init) return false;
      if (stmts[0]->init->kind != ast::Expr::Macro || stmts[0]->init->macro->name != "m") {
        comp_.diags().errorNoLoc(":type takes a mapping alias, an axis or one `m![...]`");
        inputs_.push_back(std::move(stmts));
        return false;
      }
      try {
        Value v = eval_.eval(*stmts[0]->init);
        m = v.mapping;
      } catch (const RuntimeError &err) {
        inputs_.push_back(std::move(stmts));
        return reportRuntime(err);
      }
      inputs_.push_back(std::move(stmts));
    } else {
      comp_.diags().errorNoLoc("unknown type alias or axis `" + arg + "`");
      return false;
    }
    if (!m) return false;
    out_ << normalize(m)->str() << "\n";
    return true;
  }
  comp_.diags().errorNoLoc("unknown command `" + cmd + "`; `:help` lists the commands");
  return false;
}

}  // namespace tcp::interp
