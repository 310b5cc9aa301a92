// Symbols.h — what name resolution knows about a program: axes, type aliases, functions.
#pragma once

#include "Ast.h"
#include "Mapping.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tcp {

// A `type Name = ...;` alias. Mapping aliases are lowered on first use (aliases may refer to
// aliases declared later, as in Rust); `state` guards against cycles.
struct AliasInfo {
  const ast::Item *item = nullptr;
  enum State { Unresolved, Resolving, Resolved } state = Unresolved;
  MappingRef mapping;  // set when the alias names a mapping `m![...]` (or another mapping alias)
  bool failed = false; // lowering reported an error; uses stay silent
};

struct FnInfo {
  const ast::Item *item = nullptr;
  bool isDevice = false;  // #[device(...)]
  bool isTest = false;    // #[test]
  uint64_t chips = 0;     // #[device(chip = N)]
};

// The program-wide symbol table. Items are hoisted from function bodies into this one scope.
struct Symbols {
  AxisTable axes;
  std::map<std::string, llvm::SMRange> axisRanges;  // where each axis was declared
  std::map<std::string, AliasInfo> aliases;
  std::vector<std::string> aliasOrder;              // declaration order
  std::map<std::string, FnInfo> fns;
  std::vector<std::string> fnOrder;
  // Names the program declares with a (skipped) `struct`, `enum` or `trait`: such a name denotes the
  // program's own type, not the library's engine type of that name (the manual's simplified
  // `struct StreamTensor<'l, D, Time, Packet>` of "Sequencer" > Interface).
  std::set<std::string> declaredTypes;
  // `const NAME: T = value;` items (kernel bodies fold integer constants).
  std::map<std::string, const ast::Item *> consts;
};

}  // namespace tcp
