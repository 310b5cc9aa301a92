// ResolverAttributes.cpp — the attribute rules: `#[device(chip = N)]`, `#[test]` (also `#[tokio::test]`), `#[tokio::main]`, the Rust attributes that change nothing (ignored), and nothing else.
#include "Resolver.h"

#include <cstdint>
#include <limits>

namespace tcp {

namespace {
const char *kKnownOuter =
    "tcp knows `#[device]`, `#[device(chip = N)]`, `#[test]` (or `#[tokio::test]`) and `#[tokio::main]`, and ignores Rust's lint, "
    "documentation and code-generation attributes (`allow`, `warn`, `deny`, `forbid`, `expect`, `doc`, `derive`, "
    "`inline`, `cold`, `must_use`, `track_caller`, `repr`, `non_exhaustive`, `rustfmt::skip`) and the manual's "
    "`#[primitive(...)]`";
const char *kKnownInner =
    "tcp ignores the inner attributes `allow`, `warn`, `deny`, `forbid`, `expect`, `doc`, `feature`, "
    "`register_tool` and `rustfmt::skip`, and knows no other";

// Rust attributes that do not change what a program computes (lints, documentation, code generation,
// the derives of skipped items) and the manual's `#[primitive(...)]`: accepted with any arguments.
bool lintOrDoc(const std::string &name) {
  for (const char *n : {"allow", "warn", "deny", "forbid", "expect", "doc", "rustfmt::skip"})
    if (name == n) return true;
  return false;
}
bool ignoredOuter(const std::string &name) {
  if (lintOrDoc(name)) return true;
  for (const char *n : {"derive", "primitive", "inline", "cold", "must_use", "track_caller", "repr", "non_exhaustive"})
    if (name == n) return true;
  return false;
}
bool ignoredInner(const std::string &name) { return lintOrDoc(name) || name == "feature" || name == "register_tool"; }
// Rust attributes whose meaning tcp would have to implement: why ignoring them would be wrong, or "".
std::string unsupported(const std::string &name) {
  if (name == "cfg" || name == "cfg_attr") return "tcp would keep the code whatever the condition";
  if (name == "should_panic" || name == "ignore") return "tcp would run the test as a plain `#[test]`";
  return {};
}
}  // namespace

void Resolver::checkInnerAttributes(const std::vector<ast::Attribute> &attrs) {
  for (const ast::Attribute &a : attrs) {
    if (ignoredInner(a.name)) continue;
    if (std::string why = unsupported(a.name); !why.empty())
      diags_.error(a.range, "`#![" + a.name + "]` is not supported yet: " + why);
    else
      diags_.error(a.range, "unknown attribute `#![" + a.name + "]`: " + kKnownInner);
  }
}

void Resolver::checkAttributes(const ast::Item &item, FnInfo *fn) {
  const bool isFn = item.kind == ast::Item::Fn;
  bool seenDevice = false, seenTest = false, seenMain = false;
  for (const ast::Attribute &a : item.attrs) {
    if (ignoredOuter(a.name)) continue;
    const bool device = a.name == "device", test = a.name == "test" || a.name == "tokio::test",
               main = a.name == "tokio::main";
    if (!device && !test && !main) {
      if (std::string why = unsupported(a.name); !why.empty())
        diags_.error(a.range, "`#[" + a.name + "]` is not supported yet: " + why);
      else
        diags_.error(a.range, "unknown attribute `#[" + a.name + "]`: " + kKnownOuter);
      continue;
    }
    if (!isFn) {
      diags_.error(a.range, "`#[" + a.name + "]` applies to functions only");
      continue;
    }
    bool &seen = device ? seenDevice : test ? seenTest : seenMain;
    if (seen) {
      diags_.error(a.range, "`#[" + a.name + "]` is given twice on `" + item.name + "`");
      continue;
    }
    seen = true;
    if (!device) {
      if (!a.args.empty()) diags_.error(a.range, "`#[" + a.name + "]` takes no arguments");
      else if (fn && test) fn->isTest = true;
      continue;
    }
    if (fn) fn->isDevice = true;
    bool chipSeen = false;
    for (const auto &[key, value] : a.args) {
      if (key == "chip" && !value) {
        diags_.error(a.range, "`#[device(chip)]` needs the chip count: `#[device(chip = N)]`");
        continue;
      }
      if (key != "chip") {
        diags_.error(a.range, "`#[device]` takes one argument, `chip = N` (the number of chips the kernel runs on); found " +
                                  (key.empty() ? std::string("an unnamed argument") : "`" + key + "`"));
        continue;
      }
      if (chipSeen) {
        diags_.error(value->range, "`chip` is given twice in `#[device(...)]`");
        continue;
      }
      chipSeen = true;
      std::optional<uint64_t> n = evalConst(*value);
      if (!n) continue;
      if (*n == 0 || *n > std::numeric_limits<uint32_t>::max()) {
        diags_.error(value->range, "`#[device(chip = " + std::to_string(*n) + ")]`: a kernel runs on 1 to " +
                                       std::to_string(std::numeric_limits<uint32_t>::max()) + " chips");
        continue;
      }
      if (fn) fn->chips = *n;
    }
  }
}

}  // namespace tcp
