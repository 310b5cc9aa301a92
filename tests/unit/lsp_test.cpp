// lsp_test.cpp — tcp-lsp's protocol layer and server in process: framing, UTF-16 positions, errors
// for malformed and unknown requests, incremental edits, the exit status. The scripted editor
// session with pinned responses is the golden tests/golden/lsp/session.tcp.
#include "LspProtocol.h"
#include "LspServer.h"

#include <gtest/gtest.h>
#include <llvm/Support/FormatVariadic.h>

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
