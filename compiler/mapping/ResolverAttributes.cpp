// ResolverAttributes.cpp — the attribute rules: `#[device(chip = N)]`, `#[test]`, `#[tokio::main]`, the Rust attributes tcp ignores, and nothing else.
#include "Resolver.h"

#include <cstdint>
#include <limits>

namespace tcp {

namespace {
const char *kKnownOuter =
    "tcp knows `#[device]`, `#[device(chip = N)]`, `#[test]` and `#[tokio::main]`, and ignores the Rust attributes "
    "`#[allow(...)]`, `#[derive(...)]` and `#[primitive(...)]`";
const char *kKnownInner = "tcp ignores `#![allow(...)]`, `#![feature(...)]` and `#![register_tool(...)]` and knows no other";

// Rust attributes of the manual's listings that mean nothing to tcp: accepted with any arguments.
bool ignoredOuter(const std::string &name) { return name == "allow" || name == "derive" || name == "primitive"; }
bool ignoredInner(const std::string &name) { return name == "allow" || name == "feature" || name == "register_tool"; }
}  // namespace

void Resolver::checkInnerAttributes(const std::vector<ast::Attribute> &attrs) {
  for (const ast::Attribute &a : attrs)
    if (!ignoredInner(a.name)) diags_.error(a.range, "unknown attribute `#![" + a.name + "]`: " + kKnownInner);
}

void Resolver::checkAttributes(const ast::Item &item, FnInfo *fn) {
  const bool isFn = item.kind == ast::Item::Fn;
  bool seenDevice = false, seenTest = false, seenMain = false;
  for (const ast::Attribute &a : item.attrs) {
    if (ignoredOuter(a.name)) continue;
    const bool device = a.name == "device", test = a.name == "test", main = a.name == "tokio::main";
    if (!device && !test && !main) {
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
