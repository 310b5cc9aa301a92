// HostRuntime.h — tcpi's host API: Context, SmallRng, HostTensor/HbmTensor calls, launch, the answer key, assert_close!.
#pragma once

#include "Driver.h"
#include "Evaluator.h"
#include "HostTensorOps.h"
#include "HostValue.h"

#include <optional>

namespace tcp::interp {

class HostRuntime {
 public:
  HostRuntime(Evaluator &ev, Compilation &comp) : ev_(ev), comp_(comp), types_(comp.symbols(), comp.diags()) {}

  // Each hook returns nullopt when the construct is not part of the host API (the evaluator then
  // goes on as before). Errors are RuntimeErrors at the call's source location.
  // Path calls, before their arguments are evaluated: `Context::acquire()`, `SmallRng::seed_from_u64(n)`,
  // `HostTensor::<D, M>::rand/from_vec/from_fn/zeros/load_npy(...)`, `launch(kernel, (...))`,
  // `contraction::<D, M>(&a, &b)`.
  std::optional<Value> call(const ast::Expr &e) {
    return guard(e.range, [&] { return callImpl(e); });
  }
  // Method calls on host objects (the receiver is evaluated).
  std::optional<Value> methodCall(const ast::Expr &e, const Value &recv) {
    return guard(e.range, [&] { return methodCallImpl(e, recv); });
  }
  // `ctx.pdma`, `ctx.tdma`.
  std::optional<Value> field(const ast::Expr &e, const Value &base);
  // `assert_close!(a, b)`, `assert_close!(a, b, rtol, atol)`.
  std::optional<Value> macro(const ast::Expr &e) {
    return guard(e.range, [&] { return macroImpl(e); });
  }
  // assert_eq!/== on two host tensors: "" when equal, else the mismatch; nullopt if not tensors.
  std::optional<std::string> tensorMismatch(const Value &l, const Value &r, llvm::SMRange range);

 private:
  // Runs a hook, turning every error of the runtime, the device model or the allocator into a
  // RuntimeError at `range` (host code never crashes tcpi).
  template <class F> auto guard(llvm::SMRange range, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const RuntimeError &) {
      throw;
    } catch (const DeviceError &err) {
      fail(range, err.message);
    } catch (const HostError &err) {
      fail(range, err.message);
    } catch (const std::bad_alloc &) {
      fail(range, "out of memory");
    } catch (const std::exception &err) {
      fail(range, std::string("internal error: ") + err.what());
    }
  }
  std::optional<Value> callImpl(const ast::Expr &e);
  std::optional<Value> methodCallImpl(const ast::Expr &e, const Value &recv);
  std::optional<Value> macroImpl(const ast::Expr &e);
  struct HostType {
    num::DType dtype;
    MappingRef mapping;
  };
  // `<D, M>` generic arguments (turbofish) of a host tensor or contraction.
  std::optional<HostType> hostTypeOfGenerics(const ast::PathSegment &seg, llvm::SMRange range);
  // The `let` annotation of e, if it is a HostTensor / HbmTensor type.
  std::optional<HostType> hintedHostType(const ast::Expr &e);
  std::optional<TensorType> hintedHbmType(const ast::Expr &e);

  Value hostTensorCall(const ast::Expr &e, const std::string &fn, const ast::Path &p);
  // HostLookupTable.cpp: `LookupTable::<In, Out>::from_fn/from_vec(...)` and the table's methods.
  Value lookupTableCall(const ast::Expr &e, const std::string &fn, const ast::Path &p);
  Value lookupTableMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<LookupTableObj> &t);
  Value acquire(const ast::Expr &e);
  Value launch(const ast::Expr &e);
  Value contractionCall(const ast::Expr &e, const ast::PathSegment &seg);
  Value hostTensorMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<HostTensorObj> &t);
  Value toHbm(const ast::Expr &e, const std::shared_ptr<HostTensorObj> &t);
  Value hbmFromAddr(const ast::Expr &e, const ast::Path &p);
  Value hbmViewMethod(const ast::Expr &e, const std::string &method, const std::shared_ptr<HbmTensorObj> &h);
  void bindContext(HbmTensorObj &h, const std::shared_ptr<ContextObj> &ctx, const ast::Expr &site);
  Value toHost(const ast::Expr &e, const std::shared_ptr<HbmTensorObj> &t);
  Value assertClose(const ast::Expr &e);

  std::vector<Value> args(const ast::Expr &e, size_t first);
  std::shared_ptr<HostTensorObj> expectTensor(const Value &v, const ast::Expr &site, const std::string &what);
  std::shared_ptr<ContextObj> expectPdma(const Value &v, const ast::Expr &site);
  Value callClosure(const Value &f, std::vector<Value> args, const ast::Expr &site);
  Value wrap(HostData d);
  [[noreturn]] void fail(llvm::SMRange range, const std::string &msg) { throw RuntimeError{range, msg}; }

  Evaluator &ev_;
  Compilation &comp_;
  TypeChecker types_;
};

}  // namespace tcp::interp
