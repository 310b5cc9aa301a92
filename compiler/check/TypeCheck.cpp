// TypeCheck.cpp — runs the typed phase over every kernel and stage function, and prints its result.
#include "TypeCheckInternal.h"

namespace tcp {

TypedProgram TypeChecker::check() {
  TypedProgram program;
  for (const std::string &name : syms_.fnOrder) {
    const FnInfo &info = syms_.fns.at(name);
    const ast::Item &fn = *info.item;
    if (info.isTest || name == "main" || !fn.body) continue;
    // A stage function takes or returns a tensor; other helpers are host code.
    bool tensorSig = fn.ret && tensorTypeOf(*fn.ret, false);
    for (const ast::Param &p : fn.params) tensorSig = tensorSig || (p.type && tensorTypeOf(*p.type, false));
    if (!info.isDevice && !tensorSig) continue;
    TypedFunction tf;
    tf.isDevice = info.isDevice;
    tf.chips = info.chips;
    FunctionChecker checker(*this, fn, tf);
    checker.run();
    program.functions.push_back(std::move(tf));
  }
  return program;
}

void printTyped(const TypedProgram &program, llvm::raw_ostream &os) {
  for (const TypedFunction &f : program.functions) {
    os << (f.isDevice ? "kernel " : "stage ") << f.name;
    if (f.isDevice) os << " (chip = " << f.chips << ")";
    os << "\n";
    for (const auto &[name, t] : f.params) os << "  param " << name << ": " << t.str() << "\n";
    for (const TypedTable &t : f.tables)  // its position among the tensor and table parameters
      os << "  table " << t.name << ": " << t.type.str() << " (" << (f.isDevice ? "launch argument " : "argument ")
         << t.argIndex + 1 << (f.isDevice ? " after ctx)\n" : ")\n");
    if (f.result) os << "  returns " << f.result->str() << "\n";
    for (const TypedOp &op : f.ops) {
      os << "  " << op.line << ": ";
      if (op.chain >= 0) os << "[tu " << op.chain << "] ";
      os << op.name;
      if (!op.arg.empty()) os << "(" << op.arg << ")";
      if (op.imm) os << " imm " << *op.imm;
      if (op.address) os << " @ " << *op.address;
      if (op.source >= 0 && op.source < static_cast<int>(f.tensors.size()) && !f.tensors[op.source].name.empty())
        os << " reads " << f.tensors[op.source].name;
      os << "\n    -> " << op.out.str() << "\n";
      for (const TensorType &t : op.operands) os << "    with " << t.str() << "\n";
    }
  }
}

}  // namespace tcp
