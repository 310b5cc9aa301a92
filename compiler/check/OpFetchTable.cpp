// OpFetchTable.cpp — rules of Table Indexing: `&LookupTable<In, Out>` parameters and `.fetch_with_table(table)`.
#include "TypeCheckInternal.h"

namespace tcp {

bool TypeChecker::FunctionChecker::declareTableParam(const ast::Param &p) {
  std::string err;
  auto t = lookupTableTypeOf(*p.type, &err);
  if (!t && err.empty()) return false;
  if (!t) {
    error(p.type->range, err);
    CheckedValue bad;  // a malformed table: its uses report nothing more
    bad.kind = CheckedValue::Table;
    bad.value = -1;
    env_[p.pattern->name] = bad;
    return true;
  }
  TypedTable table;
  table.name = p.pattern->name;
  table.type = *t;
  table.argIndex = out_.params.size() + out_.tables.size();
  CheckedValue v;
  v.kind = CheckedValue::Table;
  v.value = static_cast<int64_t>(out_.tables.size());
  out_.tables.push_back(table);
  env_[p.pattern->name] = v;
  return true;
}

CheckedValue TypeChecker::FunctionChecker::opFetchTable(const ast::Expr &call, const CheckedValue &recv,
                                                        const std::optional<TensorType> &expected) {
  llvm::SMRange r = opRange(call);
  // The table first: its Out type is what the adapter's Type Casting stage receives.
  CheckedValue t;
  if (call.operands.size() == 2) t = eval(*call.operands[1], std::nullopt);
  const TypedTable *table =
      t.kind == CheckedValue::Table && t.value >= 0 && size_t(t.value) < out_.tables.size() ? &out_.tables[t.value] : nullptr;
  size_t opsBefore = out_.ops.size();
  CheckedValue result = checkFetch(call, recv, expected, table ? std::optional<num::DType>(table->type.out) : std::nullopt);
  if (out_.ops.size() == opsBefore || result.kind != CheckedValue::Tensor) return result;
  TypedOp &op = out_.ops.back();
  op.name = "fetch";  // the same engine; the adapter stage is the op's arg
  op.arg = "table";
  if (call.operands.size() != 2) {
    error(r, "`.fetch_with_table()` takes one argument, the lookup table (`&LookupTable<In, Out>`)");
    return result;
  }
  if (!table) {
    if (t.kind == CheckedValue::Table || t.kind == CheckedValue::None) return result;  // reported already
    error(call.operands[1]->range, "`.fetch_with_table()` takes a `&LookupTable<In, Out>` parameter of the function "
                                   "(the host creates the table and passes it at launch)");
    return result;
  }
  op.table = static_cast<int>(t.value);
  // "Table Indexing" is a main-context adapter stage ("sub-context adapters only support zero-point subtraction").
  if (recv.type.ctx == Ctx::Sub)
    error(r, "table indexing is a main-context Fetch Adapter stage; the sub-context adapter only subtracts zero points");
  // "Each value is treated as an index into a pre-configured table": the table is indexed by the fetched type.
  if (table->type.in != recv.type.dtype)
    error(call.operands[1]->range, "`" + table->name + "` is a " + table->type.str() + ", indexed by " +
                                       num::dtypeName(table->type.in) + ", but the fetched elements are " +
                                       num::dtypeName(recv.type.dtype) +
                                       " (table indexing uses each fetched value as an index: In must be the fetched type)");
  return result;
}

}  // namespace tcp
