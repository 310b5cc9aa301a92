// OpAccounting.h — the engine ops a function's source calls, to check that none is lost on the way to the typed program.
#pragma once

#include "Ast.h"

#include <functional>
#include <string>
#include <vector>

namespace tcp {

// The typed-op name an engine method produces (`fetch_with_table` → "fetch", `begin_interleaved` →
// "begin", `commit_view` → "commit"); "" for methods that produce no op (`view`) or are no engine op.
std::string typedOpName(const std::string &method);

// The typed-op names of every engine-method call in a function body (nested items excluded), in
// evaluation order (receiver, then arguments, then the call). A body that checks without errors
// produces exactly these ops (TypeChecker::check asserts it; tests/unit/op_accounting_test.cpp
// compares them over every golden, sample and manual listing).
// bodyOf(name): the body a call of the stage function `name` runs in place (null for any other
// name); its calls count where the call is.
using BodyOf = std::function<const ast::Block *(const std::string &)>;
std::vector<std::string> engineCalls(const ast::Block &body, const BodyOf &bodyOf = nullptr);

// Whether the typed ops (names) of a body that checked account for its engine calls: exactly the
// calls when the body has no loop or branch; else every call outside them once, and the other ops
// calls of a loop body or a branch (a `for` over a constant range runs its body any number of times,
// an `if` on a constant one branch).
// The names a body calls as functions (`f(...)`, one path segment), in order, repeats included.
std::vector<std::string> calledFunctions(const ast::Block &body);

bool opsAccountFor(const ast::Block &body, std::vector<std::string> typed, const BodyOf &bodyOf = nullptr);

}  // namespace tcp
