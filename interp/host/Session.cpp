// Session.cpp — loading files, running main and tests, evaluating REPL input (its kernels checked, lowered and costed).
#include "Session.h"

#include "Parser.h"

#include <algorithm>
#include <set>

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

size_t Session::sourceBytes() {
  size_t bytes = 0;
  for (unsigned id = 1; id <= comp_.sourceMgr().getNumBuffers(); ++id)
    bytes += comp_.sourceMgr().getMemoryBuffer(id)->getBufferSize();
  return bytes;
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
    eval_.resetSteps();
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
      eval_.resetSteps();
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
  // The input is its own buffer; its lines are numbered from the line it was typed on.
  unsigned buf = comp_.addBuffer(text, "<stdin>");
  Diagnostics &diags = comp_.diags();
  diags.setLineOffset(buf, firstLine > 1 ? firstLine - 1 : 0);
  diags.restartErrorLimit();
  eval_.resetSteps();
  unsigned before = diags.errorCount();
  std::vector<ast::StmtP> stmts = parseReplInput(comp_.sourceMgr(), buf, diags);
  if (diags.errorCount() != before) return false;
  // `use` of a library module loads it (and what it loads) into the session (SessionModules.cpp).
  std::vector<std::string> defined;
  if (!useLibraries(stmts, buf, defined)) return false;
  // A refused input defines nothing: the definitions it would replace are kept and restored below
  // (with their places in the definition order; only redefinitions search the order, so a session's
  // inputs stay linear in what they define).
  Symbols &syms = comp_.symbols();
  struct Saved {
    std::string name;
    std::optional<FnInfo> fn;
    std::optional<AliasInfo> alias;
    size_t fnPos = 0, aliasPos = 0;
  };
  std::vector<Saved> saved;
  std::set<std::string> seen;
  auto position = [](const std::vector<std::string> &order, const std::string &name) {
    return size_t(std::find(order.begin(), order.end(), name) - order.begin());
  };
  for (const auto &s : stmts)
    if (s->kind == ast::Stmt::ItemS && s->item && seen.insert(s->item->name).second) {
      Saved v;
      v.name = s->item->name;
      if (auto f = syms.fns.find(v.name); f != syms.fns.end()) v.fn = f->second, v.fnPos = position(syms.fnOrder, v.name);
      if (auto a = syms.aliases.find(v.name); a != syms.aliases.end())
        v.alias = a->second, v.aliasPos = position(syms.aliasOrder, v.name);
      saved.push_back(std::move(v));
    }
  auto restore = [&] {
    auto put = [](std::vector<std::string> &order, const std::string &name, bool had, size_t pos) {
      order.erase(std::remove(order.begin(), order.end(), name), order.end());
      if (had) order.insert(order.begin() + long(std::min(pos, order.size())), name);
    };
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->fn) syms.fns[it->name] = *it->fn;
      else syms.fns.erase(it->name);
      if (it->alias) syms.aliases[it->name] = *it->alias;
      else syms.aliases.erase(it->name);
      put(syms.fnOrder, it->name, it->fn.has_value(), it->fnPos);
      put(syms.aliasOrder, it->name, it->alias.has_value(), it->aliasPos);
    }
  };
  for (const auto &s : stmts)
    if (s->kind == ast::Stmt::ItemS && s->item) {
      declare(*s->item);
      if (s->item->kind == ast::Item::Fn) defined.push_back(s->item->name);
    }
  for (const auto &s : stmts) {
    if (s->kind == ast::Stmt::ItemS && s->item) eval_.resolver().checkItem(*s->item);
    else eval_.resolver().checkStmt(*s);
  }
  bool ok = diags.errorCount() == before;
  // Kernels and stage functions: the typed phase, the lowering and the cycle model, as tcpc runs them.
  if (ok && !defined.empty()) ok = comp_.define(defined);
  if (ok) {
    // Host code runs only when it checks: against the session's definitions and its bindings' types
    // (the checker keeps them; it is told which bindings the last inputs made or reassigned).
    if (!hostCheck_) hostCheck_ = std::make_unique<HostSessionChecker>(comp_.symbols(), comp_.typed(), diags);
    std::map<std::string, HostType> changed;
    for (const std::string &name : eval_.takeChangedGlobals()) {
      auto it = eval_.globals().find(name);
      if (it != eval_.globals().end()) changed[name] = hostTypeOfValue(it->second);
    }
    std::vector<const ast::Stmt *> input;
    for (const auto &s : stmts) input.push_back(s.get());
    ok = hostCheck_->checkInput(input, changed);
  }
  if (!ok && !saved.empty()) restore();
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

}  // namespace tcp::interp
