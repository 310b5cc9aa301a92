// TypeCheckInternal.h — the per-function checker shared by the op-rule files (not a public API).
#pragma once

#include "OpCatalog.h"
#include "TypeCheck.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tcp {

// Declared (AST) types, as the checker reads them (TypeCheckTypes.cpp).
const ast::Type &stripRefs(const ast::Type &t);                // `&T`, `&mut T` → `T`
bool namesType(const ast::Type &t, const char *name);          // `[&]…::name`
bool isIntegerType(const ast::Type &t);                        // `i8` … `usize`
bool isIntegerOrIntegerArrayType(const ast::Type &t);          // an integer or `[int; N]`

// What an expression of a kernel body evaluates to, as far as the checker is concerned. `None` is
// the value of an expression whose error was reported: uses of it stay silent (no cascade), and the
// walk asserts that an error was indeed reported (a None is never a silently skipped construct).
struct CheckedValue {
  // Runtime: a stage function's integer (or integer array) parameter, known only when it runs.
  enum Kind { None, Unit, Tensor, Context, Dma, Device, Int, Float, Bool, Enum, Table, Runtime };
  Kind kind = None;
  TensorType type;         // Tensor
  int tensorId = -1;       // Tensor: index into FunctionChecker::tensors_
  Ctx ctx = Ctx::Unknown;  // Context: ctx.main / ctx.sub (Device: the `ctx: &mut Context` parameter)
  std::string text;        // Dma: "tdma"/"pdma"; Enum: "TrfAddress::Full"; Runtime: its type ("i8", "[i8; 2]")
  int64_t value = 0;       // Int; Bool (0/1); Table: index into TypedFunction::tables
  double real = 0;         // Float
  // Int, Float, Bool: the loop variable the value depends on ("" for none). A loop's iterations
  // share one engine configuration: such a value may be a tile index or an address, not a value the
  // configuration encodes (requireConstant).
  std::string loopVar;
};

// A tensor placed in memory: its bytes per memory unit and when it is used (for overlap checks).
struct PlacedTensor {
  TensorType type;
  std::string name;
  llvm::SMRange range;
  uint64_t address = 0;
  uint64_t bytes = 0;
  unsigned created = 0;  // op sequence number that wrote it
  unsigned lastUse = 0;  // op sequence number that last read it
  bool placed = false;   // the address is known
  int param = -1;        // parameter index of a function parameter
  int aliasOf = -1;      // a tile view: the tensor whose bytes it names (never overlaps it)
  std::string region;    // TRF: the `TrfAddress::…` it was loaded to (empty: a parameter, region unknown)
};

// A type argument of an op: explicit (turbofish) or to be inferred from the expected result type.
struct TypeArg {
  bool given = false;
  const ast::GenericArg *ast = nullptr;
  MappingRef mapping;
  std::optional<num::DType> dtype;
};

class TypeChecker::FunctionChecker {
 public:
  FunctionChecker(TypeChecker &tc, const ast::Item &fn, TypedFunction &out);
  void run();

  // ---- helpers for the rules
  Diagnostics &diags() { return tc_.diags_; }
  void error(llvm::SMRange r, const std::string &msg) { tc_.diags_.error(r, msg); }
  std::vector<TypeArg> typeArgs(const ast::Expr &call, size_t count);
  // The mapping for a type parameter: the turbofish argument, else the expected type's field.
  MappingRef pick(const TypeArg &a, const MappingRef &fromExpected, const ast::Expr &call, const char *param);
  std::optional<uint64_t> constArg(const ast::Expr &call, size_t index, const char *what);
  CheckedValue eval(const ast::Expr &e, const std::optional<TensorType> &expected);
  // Reports a construct tcp refuses until it implements it: "`what` is not supported yet (...)".
  void refuse(llvm::SMRange r, const std::string &what, const catalog::Limitation &l);
  // A kernel-body construct outside the typed model: "`if` in a kernel is not supported yet (...)".
  void refuseConstruct(llvm::SMRange r, const std::string &what);
  // Validates a variant written in place (`E::V`, `E::V(payload)`, `E::V { field: e }`) against
  // the enum catalog; `want` names the enum an argument must be (nullptr: any), `context` the op
  // for messages. Reports unknown enums, variants and fields (with the nearest name), wrong shapes
  // and variants tcp does not support yet; returns false then.
  bool checkVariant(const ast::Expr &e, const char *want, const std::string &context);
  // The manual's type name of a value, for messages and the catalog ("CollectTensor", "DmTensorView",
  // "TuContext" for ctx.main / ctx.sub, "Context" for ctx, "DmaContext" for ctx.tdma).
  static std::string receiverTypeName(const CheckedValue &v);
  TypedOp &emit(const ast::Expr &call, const TensorType &in, const TensorType &out);
  // `view.tile::<Dim, SIZE, Tile>(start)` (OpTile.cpp).
  CheckedValue opTile(const ast::Expr &call, const CheckedValue &recv);
  CheckedValue tensorValue(const TensorType &t, int id);
  int place(const TensorType &t, const std::string &name, llvm::SMRange range, std::optional<uint64_t> address);
  void use(const CheckedValue &v);
  llvm::SMRange opRange(const ast::Expr &call) const;
  bool inKernel() const { return out_.isDevice; }

  // Device-size and capacity rules ("Memory and Stream": Size Constraint). Ops inherit Chip from
  // their input (checked at the kernel's parameters), so they pass checkChip = false.
  void checkDeviceDims(const TensorType &t, llvm::SMRange r, bool checkChip = true);
  void checkCapacity(const TensorType &t, llvm::SMRange r, std::optional<uint64_t> address);
  void checkPreserved(const std::vector<MappingRef> &src, const std::vector<MappingRef> &dst, llvm::SMRange r,
                      const std::string &op, const std::vector<std::string> &ignore = {});

  // ---- op rules (one family per file)
  CheckedValue opToDm(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opToHbm(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opDma(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opBegin(const ast::Expr &call, const CheckedValue &recv);
  // Opens a Tensor Unit chain streaming `sources` (DM tensors of one type): the begin stream's type,
  // Time `time`, Packet the DM Element; the sources are recorded as the chain's and the first is current.
  TensorType openChain(Ctx ctx, const std::vector<const CheckedValue *> &sources, const MappingRef &time);
  CheckedValue opFetch(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  // opFetch with `castFrom`: the type entering the adapter's Type Casting stage when it is not the
  // fetched one (a lookup table's Out type).
  CheckedValue checkFetch(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected,
                          std::optional<num::DType> castFrom);
  CheckedValue opBeginInterleaved(const ast::Expr &call, const CheckedValue &recv);
  CheckedValue opFetchAdapter(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opFetchTable(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  // A `&LookupTable<In, Out>` parameter: recorded in TypedFunction::tables (OpFetchTable.cpp).
  // Returns false when the parameter's type does not name LookupTable.
  bool declareTableParam(const ast::Param &p);
  CheckedValue opSwitch(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opCollect(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opToTrf(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opToVrf(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opAlign(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opContract(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opAccumulate(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opTranspose(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opCast(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  // The Vector Engine (OpVector.cpp: entries, stages, operands, the pass; OpVectorShape.cpp: Narrow,
  // Widen, two-group entry; OpVectorReduce.cpp: intra- and inter-slice reduce with the VCG rules).
  CheckedValue opVector(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  // One operand of a Vector Engine op into `args` (a constant of the stream's type, `VeRhs::vrf(&v)`
  // or `&v`, `Stash`, `VeBranchOperand::{always,group}`, `()` where `skip`); false after an error.
  bool veOperand(const ast::Expr &e, const TensorType &stream, const std::string &opText, VeOpArgs &args,
                 std::vector<std::pair<TensorType, int>> &vrfs, bool skip);
  bool veShape(const ast::Expr &call, const TensorType &in, TensorType &out, VeOpArgs &args,
               const std::optional<TensorType> &expected);
  bool veIntraReduce(const ast::Expr &call, const TensorType &in, TensorType &out, VeOpArgs &args,
                     const std::optional<TensorType> &expected);
  bool veInterReduce(const ast::Expr &call, const TensorType &in, TensorType &out, VeOpArgs &args,
                     const std::optional<TensorType> &expected);
  CheckedValue opCommit(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  CheckedValue opCommitView(const ast::Expr &call, const CheckedValue &recv, const std::optional<TensorType> &expected);
  // The commit rules shared by commit and commit_view: the stage, the flit, the preservation rule,
  // the commit sequencer and its sizes; emits the op (named "commit").
  bool requireCommitStage(const ast::Expr &call, const CheckedValue &recv);
  TypedOp &checkCommit(const ast::Expr &call, const CheckedValue &recv, const TensorType &out, std::optional<uint64_t> addr);

  // Whether the TRF tensor's weights all reach the computation mapping of an align.
  // to_trf: Row is the outer part of (Time, Packet), Element the rest; reports and returns true
  // when it is not (false when it cannot tell: let the preservation rule speak).
  bool checkTrfSplit(const TensorType &in, const TensorType &out, llvm::SMRange r);
  std::optional<std::string> tensorPreservedTrf(const TensorType &trf, const TensorType &out);
  // DM/HBM address ranges of tensors alive at the same time must not overlap ("Execution Contexts").
  void checkOverlaps();
  // A handle read at `at` whose storage (TRF region, VRF/DM/HBM bytes) a later write overlapped is
  // stale: reports it, naming the write (StaleHandles.cpp).
  void checkStale(const CheckedValue &v, llvm::SMRange at);

  // Reports `op` used on a stream at a position the catalog does not list for it (OpCatalog.cpp:
  // the method's receivers that tcp models); returns false then.
  bool requireStage(const ast::Expr &call, const CheckedValue &recv);
  bool requireTier(const ast::Expr &call, const CheckedValue &recv, Tier tier);

  // ---- the walk (TypeCheckWalk.cpp: statements and results; TypeCheckExpr.cpp: expressions;
  // TypeCheckDispatch.cpp: methods through the catalog)
  // Walks statements in order; the value of the last expression statement without `;` (a block's
  // value) or nullopt when there is none. `fnBody`: the function's own body, whose tail and
  // top-level `return` are its result (checked against `expected`).
  std::optional<CheckedValue> walkStmts(const std::vector<ast::StmtP> &stmts, const std::optional<TensorType> &expected,
                                        bool fnBody, llvm::SMRange *resultRange);
  CheckedValue evalMethod(const ast::Expr &e, const std::optional<TensorType> &expected);
  CheckedValue evalPath(const ast::Expr &e);
  CheckedValue evalField(const ast::Expr &e);
  CheckedValue evalCall(const ast::Expr &e);
  // Control flow over constants (TypeCheckControl.cpp): `for` over a constant range unrolls its body,
  // `if` on a constant condition takes one branch; comparisons and logic on constants.
  CheckedValue evalFor(const ast::Expr &e);
  CheckedValue evalIf(const ast::Expr &e, const std::optional<TensorType> &expected);
  std::optional<CheckedValue> evalCompare(const ast::Expr &e, const CheckedValue &l, const CheckedValue &r);
  // Reports `v` used as `what` (a value an engine's configuration encodes) when it depends on a loop
  // variable; true when it does not.
  bool requireConstant(const CheckedValue &v, llvm::SMRange r, const std::string &what);
  uint64_t unrolled_ = 0;  // loop iterations unrolled and calls inlined in this function (nested ones included)
  // Reports a function whose unrolled loops and inlined calls made more typed ops than the budget
  // (the walk stops there); true while within it.
  bool withinOpBudget(llvm::SMRange r);
  // A call of a stage function runs its body here, its parameters bound to the arguments
  // (TypeCheckInline.cpp); inlining_: the calls being inlined, innermost last.
  CheckedValue evalInlineCall(const ast::Expr &e, const std::string &name);
  std::vector<std::string> inlining_;
  bool opBudgetReported_ = false;
  std::set<std::string> failedCalls_;  // stage functions whose inlined body reported errors
  std::set<std::string> signaturesReported_, badSignatures_;  // called stage functions whose signature was read / refused
  void declareParams();
  // The function's declared result: a tensor type, nothing, or a refused form (tuple, other type).
  std::optional<TensorType> declaredResult(bool *refused);
  // A None value is used: an error must have been reported for it (internal invariant).
  void assertReported(llvm::SMRange r) const;

  TypeChecker &tc_;
  const ast::Item &fn_;
  TypedFunction &out_;
  std::map<std::string, CheckedValue> env_;
  std::vector<PlacedTensor> tensors_;
  unsigned seq_ = 0;
  int currentChain_ = -1;
  bool chainOpen_ = false;   // currentChain_ has not reached its last stage (a commit or another write to memory)
  std::map<int, std::vector<int>> chainSources_;
  int currentSource_ = -1;   // the tensor the op being checked reads (set before its rule runs)
  bool resultPending_ = false;  // the last emitted op waits for place() to name its result
  bool tupleValue_ = false;      // the body ended with the tuple of a kernel's tuple result
  bool tupleSignature_ = false;  // the signature returns a tuple (refused there; its value is not refused again)
  unsigned startErrors_ = 0;    // errors reported before this function was checked
  // (stale tensor, the write over it) pairs reported by checkStale: checkOverlaps does not repeat them.
  std::set<std::pair<int, int>> staleReported_;
};

// Same tier, element type, stage and equivalent mappings (contexts match unless one is generic).
bool sameType(const TensorType &a, const TensorType &b);

// The element factors of a mapping as canonical spellings (padding dropped), without those of the
// axis `without` (OpVectorShape.cpp); and such a list printed as a mapping.
std::vector<std::string> veTerms(const MappingRef &m, const std::string &without);
std::string veTermList(const std::vector<std::string> &terms);

// A short description of a stage for messages: "a FetchTensor (after .fetch())".
std::string describeStage(Stage s);

// The element type of a stream at a Vector Engine ALU stage ("Vector Engine" > Stages): i32 at Fxp and
// after FpToFxp, f32 at Fp, FpDiv and after FxpToFp; nullopt where either is legal (OpVector.cpp).
std::optional<num::DType> vectorStageDType(Stage s);

// The error of a commit (or commit_view) whose DM address is not a multiple of 8 bytes ("Axis
// Permutation" > Key constraints: the Commit Engine writes whole 8-byte units of an 8-byte aligned
// range); OpVectorCommit.cpp.
std::string commitAlignmentError(uint64_t address);

}  // namespace tcp
