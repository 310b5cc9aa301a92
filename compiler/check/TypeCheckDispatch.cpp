// TypeCheckDispatch.cpp — method calls of kernel bodies through the op catalog: unknown and unsupported
// methods, arity and enum arguments are refused before a supported method's rule runs.
#include "Suggest.h"
#include "TypeCheckInternal.h"

#include <llvm/Support/ErrorHandling.h>

#include <set>

namespace tcp {

namespace {
std::string plural(size_t n, const char *what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// "no arguments", "1 argument (the DM address)", "2 arguments (the Tensor DMA `&mut ctx.tdma` and the DM address)".
std::string argumentsText(const catalog::Method &m) {
  if (m.args.empty()) return "no arguments";
  std::string list;
  for (size_t k = 0; k < m.args.size(); ++k)
    list += (k == 0 ? "" : k + 1 == m.args.size() ? " and " : ", ") + std::string(m.args[k].what);
  return plural(m.args.size(), "argument") + " (" + list + ")";
}

// "a `BranchMode`", "an `AccumulationKind`".
std::string aName(const std::string &name) {
  return std::string(name.find_first_of("AEIOU") == 0 ? "an `" : "a `") + name + "`";
}

// The path naming a variant written in place: `E::V`, `E::V(..)`, `E::V { .. }`.
const ast::Path *variantPath(const ast::Expr &e) {
  if (e.kind == ast::Expr::PathE || e.kind == ast::Expr::StructLit) return &e.path;
  if (e.kind == ast::Expr::Call && !e.operands.empty() && e.operands[0] && e.operands[0]->kind == ast::Expr::PathE)
    return &e.operands[0]->path;
  return nullptr;
}
}  // namespace

std::string TypeChecker::FunctionChecker::receiverTypeName(const CheckedValue &v) {
  switch (v.kind) {
    case CheckedValue::Tensor:
      switch (v.type.tier) {
        case Tier::Stream: return stageTypeName(v.type.stage);
        case Tier::Hbm: return v.type.isView ? "HbmTensorView" : "HbmTensor";
        case Tier::Dm: return v.type.isView ? "DmTensorView" : "DmTensor";
        default: return tierName(v.type.tier);
      }
    case CheckedValue::Context: return "TuContext";
    case CheckedValue::Device: return "Context";
    case CheckedValue::Dma: return "DmaContext";
    case CheckedValue::Table: return "LookupTable";
    case CheckedValue::Int: return "integer";
    case CheckedValue::Float: return "float";
    case CheckedValue::Bool: return "bool";
    case CheckedValue::Unit: return "()";
    case CheckedValue::Enum: return v.text.substr(0, v.text.rfind("::"));
    case CheckedValue::Runtime: return v.text;
    case CheckedValue::None: break;
  }
  return "?";
}

void TypeChecker::FunctionChecker::refuse(llvm::SMRange r, const std::string &what, const catalog::Limitation &l) {
  error(r, catalog::notSupported(what, l));
}

void TypeChecker::FunctionChecker::refuseConstruct(llvm::SMRange r, const std::string &what) {
  error(r, what + " in a " + std::string(inKernel() ? "kernel" : "stage function") +
               " is not supported yet (the typed model runs a body as straight-line code: `let` bindings, engine "
               "ops and integer constants; docs/language.md, \"Kernel bodies\")");
}

void TypeChecker::FunctionChecker::assertReported(llvm::SMRange r) const {
  // Internal invariant: every construct the walk does not evaluate is reported, so a None value
  // (which silences the uses of an expression) exists only after an error.
  if (tc_.diags_.errorCount() > startErrors_) return;
  auto [line, col] = tc_.diags_.lineAndColumn(r.Start);
  llvm::report_fatal_error(llvm::Twine("internal error: an expression at line ") + llvm::Twine(line) + ":" +
                           llvm::Twine(col) + " of `" + fn_.name + "` has no value and no diagnostic");
}

bool TypeChecker::FunctionChecker::checkVariant(const ast::Expr &e, const char *want, const std::string &context) {
  const ast::Path *path = variantPath(e);
  std::string example = want ? std::string(want) + "::" + catalog::findEnum(want)->variants.front().name : "";
  if (!path || path->qualifiedSelf || path->segments.size() < 2) {
    error(e.range, context + " takes " + (want ? aName(want) + " variant written in place, e.g. `" + example + "`"
                                               : std::string("an enum variant")));
    return false;
  }
  const ast::PathSegment &enumSeg = path->segments[path->segments.size() - 2], &varSeg = path->segments.back();
  const catalog::Enum *en = catalog::findEnum(enumSeg.name);
  if (!en) {
    error(enumSeg.range, "unknown enum `" + enumSeg.name + "`" + didYouMean(enumSeg.name, catalog::enumNames()));
    return false;
  }
  if (want && llvm::StringRef(en->name) != want) {
    error(e.range, context + " takes " + aName(want) + " (e.g. `" + example + "`), not " + aName(en->name));
    return false;
  }
  const catalog::Variant *v = catalog::findVariant(*en, varSeg.name);
  if (!v) {
    std::string all;
    for (const std::string &n : catalog::variantNames(*en)) all += (all.empty() ? "" : ", ") + n;
    error(varSeg.range, "`" + std::string(en->name) + "` has no variant `" + varSeg.name + "`" +
                            didYouMean(varSeg.name, catalog::variantNames(*en)) + " (its variants: " + all + ")");
    return false;
  }
  std::string spelled = std::string(en->name) + "::" + v->name;
  if (!v->supported) {
    refuse(e.range, "`" + spelled + "`", v->limitation);
    return false;
  }
  // The variant's shape: unit `E::V`, tuple `E::V(payload)`, struct `E::V { field: value }`.
  auto fieldList = [&] {
    std::string s;
    for (const char *f : v->fields) s += (s.empty() ? "" : ", ") + std::string(f);
    return s;
  };
  switch (v->shape) {
    case catalog::Variant::Unit:
      if (e.kind != ast::Expr::PathE) {
        error(e.range, "`" + spelled + "` is a unit variant: write it without " +
                           (e.kind == ast::Expr::StructLit ? "fields" : "arguments"));
        return false;
      }
      return true;
    case catalog::Variant::Tuple: {
      if (e.kind != ast::Expr::Call || e.operands.size() != v->fields.size() + 1) {
        error(e.range, "`" + spelled + "` takes " + plural(v->fields.size(), "value") + ": `" + spelled + "(" +
                           fieldList() + ")`");
        return false;
      }
      bool ok = true;
      for (size_t k = 0; k < v->fields.size(); ++k)
        if (catalog::findEnum(v->fields[k]))  // an enum payload (`MulF(FpMulAlu::Mul0)`) is checked in turn
          ok = checkVariant(*e.operands[k + 1], v->fields[k], "`" + spelled + "(..)`") && ok;
      return ok;
    }
    case catalog::Variant::Struct: {
      if (e.kind != ast::Expr::StructLit) {
        error(e.range, "`" + spelled + "` has fields: `" + spelled + " { " + fieldList() + " }`");
        return false;
      }
      bool ok = true;
      std::vector<std::string> names(v->fields.begin(), v->fields.end());
      std::set<std::string> seen;
      for (const ast::StructField &f : e.fields) {
        if (std::find(names.begin(), names.end(), f.name) == names.end()) {
          error(f.range, "`" + spelled + "` has no field `" + f.name + "`" + didYouMean(f.name, names) + " (its fields: " +
                             fieldList() + ")");
          ok = false;
        } else if (!seen.insert(f.name).second) {
          error(f.range, "field `" + f.name + "` of `" + spelled + "` is given twice");
          ok = false;
        }
      }
      if (e.hasRest) {
        error(e.range, "`..` in the struct literal `" + spelled + " { .. }` is not supported; give every field");
        ok = false;
      }
      for (const std::string &n : names)
        if (ok && !seen.count(n)) {
          error(e.range, "missing field `" + n + "` of `" + spelled + "` (its fields: " + fieldList() + ")");
          ok = false;
        }
      return ok;
    }
  }
  return true;
}

CheckedValue TypeChecker::FunctionChecker::evalMethod(const ast::Expr &e, const std::optional<TensorType> &expected) {
  const std::string op = e.path.segments.empty() ? "" : e.path.segments[0].name;
  llvm::SMRange at = opRange(e);
  CheckedValue recv = eval(*e.operands[0], std::nullopt);
  if (recv.kind == CheckedValue::None) {  // the receiver's error was reported
    assertReported(e.operands[0]->range);
    return {};
  }
  std::string recvType = receiverTypeName(recv);
  const catalog::Method *m = catalog::findMethod(op);
  if (!m) {
    std::vector<std::string> own = catalog::methodsFor(recvType);
    std::string hint = didYouMean(op, own);
    if (hint.empty()) hint = didYouMean(op, catalog::methodNames());
    error(at, "`" + recvType + "` has no method `" + op + "`" + hint);
    return {};
  }
  if (!m->supported) {
    refuse(at, "`." + op + "()`", m->limitation);
    return {};
  }
  // Type arguments (turbofish) beyond the method's, and the value arguments' count.
  const auto &generics = e.path.segments[0].generics;
  if (generics.size() > m->typeArgs) {
    error(at, "`." + op + "()` takes " + (m->typeArgs ? plural(m->typeArgs, "type argument") : "no type arguments") +
                  ", found " + std::to_string(generics.size()));
    return {};
  }
  size_t given = e.operands.size() - 1;
  bool ownArgs = m->args.size() == 1 && m->args[0].form == catalog::ArgForm::VeArgs;  // the rule counts them
  if (!ownArgs && given != m->args.size()) {
    error(at, "`." + op + "()` takes " + argumentsText(*m) + ", found " + std::to_string(given));
    return {};
  }
  for (size_t k = 0; k < m->args.size() && !ownArgs; ++k)
    if (m->args[k].form == catalog::ArgForm::Variant &&
        !checkVariant(*e.operands[k + 1], m->args[k].enumName, "`." + op + "()`"))
      return {};
  if (op == "view" || op == "view_mut") {
    if (recv.kind != CheckedValue::Tensor || (recv.type.tier != Tier::Hbm && recv.type.tier != Tier::Dm)) {
      error(at, "`." + op + "()` is a view of an HBM or DM tensor, not of " + recvType);
      return {};
    }
    recv.type.isView = true;
    return recv;
  }
  if (op == "tile") return opTile(e, recv);
  if (op == "begin") return opBegin(e, recv);
  if (op == "begin_interleaved") return opBeginInterleaved(e, recv);
  using Rule = CheckedValue (FunctionChecker::*)(const ast::Expr &, const CheckedValue &, const std::optional<TensorType> &);
  static const std::map<std::string, Rule> kRules = {
      {"to_dm", &FunctionChecker::opToDm},         {"to_hbm", &FunctionChecker::opToHbm},
      {"dma", &FunctionChecker::opDma},
      {"fetch", &FunctionChecker::opFetch},        {"switch", &FunctionChecker::opSwitch},
      {"fetch_with_zero_point", &FunctionChecker::opFetchAdapter},
      {"fetch_with_zero_points", &FunctionChecker::opFetchAdapter},
      {"fetch_with_table", &FunctionChecker::opFetchTable},
      {"commit_view", &FunctionChecker::opCommitView},
      {"collect", &FunctionChecker::opCollect},    {"to_trf", &FunctionChecker::opToTrf},
      {"to_vrf", &FunctionChecker::opToVrf},       {"align", &FunctionChecker::opAlign},
      {"contract", &FunctionChecker::opContract},  {"accumulate", &FunctionChecker::opAccumulate},
      {"cast", &FunctionChecker::opCast},          {"commit", &FunctionChecker::opCommit},
      {"transpose", &FunctionChecker::opTranspose},
      {"vector_*", &FunctionChecker::opVector},  // every supported Vector Engine method (OpVector.cpp)
  };
  auto rule = kRules.find(op);
  if (rule == kRules.end() && op.rfind("vector_", 0) == 0) rule = kRules.find("vector_*");
  if (rule == kRules.end())  // a supported catalog method without a rule is a bug of the catalog
    llvm::report_fatal_error("internal error: the catalog's supported method `" + llvm::Twine(op) + "` has no rule");
  if (recv.kind != CheckedValue::Tensor) {
    std::string list;
    for (const char *r : m->receivers)
      if (const catalog::EngineType *t = catalog::findType(r); t && t->supported)
        list += (list.empty() ? "" : " or ") + std::string(r);
    error(at, "`." + op + "()` applies to " + list + ", not to " + recvType);
    return {};
  }
  ++seq_;
  use(recv);
  int savedSource = currentSource_;
  currentSource_ = recv.tensorId;
  CheckedValue result = (this->*(rule->second))(e, recv, expected);
  currentSource_ = savedSource;
  return result;
}

}  // namespace tcp
