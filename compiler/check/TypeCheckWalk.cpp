// TypeCheckWalk.cpp — walks kernel and stage-function bodies: bindings, expected types, op dispatch.
#include "TypeCheckInternal.h"

namespace tcp {

std::string describeStage(Stage s) {
  switch (s) {
    case Stage::Begin: return "a BeginTensor (after `.begin()`)";
    case Stage::Fetch: return "a FetchTensor (after `.fetch()`)";
    case Stage::Switch: return "a SwitchTensor (after `.switch()`)";
    case Stage::Collect: return "a CollectTensor (after `.collect()`)";
    case Stage::Aligned: return "an AlignedPair (after `.align()`)";
    case Stage::Contraction: return "a ContractionTensor (after `.contract()`)";
    case Stage::Accumulation: return "an AccumulationTensor (after `.accumulate()`)";
    case Stage::VectorInit: return "a vector stream after `.vector_init()`";
    case Stage::VectorBranch: return "a vector stream after `.vector_intra_slice_branch()`";
    case Stage::VectorAlu: return "a vector stream after a vector ALU op";
    case Stage::VectorFinal: return "a vector stream after `.vector_final()`";
    case Stage::Cast: return "a CastTensor (after `.cast()`)";
    case Stage::Transpose: return "a TransposeTensor (after `.transpose()`)";
  }
  return "a stream";
}

TypeChecker::FunctionChecker::FunctionChecker(TypeChecker &tc, const ast::Item &fn, TypedFunction &out)
    : tc_(tc), fn_(fn), out_(out) {}

llvm::SMRange TypeChecker::FunctionChecker::opRange(const ast::Expr &call) const {
  if (call.kind == ast::Expr::MethodCall && !call.path.segments.empty()) return call.path.segments[0].range;
  return call.range;
}

CheckedValue TypeChecker::FunctionChecker::tensorValue(const TensorType &t, int id) {
  CheckedValue v;
  v.kind = CheckedValue::Tensor;
  v.type = t;
  v.tensorId = id;
  return v;
}

void TypeChecker::FunctionChecker::use(const CheckedValue &v) {
  if (v.kind == CheckedValue::Tensor && v.tensorId >= 0) tensors_[v.tensorId].lastUse = seq_;
}

TypedOp &TypeChecker::FunctionChecker::emit(const ast::Expr &call, const TensorType &in, const TensorType &out) {
  TypedOp op;
  op.name = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  op.range = opRange(call);
  op.line = tc_.diags_.sourceMgr().getLineAndColumn(op.range.Start).first;
  op.in = in;
  op.out = out;
  op.chain = currentChain_;
  op.source = currentSource_;
  resultPending_ = true;
  // A chain reads its sources until its last stage: they stay in use meanwhile.
  if (currentChain_ >= 0)
    for (int id : chainSources_[currentChain_]) tensors_[id].lastUse = seq_;
  out_.ops.push_back(std::move(op));
  return out_.ops.back();
}

std::vector<TypeArg> TypeChecker::FunctionChecker::typeArgs(const ast::Expr &call, size_t count) {
  std::vector<TypeArg> out(count);
  if (call.path.segments.empty()) return out;
  const auto &gs = call.path.segments[0].generics;
  if (gs.size() > count) {
    error(opRange(call), "`." + call.path.segments[0].name + "()` takes " + std::to_string(count) +
                             " type arguments, found " + std::to_string(gs.size()));
  }
  for (size_t k = 0; k < gs.size() && k < count; ++k) {
    const ast::GenericArg &g = gs[k];
    out[k].ast = &g;
    if (!g.type || g.type->kind == ast::Type::Infer) continue;
    out[k].given = true;
    if (g.type->kind == ast::Type::PathT && g.type->path.segments.size() == 1)
      out[k].dtype = num::parseDType(g.type->path.segments[0].name);
    if (!out[k].dtype) out[k].mapping = tc_.resolver_.mappingOfType(*g.type);
  }
  return out;
}

MappingRef TypeChecker::FunctionChecker::pick(const TypeArg &a, const MappingRef &fromExpected, const ast::Expr &call,
                                              const char *param) {
  if (a.given) {
    if (!a.mapping) error(a.ast ? a.ast->range : opRange(call), std::string("`") + param + "` must be a mapping `m![...]`");
    return a.mapping;
  }
  if (fromExpected) return fromExpected;
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  error(opRange(call), "cannot infer `" + std::string(param) + "` of `." + op + "()`: give it as a type argument (`." +
                           op + "::<...>()`) or annotate the result's type");
  return nullptr;
}

std::optional<uint64_t> TypeChecker::FunctionChecker::constArg(const ast::Expr &call, size_t index, const char *what) {
  if (call.operands.size() <= index + 1) {
    error(opRange(call), std::string("missing ") + what);
    return std::nullopt;
  }
  CheckedValue v = eval(*call.operands[index + 1], std::nullopt);
  if (v.kind != CheckedValue::Int || v.value < 0) {
    error(call.operands[index + 1]->range, std::string("expected a constant non-negative ") + what);
    return std::nullopt;
  }
  return static_cast<uint64_t>(v.value);
}

bool TypeChecker::FunctionChecker::requireStage(const ast::Expr &call, const CheckedValue &recv,
                                               std::initializer_list<Stage> allowed) {
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  if (recv.kind != CheckedValue::Tensor || recv.type.tier != Tier::Stream) {
    error(opRange(call), "`." + op + "()` applies to a Tensor Unit stream, not to " +
                             (recv.kind == CheckedValue::Tensor ? std::string("a ") + tierName(recv.type.tier) : "this value"));
    return false;
  }
  for (Stage s : allowed)
    if (recv.type.stage == s) return true;
  std::string allowedText;
  for (Stage s : allowed) allowedText += (allowedText.empty() ? "" : " or ") + std::string(stageTypeName(s));
  error(opRange(call), "`." + op + "()` cannot follow " + describeStage(recv.type.stage) + "; it applies to " +
                           allowedText + " (the pipeline order is begin → fetch → switch → collect → align → contract → "
                           "accumulate → vector → cast → transpose → commit)");
  return false;
}

bool TypeChecker::FunctionChecker::requireTier(const ast::Expr &call, const CheckedValue &recv, Tier tier) {
  if (recv.kind == CheckedValue::Tensor && recv.type.tier == tier) return true;
  std::string op = call.path.segments.empty() ? "?" : call.path.segments[0].name;
  error(opRange(call), "`." + op + "()` applies to a " + std::string(tierName(tier)) + ", not to " +
                           (recv.kind == CheckedValue::Tensor ? recv.type.str() : std::string("this value")));
  return false;
}

CheckedValue TypeChecker::FunctionChecker::eval(const ast::Expr &e, const std::optional<TensorType> &expected) {
  using K = ast::Expr::Kind;
  CheckedValue none;
  switch (e.kind) {
    case K::IntLit:
      if (e.intOverflow || e.intValue > uint64_t(INT64_MAX)) return none;
      none.kind = CheckedValue::Int;
      none.value = static_cast<int64_t>(e.intValue);
      return none;
    case K::Paren:
      return eval(*e.operands[0], expected);
    case K::Unary:
      if (e.text == "&" || e.text == "&mut" || e.text == "*") return eval(*e.operands[0], expected);
      if (e.text == "-") {
        CheckedValue v = eval(*e.operands[0], std::nullopt);
        if (v.kind == CheckedValue::Int) v.value = -v.value;
        return v;
      }
      return none;
    case K::Binary: {
      CheckedValue l = eval(*e.operands[0], std::nullopt), r = eval(*e.operands[1], std::nullopt);
      if (l.kind != CheckedValue::Int || r.kind != CheckedValue::Int) return none;
      int64_t a = l.value, b = r.value, v = 0;
      bool ok = true;
      if (e.text == "+") ok = !__builtin_add_overflow(a, b, &v);
      else if (e.text == "-") ok = !__builtin_sub_overflow(a, b, &v);
      else if (e.text == "*") ok = !__builtin_mul_overflow(a, b, &v);
      else if (e.text == "<<") { ok = b >= 0 && b < 63 && a >= 0 && (a >> (62 - b)) == 0; v = ok ? a << b : 0; }
      else if (e.text == ">>") { ok = b >= 0 && b < 64; v = ok ? a >> b : 0; }
      else if ((e.text == "/" || e.text == "%") && b != 0) v = e.text == "/" ? a / b : a % b;
      else ok = false;
      if (!ok) return none;
      l.value = v;
      return l;
    }
    case K::PathE: {
      std::string name = e.path.str();
      auto it = env_.find(name);
      if (it != env_.end()) {
        use(it->second);
        return it->second;
      }
      if (e.path.segments.size() >= 2) {
        none.kind = CheckedValue::Enum;
        none.text = name;
      }
      return none;
    }
    case K::Field: {
      CheckedValue base = eval(*e.operands[0], std::nullopt);
      if (e.text == "main" || e.text == "sub") {
        none.kind = CheckedValue::Context;
        none.ctx = e.text == "main" ? Ctx::Main : Ctx::Sub;
        return none;
      }
      if (e.text == "tdma" || e.text == "pdma") {
        none.kind = CheckedValue::Dma;
        none.text = e.text;
        return none;
      }
      (void)base;
      return none;
    }
    case K::MethodCall: {
      const std::string op = e.path.segments.empty() ? "" : e.path.segments[0].name;
      CheckedValue recv = eval(*e.operands[0], std::nullopt);
      if (op == "view" || op == "view_mut") {
        recv.type.isView = true;
        return recv;
      }
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
          {"vector_init", &FunctionChecker::opVector}, {"vector_intra_slice_branch", &FunctionChecker::opVector},
          {"vector_fxp", &FunctionChecker::opVector},  {"vector_final", &FunctionChecker::opVector},
      };
      auto rule = kRules.find(op);
      if (rule == kRules.end() || recv.kind != CheckedValue::Tensor) {
        for (size_t k = 1; k < e.operands.size(); ++k) eval(*e.operands[k], std::nullopt);
        return none;
      }
      ++seq_;
      use(recv);
      int savedSource = currentSource_;
      currentSource_ = recv.tensorId;
      CheckedValue result = (this->*(rule->second))(e, recv, expected);
      currentSource_ = savedSource;
      return result;
    }
    case K::BlockE:
    case K::If:
    case K::For:
    case K::While:
    case K::Loop:
      // Control flow inside kernels is not part of the typed model yet: evaluate for its side checks.
      if (e.block)
        for (const auto &s : e.block->stmts)
          if (s->init) eval(*s->init, std::nullopt);
      return none;
    default:
      for (const auto &o : e.operands)
        if (o) eval(*o, std::nullopt);
      return none;
  }
}

void TypeChecker::FunctionChecker::run() {
  out_.name = fn_.name;
  // Parameters: tensors passed in (HBM for kernels, streams for stage functions).
  for (const ast::Param &p : fn_.params) {
    if (!p.pattern || p.pattern->kind != ast::Pattern::Ident || !p.type) continue;
    auto t = tc_.tensorTypeOf(*p.type, /*report=*/true);
    if (t) {
      if (inKernel() && t->tier != Tier::Hbm && t->tier != Tier::Dm)
        error(p.range, "kernel parameters are HBM or DM tensors; `" + p.pattern->name + "` is a " + t->str());
      if (inKernel()) checkDeviceDims(*t, p.range);
      int id = place(*t, p.pattern->name, p.range, std::nullopt);
      tensors_[id].param = static_cast<int>(out_.params.size());
      env_[p.pattern->name] = tensorValue(*t, id);
      out_.params.emplace_back(p.pattern->name, *t);
    } else if (declareTableParam(p)) {
    } else if (p.type->kind == ast::Type::Ref || p.type->kind == ast::Type::PathT) {
      CheckedValue v;  // ctx: &mut Context and other handles
      env_[p.pattern->name] = v;
    }
  }
  std::optional<TensorType> ret;
  if (fn_.ret) ret = tc_.tensorTypeOf(*fn_.ret, /*report=*/true);
  out_.result = ret;
  if (!fn_.body) return;
  const auto &stmts = fn_.body->stmts;
  for (size_t k = 0; k < stmts.size(); ++k) {
    const ast::Stmt &s = *stmts[k];
    if (s.kind == ast::Stmt::Let) {
      std::optional<TensorType> declared;
      if (s.type) declared = tc_.tensorTypeOf(*s.type, /*report=*/true);
      CheckedValue v = s.init ? eval(*s.init, declared) : CheckedValue();
      if (declared && v.kind == CheckedValue::Tensor && !sameType(v.type, *declared))
        error(s.type->range, "the declared type " + declared->str() + " differs from the value's type " + v.type.str());
      if (s.pattern && s.pattern->kind == ast::Pattern::Ident) {
        env_[s.pattern->name] = v;
        if (v.kind == CheckedValue::Tensor && v.tensorId >= 0 && tensors_[v.tensorId].name.empty())
          tensors_[v.tensorId].name = s.pattern->name;
      }
    } else if (s.kind == ast::Stmt::ExprS && s.init) {
      bool tail = k + 1 == stmts.size() && !s.semi;
      bool isReturn = s.init->kind == ast::Expr::Return;
      const ast::Expr &e = isReturn && !s.init->operands.empty() && s.init->operands[0] ? *s.init->operands[0] : *s.init;
      CheckedValue v = eval(e, tail || isReturn ? ret : std::nullopt);
      if ((tail || isReturn) && ret && v.kind == CheckedValue::Tensor && !sameType(v.type, *ret))
        error(e.range, "the function returns " + ret->str() + " but this value is " + v.type.str());
    }
  }
  checkOverlaps();
  for (const PlacedTensor &t : tensors_) {
    TypedTensor tt;
    tt.name = t.name;
    tt.type = t.type;
    if (t.placed) tt.address = t.address;
    tt.param = t.param;
    out_.tensors.push_back(tt);
  }
}

}  // namespace tcp
