// LspServer.h — tcp-lsp: a Language Server Protocol server over a pair of streams (stdio in tcp-lsp).
#pragma once

#include "LspAnalysis.h"
#include "LspProtocol.h"

#include <llvm/Support/JSON.h>

#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>

namespace tcp::lsp {

class Server {
 public:
  Server(std::istream &in, std::ostream &out) : in_(in), out_(out) {}
  // Serves until `exit` (or the end of the input). Returns the exit status: 0 after `shutdown`.
  int run();

 private:
  struct Document {
    std::string uri, path;
    int64_t version = 0;
    std::shared_ptr<Analysis> current;     // the text as it is now
    std::shared_ptr<Analysis> lastParsed;  // the latest text that parsed (completion while typing)
  };

  void handle(const llvm::json::Object &message);
  void reply(const llvm::json::Value &id, llvm::json::Value result);
  void replyError(const llvm::json::Value &id, int code, const std::string &message);
  void notify(const std::string &method, llvm::json::Value params);

  void open(const llvm::json::Object &params);
  void change(const llvm::json::Object &params);
  void update(Document &doc, const std::string &text);
  void publishDiagnostics(const Document &doc);
  Document *document(const llvm::json::Object &params);
  llvm::json::Value hover(const llvm::json::Object &params);
  llvm::json::Value definition(const llvm::json::Object &params);
  llvm::json::Value completion(const llvm::json::Object &params);

  std::istream &in_;
  std::ostream &out_;
  std::map<std::string, Document> documents_;
  bool shutdown_ = false, exit_ = false;
};

}  // namespace tcp::lsp
