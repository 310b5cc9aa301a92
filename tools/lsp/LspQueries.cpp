// LspQueries.cpp — hover (types, axes, mappings), go-to-definition and stage-aware completion from the op catalog.
#include "LspQueries.h"

#include "MappingNormalForm.h"
#include "OpCatalog.h"
#include "Parser.h"
#include "Resolver.h"

#include <cctype>

namespace tcp::lsp {

namespace {
std::string code(const std::string &s) { return "```tcp\n" + s + "\n```"; }

std::string mappingFacts(const MappingRef &m) {
  return "size " + std::to_string(m->size()) + "; normal form `" + normalize(m)->str() + "`";
}

// The `m![...]` whose brackets enclose `offset`: [begin, end) of its text, innermost first.
std::optional<std::pair<size_t, size_t>> mappingAt(const std::string &text, size_t offset) {
  for (size_t b = std::min(offset + 2, text.size()); b-- > 0;) {
    if (text.compare(b, 3, "m![") != 0) continue;
    int depth = 0;
    for (size_t k = b + 2; k < text.size(); ++k) {
      if (text[k] == '[') ++depth;
      if (text[k] == ']' && --depth == 0) {
        if (offset <= k) return std::make_pair(b, k + 1);
        break;
      }
    }
  }
  return std::nullopt;
}

// Lowers the text of one `m![...]` against the document's symbols.
MappingRef lowerText(Analysis &a, const std::string &text) {
  Compilation &c = *a.comp;
  Diagnostics quiet(c.sourceMgr(), llvm::nulls());
  unsigned buf = c.addBuffer(text, "<hover>");
  auto stmts = parseReplInput(c.sourceMgr(), buf, quiet);
  if (quiet.hasErrors() || stmts.size() != 1 || !stmts[0]->init || stmts[0]->init->kind != ast::Expr::Macro ||
      !stmts[0]->init->macro || !stmts[0]->init->macro->mapping)
    return nullptr;
  Resolver resolver(c.symbols(), quiet);
  MappingRef m = resolver.lowerMapping(*stmts[0]->init->macro->mapping);
  return quiet.hasErrors() ? nullptr : m;
}

// The name of an item in its text (`fn NAME`, `type NAME`): [begin, end) or the item's start.
Definition here(size_t begin, size_t end) {
  Definition d;
  d.begin = begin;
  d.end = end;
  return d;
}

// A name declared in another module's file: where `keyword name` (or, without a keyword, `name`)
// first appears from `start` in that file.
std::optional<Definition> inOtherFile(const Analysis &a, llvm::SMLoc start, const char *keyword, const std::string &name) {
  llvm::SourceMgr &sm = a.comp->sourceMgr();
  unsigned id = sm.FindBufferContainingLoc(start);
  if (!id || id == a.comp->mainBuffer()) return std::nullopt;
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(id);
  llvm::StringRef text = buf->getBuffer();
  size_t from = size_t(start.getPointer() - buf->getBufferStart());
  std::string pattern = *keyword ? std::string(keyword) + " " + name : name;
  size_t at = text.find(pattern, from);
  if (at == llvm::StringRef::npos) at = from;
  else at += pattern.size() - name.size();
  auto [line, column] = sm.getLineAndColumn(llvm::SMLoc::getFromPointer(buf->getBufferStart() + at), id);
  Definition d;
  d.file = buf->getBufferIdentifier().str();
  d.line = line;
  d.column = column;
  d.endColumn = column + unsigned(name.size());
  return d;
}

std::pair<size_t, size_t> nameIn(const Analysis &a, const ast::Item &item, const char *keyword) {
  size_t b = a.offsetOf(item.range.Start), e = a.offsetOf(item.range.End);
  if (b == std::string::npos || e == std::string::npos) return {0, 0};
  std::string pattern = std::string(keyword) + " " + item.name;
  size_t at = a.text.find(pattern, b);
  if (at == std::string::npos || at > e) return {b, b};
  at += std::string(keyword).size() + 1;
  return {at, at + item.name.size()};
}

std::string signature(const Analysis &a, const std::string &name) {
  const FnInfo &info = a.comp->symbols().fns.at(name);
  const TypedFunction *tf = typedFunction(a, name);
  std::string head = info.isDevice ? "kernel `" + name + "` (chip = " + std::to_string(info.chips) + ")"
                     : tf         ? "stage function `" + name + "`"
                     : info.isTest ? "test `" + name + "`"
                                   : "host function `" + name + "`";
  if (!tf) return head;
  std::string sig;
  for (const auto &[n, t] : tf->params) sig += n + ": " + t.str() + "\n";
  for (const TypedTable &t : tf->tables) sig += t.name + ": " + t.type.str() + "\n";
  if (tf->result) sig += "-> " + tf->result->str() + "\n";
  if (!sig.empty()) sig.pop_back();
  return head + (sig.empty() ? "" : "\n" + code(sig));
}
}  // namespace

std::optional<Hover> hover(Analysis &a, size_t offset) {
  if (!a.parsed) return std::nullopt;
  auto [b, e] = wordAt(a.text, offset);
  const Symbols &syms = a.comp->symbols();
  if (b != e) {
    std::string word = a.text.substr(b, e - b);
    // The method of an engine op: the type of the expression up to it.
    if (const TypedOp *op = opAt(a, b))
      return Hover{"`." + op->name + "` (line " + std::to_string(op->line) + ") gives\n" + code(op->out.str()), b, e};
    if (binding(a, word, b)) {
      if (auto t = variableType(a, word, b); t && t->type) return Hover{code(word + ": " + t->type->str()), b, e};
    }
    if (const AxisInfo *axis = syms.axes.find(word))
      return Hover{code("axis " + axis->name + " = " + std::to_string(axis->size)), b, e};
    if (auto al = syms.aliases.find(word); al != syms.aliases.end()) {
      Diagnostics quiet(a.comp->sourceMgr(), llvm::nulls());
      MappingRef m = Resolver(a.comp->symbols(), quiet).aliasMapping(word, llvm::SMRange(), false);
      if (m) return Hover{code("type " + word + " = " + m->str()) + "\n\n" + mappingFacts(m), b, e};
    }
    if (syms.fns.count(word)) return Hover{signature(a, word), b, e};
  }
  if (auto span = mappingAt(a.text, offset)) {
    std::string text = a.text.substr(span->first, span->second - span->first);
    if (MappingRef m = lowerText(a, text)) return Hover{code(text) + "\n\n" + mappingFacts(m), span->first, span->second};
  }
  return std::nullopt;
}

std::optional<Definition> definition(Analysis &a, size_t offset) {
  if (!a.parsed) return std::nullopt;
  auto [b, e] = wordAt(a.text, offset);
  if (b == e) return std::nullopt;
  std::string word = a.text.substr(b, e - b);
  const Symbols &syms = a.comp->symbols();
  // A variable: its `let` or parameter (unless the word is the method of a call).
  bool method = b > 0 && a.text[b - 1] == '.';
  if (!method)
    if (const ast::Pattern *p = binding(a, word, b)) {
      size_t at = a.offsetOf(p->range.Start);
      if (at != std::string::npos) return here(at, at + word.size());
    }
  if (auto it = syms.axisRanges.find(word); it != syms.axisRanges.end()) {
    size_t at = a.offsetOf(it->second.Start);
    if (at != std::string::npos) return here(at, at + word.size());
    if (auto d = inOtherFile(a, it->second.Start, "", word)) return d;
  }
  if (auto it = syms.aliases.find(word); it != syms.aliases.end() && it->second.item) {
    if (auto d = inOtherFile(a, it->second.item->range.Start, "type", word)) return d;
    auto [nb, ne] = nameIn(a, *it->second.item, "type");
    return here(nb, ne);
  }
  if (auto it = syms.fns.find(word); it != syms.fns.end() && it->second.item && !method) {
    if (auto d = inOtherFile(a, it->second.item->range.Start, "fn", word)) return d;
    auto [nb, ne] = nameIn(a, *it->second.item, "fn");
    return here(nb, ne);
  }
  return std::nullopt;
}

std::optional<size_t> memberDot(const std::string &text, size_t offset) {
  auto [b, e] = wordAt(text, offset);
  (void)e;
  size_t k = b;
  while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t')) --k;
  if (k > 0 && text[k - 1] == '.' && !(k > 1 && text[k - 2] == '.')) return k - 1;
  return std::nullopt;
}

std::vector<Completion> complete(Analysis &current, size_t offset, Analysis *receiverIn, size_t receiverEnd) {
  std::vector<Completion> out;
  auto [b, e] = wordAt(current.text, offset);
  std::string prefix = current.text.substr(b, std::min(offset, e) - b);
  auto matches = [&](const std::string &s) { return s.compare(0, prefix.size(), prefix) == 0; };
  if (receiverIn) {
    std::optional<ReceiverType> r = expressionType(*receiverIn, receiverEnd);
    if (!r) return out;
    for (const std::string &name : catalog::methodsFor(r->manualName)) {
      const catalog::Method *m = catalog::findMethod(name);
      if (!m || !matches(name)) continue;
      Completion c{name, 2, r->manualName + "." + name + (m->supported ? "" : " (not supported yet)"), ""};
      if (!m->supported) c.documentation = catalog::notSupported("`." + name + "()`", m->limitation);
      out.push_back(std::move(c));
    }
    return out;
  }
  if (!current.parsed && !receiverIn) return out;
  const Symbols &syms = current.comp->symbols();
  for (const AxisInfo &ax : syms.axes.all())
    if (matches(ax.name)) out.push_back({ax.name, 21, "axis " + ax.name + " = " + std::to_string(ax.size), ""});
  for (const std::string &n : syms.aliasOrder)
    if (matches(n)) out.push_back({n, 7, "type alias", ""});
  for (const std::string &n : syms.fnOrder)
    if (matches(n)) out.push_back({n, 3, "fn", ""});
  return out;
}

}  // namespace tcp::lsp
