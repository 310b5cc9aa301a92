// lsp_test.cpp — tcp-lsp's protocol layer and server in process: framing, UTF-16 positions, errors
// for malformed and unknown requests, incremental edits, the exit status. The scripted editor
// session with pinned responses is the golden tests/golden/lsp/session.tcp.
#include "LspProtocol.h"
#include "LspQueries.h"
#include "LspServer.h"

#include <gtest/gtest.h>
#include <llvm/Support/FormatVariadic.h>

#include <fstream>
#include <sstream>

namespace {

using namespace tcp::lsp;
namespace json = llvm::json;

std::string framed(const std::string &body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body; }

std::vector<json::Value> serve(const std::string &input, int *status = nullptr) {
  std::istringstream in(input);
  std::ostringstream out;
  Server server(in, out);
  int s = server.run();
  if (status) *status = s;
  std::istringstream replies(out.str());
  std::vector<json::Value> messages;
  std::string error;
  while (auto m = readMessage(replies, &error)) messages.push_back(std::move(*m));
  EXPECT_TRUE(error.empty()) << error;
  return messages;
}

TEST(LspProtocol, PositionsCountUtf16CodeUnits) {
  std::string text = "a×b\n𝔸x\nlast";  // × is 2 bytes (1 unit), 𝔸 is 4 bytes (2 units)
  EXPECT_EQ(offsetOf(text, {0, 2}), 3u);  // before b
  EXPECT_EQ(offsetOf(text, {1, 2}), 9u);  // before x
  EXPECT_EQ(offsetOf(text, {1, 99}), 10u);  // clamped to the end of the line
  EXPECT_EQ(offsetOf(text, {9, 0}), text.size());
  Position p = positionOf(text, 9);
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.character, 2u);
  EXPECT_EQ(pathOfUri("file:///a/b%20c.tcp"), "/a/b c.tcp");
  // From a line's start, positionOnLine gives what positionOf gives from the text's, at every offset.
  for (size_t at = 5; at <= text.size(); ++at) {  // line 1 starts at offset 5
    Position whole = positionOf(text, at), fromLine = positionOnLine(text, 1, 5, at);
    EXPECT_TRUE(whole.line == fromLine.line && whole.character == fromLine.character) << at;
  }
}

TEST(LspServer, ErrorsForMalformedAndUnknownRequests) {
  int status = 0;
  auto replies = serve(framed("{not json") + framed(R"({"jsonrpc":"2.0","id":7,"method":"textDocument/rename","params":{}})") +
                           framed(R"({"jsonrpc":"2.0","method":"exit"})"),
                       &status);
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].getAsObject()->getObject("error")->getInteger("code"), -32700);
  EXPECT_EQ(replies[1].getAsObject()->getInteger("id"), 7);
  EXPECT_EQ(replies[1].getAsObject()->getObject("error")->getInteger("code"), -32601);
  EXPECT_EQ(status, 1);  // exit without shutdown
}

TEST(LspServer, IncrementalEditsAndTheExitStatus) {
  std::string uri = "file:///t.tcp";
  std::string open = llvm::formatv("{0}", json::Value(json::Object{
                                              {"jsonrpc", "2.0"},
                                              {"method", "textDocument/didOpen"},
                                              {"params", json::Object{{"textDocument", json::Object{{"uri", uri}, {"version", 1},
                                                                                                   {"text", "axes![A = 8];\ntype E = m![A, C];\n"}}}}}}))
                         .str();
  // Replace `C` (line 1, characters 15..16) by `A`: the unknown axis goes away.
  std::string change = R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":")" + uri +
                       R"(","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":15},"end":{"line":1,"character":16}},"text":"A"}]}})";
  int status = 1;
  auto replies = serve(framed(open) + framed(change) + framed(R"({"jsonrpc":"2.0","id":1,"method":"shutdown"})") +
                           framed(R"({"jsonrpc":"2.0","method":"exit"})"),
                       &status);
  ASSERT_EQ(replies.size(), 3u);
  const json::Array *first = replies[0].getAsObject()->getObject("params")->getArray("diagnostics");
  ASSERT_EQ(first->size(), 1u);
  EXPECT_EQ((*first)[0].getAsObject()->getString("message"), llvm::StringRef("unknown axis `C`; declare it in `axes![...]`"));
  EXPECT_TRUE(replies[1].getAsObject()->getObject("params")->getArray("diagnostics")->empty());
  EXPECT_EQ(status, 0);
}

}  // namespace

namespace {

// Every position of the samples answers without crashing: hover, definition and completion at each
// offset.
TEST(LspQueries, EveryPositionOfTheSamplesAnswers) {
  size_t hovers = 0, completions = 0;
  for (const char *name : {"gemm", "gemv", "dot_product", "elementwise_mul", "constant_add"}) {
    std::string path = std::string(TCP_SOURCE_DIR) + "/samples/hello/" + name + ".tcp";
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto a = analyze(ss.str(), path);
    ASSERT_TRUE(a->parsed) << path;
    for (size_t k = 0; k < a->text.size(); ++k) {
      hovers += hover(*a, k).has_value();
      (void)definition(*a, k);
      if (auto dot = memberDot(a->text, k)) completions += !complete(*a, k, a.get(), *dot).empty();
    }
  }
  EXPECT_GT(hovers, 1000u);
  EXPECT_GT(completions, 50u);
}

}  // namespace

namespace {

// While a method is being typed the text does not parse: for every call of the GEMM sample's
// chains, the text with that call deleted but for its `.` (a `.` just typed in a chain) still
// completes the methods of the receiver's stage, among them the one that was there.
TEST(LspServer, CompletesWhileTheTextDoesNotParse) {
  std::ifstream in(std::string(TCP_SOURCE_DIR) + "/samples/hello/gemm.tcp");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  size_t tried = 0;
  for (size_t at = text.find("\n        ."); at != std::string::npos; at = text.find("\n        .", at + 1)) {
    size_t dot = at + 9, end = dot + 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    std::string method = text.substr(dot + 1, end - dot - 1);
    if (method == "main" || method == "sub") continue;
    // Skip the turbofish and the arguments: `::<...>(...)`.
    auto skip = [&](char open, char close) {
      if (end >= text.size() || text[end] != open) return;
      for (int depth = 0; end < text.size(); ++end) {
        depth += text[end] == open ? 1 : text[end] == close ? -1 : 0;
        if (depth == 0) break;
      }
      ++end;
    };
    if (text.compare(end, 2, "::") == 0) end += 2, skip('<', '>');
    skip('(', ')');
    std::string typed = text.substr(0, dot + 1) + text.substr(end);
    Position p = positionOf(typed, dot + 1);
    std::string open = llvm::formatv("{0}", json::Value(json::Object{
        {"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
        {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///g.tcp"}, {"version", 1}, {"text", typed}}}}}})).str();
    std::string complete = llvm::formatv("{0}", json::Value(json::Object{
        {"jsonrpc", "2.0"}, {"id", 1}, {"method", "textDocument/completion"},
        {"params", json::Object{{"textDocument", json::Object{{"uri", "file:///g.tcp"}}}, {"position", toJson(p)}}}})).str();
    auto replies = serve(framed(open) + framed(complete) + framed(R"({"jsonrpc":"2.0","method":"exit"})"));
    ASSERT_EQ(replies.size(), 2u) << method;
    const json::Array *items = replies[1].getAsObject()->getObject("result")->getArray("items");
    bool found = false;
    for (const json::Value &item : *items) found |= item.getAsObject()->getString("label") == llvm::StringRef(method);
    EXPECT_TRUE(found) << "no `" << method << "` offered at line " << p.line + 1;
    ++tried;
  }
  EXPECT_GE(tried, 10u);
}

}  // namespace

namespace {

std::string readSource(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Programs spanning files (`mod`, `use` of the stdlib): every position of the root file answers,
// and the analysis of the whole program has no error.
TEST(LspQueries, EveryPositionOfMultiFileProgramsAnswers) {
  size_t hovers = 0;
  for (const char *rel : {"tests/golden/modules/elementwise_two_files.tcp", "tests/golden/stdlib/gemm_gemv_shared.tcp",
                          "tests/golden/stdlib/elementwise_i32.tcp"}) {
    std::string path = std::string(TCP_SOURCE_DIR) + "/" + rel;
    auto a = analyze(readSource(path), path);
    ASSERT_TRUE(a->parsed) << path;
    for (const tcp::DiagnosticRecord &r : a->diagnostics) {
      EXPECT_NE(r.severity, "error") << path << ": " << r.message;
    }
    for (size_t k = 0; k < a->text.size(); ++k) {
      hovers += hover(*a, k).has_value();
      (void)definition(*a, k);
      if (auto dot = memberDot(a->text, k)) (void)complete(*a, k, a.get(), *dot);
    }
  }
  EXPECT_GT(hovers, 100u);
}

// Go to definition of an imported kernel, alias and axis lands in the module's file.
TEST(LspQueries, DefinitionsInImportedModules) {
  std::string path = std::string(TCP_SOURCE_DIR) + "/tests/golden/modules/elementwise_two_files.tcp";
  auto a = analyze(readSource(path), path);
  ASSERT_TRUE(a->parsed);
  auto at = [&](const std::string &needle) { return a->text.find(needle) + 1; };
  auto kernel = definition(*a, at("(add_one,"));
  ASSERT_TRUE(kernel.has_value());
  EXPECT_NE(kernel->file.find("kernels.tcp"), std::string::npos);
  EXPECT_EQ(kernel->line, 6u);    // `pub fn add_one(`
  EXPECT_EQ(kernel->column, 8u);
  auto axis = definition(*a, at("m![A]>::rand") + 3);
  ASSERT_TRUE(axis.has_value());
  EXPECT_NE(axis->file.find("shapes.tcp"), std::string::npos);
  EXPECT_EQ(axis->line, 2u);      // `pub axes![A = 2048];`
  EXPECT_EQ(axis->column, 11u);
}

// An error in a module the document loads is published at the document's `mod` line.
TEST(LspServer, AnErrorInAnImportedModuleShowsAtTheImport) {
  std::string path = std::string(TCP_SOURCE_DIR) + "/tests/golden/modules/fail_error_in_child.tcp";
  std::string open = llvm::formatv("{0}", json::Value(json::Object{
                                              {"jsonrpc", "2.0"},
                                              {"method", "textDocument/didOpen"},
                                              {"params", json::Object{{"textDocument", json::Object{{"uri", "file://" + path}, {"version", 1},
                                                                                                   {"text", readSource(path)}}}}}}))
                         .str();
  int status = 1;
  auto replies = serve(framed(open) + framed(R"({"jsonrpc":"2.0","id":1,"method":"shutdown"})") +
                           framed(R"({"jsonrpc":"2.0","method":"exit"})"),
                       &status);
  ASSERT_EQ(replies.size(), 2u);
  const json::Array *diags = replies[0].getAsObject()->getObject("params")->getArray("diagnostics");
  ASSERT_EQ(diags->size(), 1u);
  const json::Object *d = (*diags)[0].getAsObject();
  EXPECT_EQ(d->getInteger("severity"), 1);
  EXPECT_EQ(d->getObject("range")->getObject("start")->getInteger("line"), 1);  // `mod broken_child;`
  EXPECT_TRUE(d->getString("message")->contains("broken_child.tcp")) << d->getString("message")->str();
  EXPECT_TRUE(d->getString("message")->contains("stride 3 does not divide")) << d->getString("message")->str();
}

}  // namespace
