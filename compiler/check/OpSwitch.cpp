// OpSwitch.cpp — rules of `.switch()`: the Switch Engine's topologies matched against the stream mappings.
#include "DeliberateSlice.h"
#include "SwitchTopology.h"
#include "TypeCheckInternal.h"

namespace tcp {

namespace {
const char *kConfigExample = "e.g. `SwitchConfig::Broadcast01 { slice1: 2, slice0: 2, time0: 4 }`";
}  // namespace

CheckedValue TypeChecker::FunctionChecker::opSwitch(const ast::Expr &call, const CheckedValue &recv,
                                                    const std::optional<TensorType> &expected) {
  if (!requireStage(call, recv)) return {};
  auto args = typeArgs(call, 2);
  bool exp = expected && expected->tier == Tier::Stream;
  TensorType out = recv.type;
  out.stage = Stage::Switch;
  out.slice = pick(args[0], exp ? expected->slice : nullptr, call, "Slice");
  out.time = pick(args[1], exp ? expected->time : nullptr, call, "Time");
  if (!out.slice || !out.time) return {};
  llvm::SMRange r = opRange(call);

  // The configuration: `SwitchConfig::Variant { field: constant, ... }` or `SwitchConfig::Forwarding`.
  SwitchConfigArgs cfg;
  bool cfgOk = false, badField = false;
  const ast::Expr *arg = call.operands.size() == 2 ? call.operands[1].get() : nullptr;
  if (arg && (arg->kind == ast::Expr::StructLit || arg->kind == ast::Expr::PathE)) {
    std::string path = arg->path.str();
    size_t sep = path.rfind("::");
    cfgOk = sep != std::string::npos && path.substr(0, sep) == "SwitchConfig";
    cfg.name = cfgOk ? path.substr(sep + 2) : path;
    for (const ast::StructField &f : arg->fields) {
      if (!f.value) {  // shorthand `{ slice1 }`
        error(f.range, "give `" + f.name + "` its value: `" + f.name + ": N`");
        badField = true;
        continue;
      }
      CheckedValue v = eval(*f.value, std::nullopt);
      if (v.kind == CheckedValue::Int && !requireConstant(v, f.range, "`" + f.name + "` of the switch configuration")) {
        badField = true;
        continue;
      }
      if (v.kind != CheckedValue::Int || v.value < 0) {
        if (v.kind != CheckedValue::None)
          error(f.range, "`" + f.name + "` of the switch configuration must be a constant non-negative integer");
        badField = true;
        continue;
      }
      cfg.fields.push_back({f.name, uint64_t(v.value)});
    }
  }
  if (!cfgOk) error(r, std::string("`.switch()` takes one switch configuration, ") + kConfigExample);
  cfgOk = cfgOk && !badField;

  TypedOp &op = emit(call, recv.type, out);
  op.arg = cfg.name;
  bool matched = false;
  if (cfgOk) {
    SwitchMatch m = matchSwitch(cfg, recv.type.slice, recv.type.time, out.slice, out.time);
    for (const std::string &e : m.errors) error(r, e);
    op.switchPlan = m.plan;
    matched = m.errors.empty();
  }
  // A resize in the output Time (`B % 4 = 3`, a custom bitmap's partial axis extraction) slices on
  // purpose; any other loss of coordinates is an error (reported once: a pattern error names it first).
  if (matched || !cfgOk) checkPreserved({recv.type.slice, recv.type.time, recv.type.packet}, {out.slice, unsliced(out.time), out.packet}, r,
                 "switch");
  return tensorValue(out, place(out, "", r, std::nullopt));
}

}  // namespace tcp
