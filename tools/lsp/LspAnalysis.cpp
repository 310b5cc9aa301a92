// LspAnalysis.cpp — compiling a document for the language server, and finding functions, bindings, ops and types by position.
#include "LspAnalysis.h"

#include "StdlibDir.h"
#include "TypeCheck.h"

#include <cctype>

namespace tcp::lsp {

namespace {
std::vector<std::string> &librarySearchPath() {
  static std::vector<std::string> dirs;
  return dirs;
}
}  // namespace

void setLibrarySearchPath(std::vector<std::string> dirs) { librarySearchPath() = std::move(dirs); }

std::unique_ptr<Analysis> analyze(const std::string &text, const std::string &path) {
  auto a = std::make_unique<Analysis>();
  a->text = text;
  a->comp = std::make_unique<Compilation>(llvm::nulls());
  a->comp->diags().setSink([d = &a->diagnostics](const DiagnosticRecord &r) { d->push_back(r); });
  // `mod name;` loads files beside the document's path; `use` finds library modules in the stdlib.
  if (librarySearchPath().empty()) a->comp->setSearchPath({stdlibDir(nullptr)});
  else a->comp->setSearchPath(librarySearchPath());
  if (a->comp->loadText(text, path)) a->comp->run(Phase::Cycles, nullptr);
  a->parsed = a->comp->completed().has_value();  // the AST of a text that parses
  return a;
}

size_t Analysis::offsetOf(llvm::SMLoc loc) const {
  const llvm::MemoryBuffer *b = comp->sourceMgr().getMemoryBuffer(comp->mainBuffer());
  const char *p = loc.getPointer();
  if (!p || p < b->getBufferStart() || p > b->getBufferEnd()) return std::string::npos;
  return size_t(p - b->getBufferStart());
}

llvm::SMLoc Analysis::locAt(size_t offset) const {
  const llvm::MemoryBuffer *b = comp->sourceMgr().getMemoryBuffer(comp->mainBuffer());
  return llvm::SMLoc::getFromPointer(b->getBufferStart() + std::min(offset, b->getBufferSize()));
}

std::string manualTypeName(const TensorType &t) {
  if (t.tier == Tier::Stream) return stageTypeName(t.stage);
  return std::string(tierName(t.tier)) + (t.isView ? "View" : "");
}

namespace {
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '\''; }

// Skips spaces, line breaks and `//` comments backwards from `end`; the offset after the last
// character of the expression before them.
size_t skipBack(const std::string &text, size_t end) {
  for (;;) {
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    // A `//` comment on the line before: step over it.
    size_t lineStart = text.rfind('\n', end ? end - 1 : 0);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    size_t comment = text.find("//", lineStart);
    if (comment == std::string::npos || comment >= end) return end;
    end = comment;
  }
}

// The offset of the bracket opening the one that closes at `close` (text[close] is `)`, `]` or `>`).
std::optional<size_t> openingOf(const std::string &text, size_t close) {
  char c = text[close], o = c == ')' ? '(' : c == ']' ? '[' : '<';
  int depth = 0;
  for (size_t k = close + 1; k-- > 0;) {
    if (text[k] == c && !(c == '>' && k > 0 && text[k - 1] == '-')) ++depth;
    else if (text[k] == o && --depth == 0) return k;
  }
  return std::nullopt;
}

bool contains(const Analysis &a, llvm::SMRange r, size_t offset) {
  size_t b = a.offsetOf(r.Start), e = a.offsetOf(r.End);
  return b != std::string::npos && e != std::string::npos && b <= offset && offset <= e;
}
}  // namespace

std::pair<size_t, size_t> wordAt(const std::string &text, size_t offset) {
  size_t b = std::min(offset, text.size()), e = b;
  while (b > 0 && identChar(text[b - 1])) --b;
  while (e < text.size() && identChar(text[e])) ++e;
  return {b, e};
}

const ast::Item *enclosingFunction(const Analysis &a, size_t offset) {
  if (!a.parsed) return nullptr;
  for (const auto &item : a.comp->program()->items)
    if (item->kind == ast::Item::Fn && contains(a, item->range, offset)) return item.get();
  return nullptr;
}

const TypedFunction *typedFunction(const Analysis &a, const std::string &name) {
  for (const TypedFunction &f : a.comp->typed().functions)
    if (f.name == name) return &f;
  return nullptr;
}

const TypedOp *opAt(const Analysis &a, size_t offset) {
  const ast::Item *fn = enclosingFunction(a, offset);
  const TypedFunction *tf = fn ? typedFunction(a, fn->name) : nullptr;
  if (!tf) return nullptr;
  for (const TypedOp &op : tf->ops)
    if (a.offsetOf(op.range.Start) == offset) return &op;
  return nullptr;
}

const ast::Pattern *binding(const Analysis &a, const std::string &name, size_t offset) {
  const ast::Item *fn = enclosingFunction(a, offset);
  if (!fn) return nullptr;
  const ast::Pattern *found = nullptr;
  for (const ast::Param &p : fn->params)
    if (p.pattern && p.pattern->kind == ast::Pattern::Ident && p.pattern->name == name) found = p.pattern.get();
  if (fn->body)
    for (const auto &s : fn->body->stmts) {
      if (s->kind != ast::Stmt::Let || !s->pattern || s->pattern->kind != ast::Pattern::Ident || s->pattern->name != name)
        continue;
      size_t at = a.offsetOf(s->pattern->range.Start);
      if (at != std::string::npos && at <= offset) found = s->pattern.get();
    }
  return found;
}

std::optional<ReceiverType> variableType(Analysis &a, const std::string &name, size_t offset, unsigned depth) {
  const ast::Item *fn = enclosingFunction(a, offset);
  const ast::Pattern *p = binding(a, name, offset);
  if (!fn || !p || depth > 16) return std::nullopt;
  Diagnostics quiet(a.comp->sourceMgr(), llvm::nulls());
  TypeChecker types(a.comp->symbols(), quiet);
  // A parameter: its checked type (or its annotation).
  for (const ast::Param &param : fn->params)
    if (param.pattern.get() == p) {
      if (const TypedFunction *tf = typedFunction(a, fn->name))
        for (const auto &[n, t] : tf->params)
          if (n == name) return ReceiverType{manualTypeName(t), t};
      if (param.type)
        if (auto t = types.tensorTypeOf(*param.type, false)) return ReceiverType{manualTypeName(*t), *t};
      return std::nullopt;
    }
  // A `let`: its annotation, else the type of its initializer.
  for (const auto &s : fn->body->stmts) {
    if (s->pattern.get() != p) continue;
    if (s->type)
      if (auto t = types.tensorTypeOf(*s->type, false)) return ReceiverType{manualTypeName(*t), *t};
    if (!s->init) return std::nullopt;
    size_t end = a.offsetOf(s->init->range.End);
    return end == std::string::npos ? std::nullopt : expressionType(a, end, depth + 1);
  }
  return std::nullopt;
}

std::optional<ReceiverType> expressionType(Analysis &a, size_t end, unsigned depth) {
  const std::string &text = a.text;
  end = skipBack(text, std::min(end, text.size()));
  if (end == 0 || depth > 16) return std::nullopt;
  if (text[end - 1] == ')') {
    // `.method::<...>(...)`: the op of that method, or for a view the receiver's tensor as a view.
    std::optional<size_t> open = openingOf(text, end - 1);
    if (!open) return std::nullopt;
    size_t nameEnd = skipBack(text, *open);
    if (nameEnd > 0 && text[nameEnd - 1] == '>') {
      std::optional<size_t> lt = openingOf(text, nameEnd - 1);
      if (!lt || *lt < 2 || text.compare(*lt - 2, 2, "::") != 0) return std::nullopt;
      nameEnd = *lt - 2;
    }
    auto [b, e] = wordAt(text, nameEnd);
    if (b == e || e != nameEnd) return std::nullopt;
    std::string method = text.substr(b, e - b);
    size_t dot = skipBack(text, b);
    if ((method == "view" || method == "view_mut") && dot > 0 && text[dot - 1] == '.') {
      auto r = expressionType(a, dot - 1, depth + 1);
      if (r && r->type) {
        r->type->isView = true;
        r->manualName = manualTypeName(*r->type);
      }
      return r;
    }
    if (const TypedOp *op = opAt(a, b)) return ReceiverType{manualTypeName(op->out), op->out};
    return std::nullopt;
  }
  auto [b, e] = wordAt(text, end);
  if (b == e || e != end) return std::nullopt;
  std::string name = text.substr(b, e - b);
  size_t before = skipBack(text, b);
  if (before > 0 && text[before - 1] == '.') {
    // `ctx.main` / `ctx.sub`: a Tensor Unit context ("Execution Contexts").
    if (name == "main" || name == "sub") return ReceiverType{"TuContext", std::nullopt};
    return std::nullopt;
  }
  return variableType(a, name, b, depth + 1);
}

}  // namespace tcp::lsp
