// host_api_test.cpp — the host API table (HostApi.h) agrees with tcpi's interpreter and with docs/host-api.md.
#include "HostApi.h"
#include "Session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t k = s.find(from); k != std::string::npos; k = s.find(from, k + to.size())) s.replace(k, from.size(), to);
  return s;
}

// The program every example runs in: the kernel the `launch` example launches.
const char *kProgram = R"(axes![A = 2048, B = 4];
type E = m![A, B];
type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
fn kernel(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma, 0);
    let result = ctx
        .main
        .begin(dm.view())
        .fetch::<i32, m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_branch(BranchMode::Unconditional)
        .vector_fxp(FxpBinaryOp::AddFxp, 1)
        .vector_final()
        .commit::<m![A % 8]>(1 << 12);
    result.to_hbm(&mut ctx.tdma, 1 << 28)
}
)";

// The bindings the examples use (HostApi.cpp names them).
const char *kPrelude = R"(let mut ctx = Context::acquire();
let mut rng = SmallRng::seed_from_u64(1);
let x = HostTensor::<i32, m![A]>::zeros();
let y = HostTensor::<i32, m![B]>::from_vec(vec![1, 2, 3, 4]);
let h = x.to_hbm(&mut ctx.pdma, 0);
let t = LookupTable::<i8, i8>::from_fn(|v| v);
let o = Some(3);
let v = vec![1, 2];
let s = "ab";
let ix = i![A: 1];
)";

struct Fixture {
  std::string out, err;
  llvm::raw_string_ostream os{out}, es{err};
  tcp::interp::Session session{os, es};
  fs::path dir;

  Fixture() {
    dir = fs::path(TCP_BINARY_DIR) / "host_api_test";
    fs::create_directories(dir);
    fs::path file = dir / "program.tcp";
    std::ofstream(file) << kProgram;
    EXPECT_TRUE(session.loadFile(file.string())) << es.str();
    EXPECT_TRUE(session.evalInput(kPrelude, 1)) << es.str();
  }
};

// Every supported entry runs in tcpi (checked, then evaluated); every refused one is refused by the
// checker with its reason, before it runs.
TEST(HostApi, EveryEntryChecksAndRunsInTcpi) {
  Fixture f;
  unsigned line = 100;
  for (const tcp::HostApiEntry &e : tcp::hostApi()) {
    SCOPED_TRACE(e.spelling() + ": " + e.example);
    ASSERT_FALSE(e.example.empty());
    f.err.clear();
    std::string code = replaceAll(e.example, "$TMP", f.dir.string());
    bool ok = f.session.evalInput(code + "\n", line);
    line += 10;
    std::string err = f.es.str();
    if (!e.supported()) {
      EXPECT_FALSE(ok);
      EXPECT_NE(err.find("error: " + e.unsupported), std::string::npos) << err;
      EXPECT_EQ(err.find("runtime error"), std::string::npos) << err;
    } else if (!e.expectedFailure.empty()) {
      EXPECT_FALSE(ok);
      EXPECT_NE(err.find("runtime error: "), std::string::npos) << err;
      EXPECT_NE(err.find(e.expectedFailure), std::string::npos) << err;
    } else {
      EXPECT_TRUE(ok) << err;
    }
  }
}

// A misspelt call of each kind is refused before it runs, naming the nearest entry.
TEST(HostApi, UnknownNamesAreCheckErrorsWithTheNearestName) {
  Fixture f;
  struct Case {
    const char *code, *message;
  } cases[] = {
      {"x.lenn()", "error: `HostTensor<i32, m![A]>` has no method `lenn`; did you mean `len`?"},
      {"HostTensor::<i32, m![A]>::zeroes()", "error: `HostTensor` has no associated function `zeroes`; did you mean `zeros`?"},
      {"ctx.pdam", "error: `Context` has no field `pdam`; did you mean `pdma`?"},
      {"printn!(\"x\")", "error: unknown macro `printn!`; did you mean `println`?"},
      {"lanch(kernel, (&mut ctx, &h))", "error: `lanch` is not a function; did you mean `launch`?"},
      {"E::mapall(1)", "error: mapping `E` has no associated function `mapall`; did you mean `map_all`?"},
  };
  unsigned line = 100;
  for (const Case &c : cases) {
    SCOPED_TRACE(c.code);
    f.err.clear();
    EXPECT_FALSE(f.session.evalInput(std::string(c.code) + "\n", line += 10));
    std::string err = f.es.str();
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
    EXPECT_EQ(err.find("runtime error"), std::string::npos) << err;
  }
}

// docs/host-api.md shows every entry's usage (and so documents what the checker accepts).
TEST(HostApi, DocumentationShowsEveryEntry) {
  std::string doc = readFile(fs::path(TCP_SOURCE_DIR) / "docs" / "host-api.md");
  ASSERT_FALSE(doc.empty());
  doc = replaceAll(doc, "\\|", "|");  // `|` inside markdown tables
  for (const tcp::HostApiEntry &e : tcp::hostApi())
    EXPECT_NE(doc.find("`" + e.usage + "`"), std::string::npos) << "docs/host-api.md does not show `" << e.usage << "`";
}

// The names tcpi's host dispatch compares against (`method == "len"`, `name == "assert_eq"`, ...) are
// the table's names and owners, and every supported entry's name is one of them.
TEST(HostApi, InterpreterDispatchMatchesTheTable) {
  std::set<std::string> dispatched;
  const std::regex literal(R"((==|!=) \"([A-Za-z_][A-Za-z_0-9]*)\")");
  for (const char *file : {"HostRuntime.cpp", "HostMethods.cpp", "HostLookupTable.cpp", "EvalPaths.cpp", "EvalMacros.cpp",
                           "Evaluator.cpp", "EvalOperators.cpp", "EvalClosures.cpp"}) {
    std::string text = readFile(fs::path(TCP_SOURCE_DIR) / "interp" / "host" / file);
    ASSERT_FALSE(text.empty()) << file;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it)
      dispatched.insert((*it)[2]);
  }
  // Comparisons that are not host API dispatch: `as` targets and a value kind.
  const std::set<std::string> notDispatch = {"f32", "f64", "i8", "i16", "i32", "u8", "u16", "u32", "closure"};
  std::set<std::string> known;
  for (const tcp::HostApiEntry &e : tcp::hostApi()) {
    known.insert(e.name);
    known.insert(e.owner);
  }
  for (const std::string &name : dispatched) {
    if (notDispatch.count(name)) continue;
    EXPECT_TRUE(known.count(name)) << "tcpi dispatches `" << name << "`, which the host API table does not list";
  }
  for (const tcp::HostApiEntry &e : tcp::hostApi()) {
    if (!e.supported()) continue;
    EXPECT_TRUE(dispatched.count(e.name)) << "the table lists `" << e.spelling() << "` but tcpi does not dispatch it";
  }
}

}  // namespace
