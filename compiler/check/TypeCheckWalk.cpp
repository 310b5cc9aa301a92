// TypeCheckWalk.cpp — walks a kernel or stage function: parameters, statements, its result and the rule that its work is kept.
#include "MappingFactor.h"
#include "TypeCheckInternal.h"

#include <set>

namespace tcp {

namespace {
// The first dimension in which a value's type differs from the declared one, as a hint for the
// mismatch message ("" when only the stage or context differs).
std::string typeDifference(const TensorType &declared, const TensorType &value) {
  if (declared.tier != value.tier) return "";  // the tensor kinds differ: the types say it
  if (declared.dtype != value.dtype)
    return std::string(" (the element types differ: ") + num::dtypeName(declared.dtype) + " declared, " +
           num::dtypeName(value.dtype) + " here)";
  const std::pair<const char *, MappingRef TensorType::*> dims[] = {
      {"Chip", &TensorType::chip}, {"Cluster", &TensorType::cluster}, {"Slice", &TensorType::slice},
      {"Row", &TensorType::row},   {"Time", &TensorType::time},       {"Packet", &TensorType::packet},
      {"Element", &TensorType::element}};
  for (const auto &[name, field] : dims) {
    const MappingRef &a = declared.*field, &b = value.*field;
    if (!a || !b || a->str() == b->str()) continue;
    std::string d = std::string(" (they differ in ") + name + ": " + a->str() + " declared, " + b->str() + " here";
    if (value.tier == Tier::Stream && (std::string(name) == "Chip" || std::string(name) == "Cluster" || std::string(name) == "Slice"))
      d += "; a stream keeps the Chip, Cluster and Slice of the tensor it was fetched from, and only `.switch()` "
           "moves data across slices";
    return d + ")";
  }
  return "";
}
}  // namespace

TypeChecker::FunctionChecker::FunctionChecker(TypeChecker &tc, const ast::Item &fn, TypedFunction &out)
    : tc_(tc), fn_(fn), out_(out) {}

void TypeChecker::FunctionChecker::declareParams() {
  const char *kind = inKernel() ? "kernel" : "stage function";
  for (const ast::Param &p : fn_.params) {
    if (p.isSelf || !p.pattern || !p.type) {
      error(p.range, std::string("a ") + kind + " has no `self` parameter");
      continue;
    }
    bool wildcard = p.pattern->kind == ast::Pattern::Wildcard;
    if (p.pattern->kind != ast::Pattern::Ident && !wildcard) {
      refuseConstruct(p.pattern->range, "a destructuring parameter");
      continue;
    }
    const std::string name = wildcard ? "" : p.pattern->name;
    unsigned before = diags().errorCount();
    auto t = tc_.tensorTypeOf(*p.type, /*report=*/true);
    // One digit of an axis in two places (`Time = m![R / 8 % 2, X, R / 8 % 2]`) is no tensor layout: a
    // position would carry two coordinates for it. No op derives a parameter's type, so it is refused
    // here (values are refused where they are sequenced: "a sequencer loop steps each digit by one stride").
    if (t) {
      std::vector<FactorTerm> terms;
      for (const MappingRef &m : {t->chip, t->cluster, t->slice, t->row, t->time, t->packet, t->element})
        if (m)
          for (const FactorTerm &f : factorization(m).terms) terms.push_back(f);
      if (std::optional<std::string> shared = sharedDigit(terms)) {
        error(p.type->range, "the type of `" + name + "` lays out one digit twice: " + *shared +
                                 "; each digit of an axis has one place in a tensor's dimensions");
        if (!wildcard) env_[name] = CheckedValue{};  // reported: its uses stay silent
        continue;
      }
    }
    if (t) {
      if (inKernel() && t->tier != Tier::Hbm && t->tier != Tier::Dm)
        error(p.range, "kernel parameters are HBM or DM tensors; `" + name + "` is a " + t->str());
      // "Memory and Stream" (Size Constraint) holds for every tensor, stage-function parameters included.
      checkDeviceDims(*t, p.range);
      if (t->tier != Tier::Stream && t->tier != Tier::Host) checkCapacity(*t, p.range, std::nullopt);
      int id = place(*t, name, p.range, std::nullopt);
      tensors_[id].param = static_cast<int>(out_.params.size());
      if (!wildcard) env_[name] = tensorValue(*t, id);
      out_.params.emplace_back(name, *t);
    } else if (diags().errorCount() != before) {
      if (!wildcard) env_[name] = CheckedValue{};  // reported: its uses stay silent
    } else if (!wildcard && declareTableParam(p)) {
    } else if (namesType(*p.type, "Context")) {
      CheckedValue v;
      v.kind = CheckedValue::Device;
      if (!wildcard) env_[name] = v;
    } else if (!inKernel() && isIntegerOrIntegerArrayType(*p.type)) {
      // A value the stage function receives when it runs (the manual's `zero_point: i8`): not a
      // constant, so only the forms that take a runtime value accept it.
      CheckedValue v;
      v.kind = CheckedValue::Runtime;
      v.text = p.type->kind == ast::Type::Array ? "[" + p.type->elems[0]->path.segments[0].name + "; N]"
                                                : p.type->path.segments[0].name;
      if (!wildcard) env_[name] = v;
    } else {
      error(p.type->range, std::string("a ") + kind + " takes " +
                               (inKernel() ? "`ctx: &mut Context`, HBM or DM tensors and `&LookupTable`s"
                                           : "streams, tensors, `&LookupTable`s and integer parameters") +
                               "; the type of `" + (wildcard ? std::string("_") : name) + "` is none of these");
      if (!wildcard) env_[name] = CheckedValue{};
    }
  }
}

std::optional<TensorType> TypeChecker::FunctionChecker::declaredResult(bool *declared) {
  *declared = false;
  if (!fn_.ret) return std::nullopt;
  const ast::Type &t = *fn_.ret;
  if (t.kind == ast::Type::Tuple && t.elems.empty()) return std::nullopt;  // `-> ()`
  *declared = true;
  const char *kind = inKernel() ? "kernel" : "stage function";
  if (t.kind == ast::Type::Tuple) {
    tupleSignature_ = true;
    if (!inKernel()) {
      refuse(t.range, std::string("returning a tuple from a ") + kind,
             {"a stage function yields one stream or tensor; several results are a kernel's", nullptr});
      return std::nullopt;
    }
    // A kernel's tuple result: every member an HBM tensor the host receives from the launch.
    for (const ast::TypeP &m : t.elems) {
      unsigned before = diags().errorCount();
      auto mt = m ? tc_.tensorTypeOf(*m, /*report=*/true) : std::nullopt;
      if (mt && mt->tier != Tier::Hbm)
        error(m->range, "a kernel returns HBM tensors (the host reads them back); this member is " + mt->str());
      else if (!mt && diags().errorCount() == before)
        error(m ? m->range : t.range, "a member of a kernel's tuple result must be an `HbmTensor`; this type is not a tensor type");
      out_.tupleResults.push_back(mt ? *mt : TensorType{});
    }
    return std::nullopt;
  }
  unsigned before = diags().errorCount();
  auto ret = tc_.tensorTypeOf(t, /*report=*/true);
  if (!ret && diags().errorCount() == before)
    error(t.range, std::string("a ") + kind + " returns a tensor (or nothing); this type is not a tensor type");
  return ret;
}

std::optional<CheckedValue> TypeChecker::FunctionChecker::walkStmts(const std::vector<ast::StmtP> &stmts,
                                                                    const std::optional<TensorType> &expected,
                                                                    bool fnBody, llvm::SMRange *resultRange) {
  std::optional<CheckedValue> value;
  bool returned = false;
  for (size_t k = 0; k < stmts.size(); ++k) {
    const ast::Stmt &s = *stmts[k];
    if (s.kind == ast::Stmt::Empty || s.kind == ast::Stmt::ItemS) continue;  // items are hoisted and checked on their own
    if (returned) {
      error(s.range, "this code follows `return` and never runs");
      break;
    }
    value.reset();
    if (s.kind == ast::Stmt::Let) {
      bool wildcard = s.pattern && s.pattern->kind == ast::Pattern::Wildcard;
      if (!s.pattern || (s.pattern->kind != ast::Pattern::Ident && !wildcard)) {
        refuseConstruct(s.range, "a destructuring `let`");
        continue;
      }
      if (!s.init || s.elseBlock) {
        refuseConstruct(s.range, s.init ? "`let ... else`" : "`let` without a value");
        continue;
      }
      std::optional<TensorType> declared;
      bool declaredInt = false, badType = false;
      if (s.type && s.type->kind != ast::Type::Infer) {
        unsigned before = diags().errorCount();
        declared = tc_.tensorTypeOf(*s.type, /*report=*/true);
        declaredInt = !declared && isIntegerType(*s.type);
        badType = !declared && !declaredInt;
        if (badType && diags().errorCount() == before)
          error(s.type->range, "a binding in a " + std::string(inKernel() ? "kernel" : "stage function") +
                                   " holds a tensor or an integer constant; this type is neither");
      }
      CheckedValue v = eval(*s.init, declared);
      if (v.kind != CheckedValue::None) {
        if (declared && v.kind == CheckedValue::Tensor && !sameType(v.type, *declared))
          error(s.type->range, "the declared type " + declared->str() + " differs from the value's type " + v.type.str());
        else if ((declared && v.kind != CheckedValue::Tensor) || (declaredInt && v.kind != CheckedValue::Int))
          error(s.type->range, "the declared type is " + (declared ? declared->str() : std::string("an integer")) +
                                   " but the value is " + receiverTypeName(v));
      }
      if (badType) v = CheckedValue{};
      if (!wildcard) {
        env_[s.pattern->name] = v;
        if (v.kind == CheckedValue::Tensor && v.tensorId >= 0 && tensors_[v.tensorId].name.empty())
          tensors_[v.tensorId].name = s.pattern->name;
      }
      continue;
    }
    if (s.kind != ast::Stmt::ExprS || !s.init) continue;
    bool tail = k + 1 == stmts.size() && !s.semi;
    bool isReturn = s.init->kind == ast::Expr::Return;
    if (isReturn && !fnBody) {
      refuseConstruct(s.init->range, "`return` inside a block");
      continue;
    }
    if (isReturn && (s.init->operands.empty() || !s.init->operands[0])) {
      returned = true;
      value = CheckedValue{};
      value->kind = CheckedValue::Unit;
      if (resultRange) *resultRange = s.init->range;
      continue;
    }
    const ast::Expr &x = isReturn ? *s.init->operands[0] : *s.init;
    if (!tail && !isReturn) {
      eval(x, std::nullopt);  // a statement: its value is dropped, its ops run
      continue;
    }
    returned = isReturn;
    if (resultRange) *resultRange = x.range;
    if (fnBody && tupleSignature_ && x.kind == ast::Expr::Tuple) {
      // A kernel's tuple result: each member the tensor of its declared type (a stage function's
      // was refused at the signature; its members are checked all the same).
      const std::vector<TensorType> &want = out_.tupleResults;
      if (inKernel() && x.operands.size() != want.size())
        error(x.range, "the kernel returns a tuple of " + std::to_string(want.size()) + " tensors but this tuple has " +
                           std::to_string(x.operands.size()));
      for (size_t k = 0; k < x.operands.size(); ++k) {
        std::optional<TensorType> e;
        if (k < want.size() && want[k].element) e = want[k];
        CheckedValue v = eval(*x.operands[k], e);
        if (!inKernel() || k >= want.size() || !want[k].element) continue;
        if (v.kind == CheckedValue::Tensor && !sameType(v.type, want[k]))
          error(x.operands[k]->range, "member " + std::to_string(k) + " of the result is declared " + want[k].str() +
                                          " but this value is " + v.type.str() + typeDifference(want[k], v.type));
        else if (v.kind != CheckedValue::Tensor && v.kind != CheckedValue::None)
          error(x.operands[k]->range, "member " + std::to_string(k) + " of the result is declared " + want[k].str() +
                                          " but this value is " + receiverTypeName(v));
        else if (v.kind == CheckedValue::Tensor)
          out_.tupleTensors.push_back(v.tensorId);
      }
      value = CheckedValue{};
      value->kind = CheckedValue::Unit;
      tupleValue_ = true;
      continue;
    }
    value = eval(x, expected);
  }
  return value;
}

void TypeChecker::FunctionChecker::run() {
  startErrors_ = diags().errorCount();
  out_.name = fn_.name;
  declareParams();
  bool declared = false;
  std::optional<TensorType> ret = declaredResult(&declared);
  out_.result = ret;
  if (!fn_.body) return;
  llvm::SMRange resultRange = fn_.body->range;
  std::optional<CheckedValue> result = walkStmts(fn_.body->stmts, ret, /*fnBody=*/true, &resultRange);
  const char *kind = inKernel() ? "kernel" : "stage function";
  if (ret) {
    if (!result)
      error(fn_.ret->range, "`" + fn_.name + "` returns " + ret->str() +
                                " but its body ends without a value (drop the `;` after its last expression)");
    else if (result->kind == CheckedValue::Tensor && !sameType(result->type, *ret))
      error(resultRange, "the function returns " + ret->str() + " but this value is " + result->type.str() +
                             typeDifference(*ret, result->type));
    else if (result->kind != CheckedValue::Tensor && result->kind != CheckedValue::None)
      error(resultRange, "the function returns " + ret->str() + " but this value is " + receiverTypeName(*result));
    else if (result->kind == CheckedValue::Tensor)
      out_.resultTensor = result->tensorId;
  } else if (tupleSignature_ && inKernel() && !tupleValue_) {
    error(fn_.ret->range, "`" + fn_.name + "` returns a tuple but its body does not end with one (end it with `(a, b)`)");
  } else if (!declared && result && result->kind != CheckedValue::Unit && result->kind != CheckedValue::None) {
    error(resultRange, std::string("the body ends with a value (") +
                           (result->kind == CheckedValue::Tensor ? result->type.str() : receiverTypeName(*result)) +
                           ") but `" + fn_.name + "` declares no result: end it with `;` or declare `-> ...`");
  }
  // Nothing is computed for nothing: a function that returns nothing must run an engine op, and a
  // stream no op consumes (a chain that never reaches a commit) would lose its data.
  if (diags().errorCount() == startErrors_) {
    if (!declared && out_.ops.empty())
      error(fn_.body->range, std::string(kind) + " `" + fn_.name + "` returns nothing and runs no engine op: it does no work");
    std::vector<bool> consumed(tensors_.size(), false);
    for (const TypedOp &op : out_.ops)
      if (op.source >= 0 && size_t(op.source) < consumed.size()) consumed[op.source] = true;
    int resultId = result && result->kind == CheckedValue::Tensor ? result->tensorId : -1;
    for (const TypedOp &op : out_.ops) {
      if (op.result < 0 || size_t(op.result) >= tensors_.size()) continue;
      if (tensors_[op.result].type.tier != Tier::Stream || consumed[op.result] || op.result == resultId) continue;
      error(op.range, "the " + std::string(stageTypeName(op.out.stage)) + " this `." + op.name +
                          "()` produces is never consumed, so its data is lost: end the chain with `.commit(..)`, "
                          "`.to_trf(..)` or `.to_vrf(..)`" + (inKernel() ? "" : ", or return it"));
    }
  }
  checkOverlaps();
  for (const PlacedTensor &t : tensors_) {
    TypedTensor tt;
    tt.name = t.name;
    tt.type = t.type;
    if (t.placed) tt.address = t.address;
    tt.param = t.param;
    tt.aliasOf = t.aliasOf;
    out_.tensors.push_back(tt);
  }
}

}  // namespace tcp
