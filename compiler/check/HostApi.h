// HostApi.h — the host API of tcp programs as one table: every function, associated item, method, field and macro host code may use.
#pragma once

#include <string>
#include <vector>

namespace tcp {

// One entry of the host API. The host-code checker (HostCheck*.cpp) accepts exactly the supported
// entries (with their arity), tcpi implements exactly them (tests/unit/host_api_test.cpp runs every
// example through tcpi and checks the interpreter's dispatch names against this table), and
// docs/host-api.md documents every `usage`.
struct HostApiEntry {
  enum Kind {
    Function,   // `launch(...)`: a free function
    AssocFn,    // `Owner::name(...)` (owner "mapping": an axis, a mapping alias or `<m![...]>`)
    AssocConst, // `Owner::NAME`
    Value,      // a named value (`None`)
    Method,     // `x.name(...)` on a value of type Owner ("any": every value)
    Field,      // `x.name` on a value of type Owner
    Macro,      // `name!(...)`
  };
  Kind kind;
  std::string owner;  // the receiver's or owner's type name ("" for functions, values and macros)
  std::string name;
  unsigned minArgs = 0, maxArgs = 0;  // maxArgs = kVariadic: no upper bound
  std::string usage;    // the spelling docs/host-api.md shows
  std::string example;  // a call tcpi runs in the API test (names from tests/unit/host_api_test.cpp)
  std::string expectedFailure;  // the runtime error the example ends with ("" = it succeeds)
  std::string unsupported;      // non-empty: the manual's API, refused by the checker with this reason
  static constexpr unsigned kVariadic = ~0u;

  bool supported() const { return unsupported.empty(); }
  std::string spelling() const;  // "HostTensor::rand", "x.to_hbm" → "HostTensor.to_hbm", "assert_close!"
};

// Every entry, in documentation order.
const std::vector<HostApiEntry> &hostApi();

// The entry for a name of a kind and owner, or nullptr. Methods also match owner "any".
const HostApiEntry *findHostApi(HostApiEntry::Kind kind, const std::string &owner, const std::string &name);
// The names of every supported entry of a kind and owner (for "did you mean" and name lists).
std::vector<std::string> hostApiNames(HostApiEntry::Kind kind, const std::string &owner);
// Every owner type with associated functions or constants (`Context`, `HostTensor`, ...).
std::vector<std::string> hostApiOwners();

}  // namespace tcp
