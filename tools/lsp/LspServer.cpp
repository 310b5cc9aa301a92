// LspServer.cpp — the JSON-RPC dispatch of tcp-lsp: initialize, documents and their diagnostics, hover, definition, completion.
#include "LspServer.h"

#include "LspQueries.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace tcp::lsp {

namespace json = llvm::json;

int Server::run() {
  while (!exit_) {
    std::string error;
    std::optional<json::Value> message = readMessage(in_, &error);
    if (!message) break;
    if (!error.empty() || !message->getAsObject()) {
      // JSON-RPC: a message that does not parse is answered with a parse error (id null).
      replyError(nullptr, -32700, error.empty() ? "the message is not a JSON object" : error);
      continue;
    }
    handle(*message->getAsObject());
  }
  return shutdown_ ? 0 : 1;
}

void Server::reply(const json::Value &id, json::Value result) {
  writeMessage(out_, json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::replyError(const json::Value &id, int code, const std::string &message) {
  writeMessage(out_, json::Object{{"jsonrpc", "2.0"}, {"id", id},
                                  {"error", json::Object{{"code", code}, {"message", message}}}});
}

void Server::notify(const std::string &method, json::Value params) {
  writeMessage(out_, json::Object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Server::handle(const json::Object &message) {
  std::string method = message.getString("method").value_or("").str();
  const json::Value *id = message.get("id");
  static const json::Object kNoParams;
  const json::Object *params = message.getObject("params");
  if (!params) params = &kNoParams;
  if (method == "initialize") {
    json::Object capabilities{
        {"textDocumentSync", json::Object{{"openClose", true}, {"change", 1}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"completionProvider", json::Object{{"triggerCharacters", json::Array{"."}}}},
    };
    if (id) reply(*id, json::Object{{"capabilities", std::move(capabilities)},
                                     {"serverInfo", json::Object{{"name", "tcp-lsp"}, {"version", TCP_VERSION}}}});
    return;
  }
  if (method == "shutdown") {
    shutdown_ = true;
    if (id) reply(*id, nullptr);
    return;
  }
  if (method == "exit") {
    exit_ = true;
    return;
  }
  if (method == "textDocument/didOpen") return open(*params);
  if (method == "textDocument/didChange") return change(*params);
  if (method == "textDocument/didClose") {
    if (Document *doc = document(*params)) {
      notify("textDocument/publishDiagnostics", json::Object{{"uri", doc->uri}, {"diagnostics", json::Array{}}});
      documents_.erase(doc->uri);
    }
    return;
  }
  if (!id) return;  // other notifications (initialized, $/cancelRequest, ...) need nothing
  if (method == "textDocument/hover") return reply(*id, hover(*params));
  if (method == "textDocument/definition") return reply(*id, definition(*params));
  if (method == "textDocument/completion") return reply(*id, completion(*params));
  replyError(*id, -32601, "tcp-lsp does not handle `" + method + "`");
}

Server::Document *Server::document(const json::Object &params) {
  const json::Object *td = params.getObject("textDocument");
  auto uri = td ? td->getString("uri") : std::nullopt;
  if (!uri) return nullptr;
  auto it = documents_.find(uri->str());
  return it == documents_.end() ? nullptr : &it->second;
}

void Server::open(const json::Object &params) {
  const json::Object *td = params.getObject("textDocument");
  auto uri = td ? td->getString("uri") : std::nullopt;
  auto text = td ? td->getString("text") : std::nullopt;
  if (!uri || !text) return;
  Document &doc = documents_[uri->str()];
  doc.uri = uri->str();
  doc.path = pathOfUri(doc.uri);
  doc.version = td->getInteger("version").value_or(0);
  update(doc, text->str());
}

void Server::change(const json::Object &params) {
  Document *doc = document(params);
  const json::Array *changes = params.getArray("contentChanges");
  if (!doc || !changes) return;
  std::string text = doc->current ? doc->current->text : "";
  for (const json::Value &c : *changes) {
    const json::Object *o = c.getAsObject();
    auto t = o ? o->getString("text") : std::nullopt;
    if (!t) continue;
    const json::Object *range = o->getObject("range");
    if (!range) {
      text = t->str();
      continue;
    }
    // An incremental edit (the server asks for whole texts, but accepts ranges).
    auto s = positionFromJson(range->get("start")), e = positionFromJson(range->get("end"));
    if (!s || !e) continue;
    size_t b = offsetOf(text, *s), en = std::max(b, offsetOf(text, *e));
    text.replace(b, en - b, t->str());
  }
  if (const json::Object *td = params.getObject("textDocument")) doc->version = td->getInteger("version").value_or(doc->version);
  update(*doc, text);
}

void Server::update(Document &doc, const std::string &text) {
  doc.current = analyze(text, doc.path);
  if (doc.current->parsed) doc.lastParsed = doc.current;
  publishDiagnostics(doc);
}

void Server::publishDiagnostics(const Document &doc) {
  const Analysis &a = *doc.current;
  // Line starts of the text: the records count lines and byte columns from 1.
  std::vector<size_t> lineStart{0};
  for (size_t k = 0; k < a.text.size(); ++k)
    if (a.text[k] == '\n') lineStart.push_back(k + 1);
  auto position = [&](unsigned line, unsigned column) {
    if (line == 0) return Position{};
    if (line - 1 >= lineStart.size()) return positionOf(a.text, a.text.size());
    // From the line's start: each diagnostic costs its column, not its offset (megabyte files).
    return positionOnLine(a.text, line - 1, lineStart[line - 1], lineStart[line - 1] + (column ? column - 1 : 0));
  };
  json::Array diagnostics;
  // An error in a module the document imports is published at the document's `use`/`mod` that
  // loaded it: the first note of its import chain that points into the document.
  const DiagnosticRecord *foreign = nullptr;
  for (const DiagnosticRecord &r : a.diagnostics) {
    DiagnosticRecord shown = r;
    if (r.line && r.file != doc.path) {  // another module's (or a scratch buffer's)
      if (r.severity != "note") foreign = &r;
      continue;
    }
    if (foreign && r.severity == "note" && llvm::StringRef(r.message).endswith("is imported from here")) {
      shown.severity = foreign->severity == "warning" ? "warning" : "error";
      shown.message = "in '" + foreign->file + "' (" + std::to_string(foreign->line) + ":" +
                      std::to_string(foreign->column) + "): " + foreign->message;
    }
    if (r.severity != "note") foreign = nullptr;
    else if (shown.message != r.message) foreign = nullptr;
    Position s = position(shown.line, shown.column), e = position(shown.endLine, shown.endColumn);
    if (e.line < s.line || (e.line == s.line && e.character < s.character)) e = s;
    int severity = shown.severity == "warning" ? 2 : shown.severity == "note" ? 3 : 1;
    diagnostics.push_back(json::Object{{"range", rangeJson(s, e)}, {"severity", severity}, {"source", "tcp"},
                                       {"message", shown.message}});
  }
  notify("textDocument/publishDiagnostics",
         json::Object{{"uri", doc.uri}, {"version", doc.version}, {"diagnostics", std::move(diagnostics)}});
}

json::Value Server::hover(const json::Object &params) {
  Document *doc = document(params);
  auto pos = positionFromJson(params.get("position"));
  if (!doc || !pos) return nullptr;
  Analysis &a = *doc->current;
  std::optional<Hover> h = lsp::hover(a, offsetOf(a.text, *pos));
  if (!h) return nullptr;
  return json::Object{{"contents", json::Object{{"kind", "markdown"}, {"value", h->markdown}}},
                      {"range", rangeJson(positionOf(a.text, h->begin), positionOf(a.text, h->end))}};
}

json::Value Server::definition(const json::Object &params) {
  Document *doc = document(params);
  auto pos = positionFromJson(params.get("position"));
  if (!doc || !pos) return nullptr;
  // While the text does not parse, the latest text that did answers (its positions).
  Analysis *a = doc->current->parsed ? doc->current.get() : doc->lastParsed.get();
  if (!a) return nullptr;
  size_t offset = offsetOf(a->text, *pos);
  std::optional<Definition> d = lsp::definition(*a, offset);
  if (!d) return nullptr;
  if (!d->file.empty()) {  // in a module the document imports
    llvm::SmallString<256> path(d->file);
    llvm::sys::fs::make_absolute(path);
    Position s{d->line - 1, d->column - 1}, e{d->line - 1, d->endColumn - 1};
    return json::Object{{"uri", "file://" + std::string(path.str())}, {"range", rangeJson(s, e)}};
  }
  return json::Object{{"uri", doc->uri}, {"range", rangeJson(positionOf(a->text, d->begin), positionOf(a->text, d->end))}};
}

json::Value Server::completion(const json::Object &params) {
  Document *doc = document(params);
  auto pos = positionFromJson(params.get("position"));
  if (!doc || !pos) return json::Object{{"isIncomplete", false}, {"items", json::Array{}}};
  Analysis &cur = *doc->current;
  size_t offset = offsetOf(cur.text, *pos);
  Analysis *in = nullptr;
  size_t end = 0;
  std::unique_ptr<Analysis> patched;
  if (std::optional<size_t> dot = memberDot(cur.text, offset)) {
    end = *dot;
    if (cur.parsed) {
      in = &cur;
    } else {
      // `value.` being typed rarely parses: type the receiver in the text without the `.word` (or
      // with `;` in its place, ending the statement), or else in the latest text that parsed, at the
      // same line and column.
      for (const char *replacement : {"", ";"}) {
        std::string text = cur.text;
        text.replace(*dot, wordAt(text, offset).second - *dot, replacement);
        patched = analyze(text, doc->path);
        if (patched->parsed) {
          in = patched.get();
          break;
        }
      }
      if (!in && doc->lastParsed) {
        in = doc->lastParsed.get();
        end = offsetOf(in->text, positionOf(cur.text, *dot));
      }
    }
    if (!in) return json::Object{{"isIncomplete", false}, {"items", json::Array{}}};
  }
  json::Array items;
  size_t order = 0;
  for (const Completion &c : lsp::complete(cur, offset, in, end)) {
    json::Object item{{"label", c.label}, {"kind", c.kind}, {"detail", c.detail}};
    char sort[16];
    std::snprintf(sort, sizeof sort, "%04zu", order++);
    item["sortText"] = std::string(sort);  // the catalog's (pipeline) order
    if (!c.documentation.empty()) item["documentation"] = c.documentation;
    items.push_back(std::move(item));
  }
  return json::Object{{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace tcp::lsp
