// OpCatalog.h — every engine method, engine type and enum of the manual, with tcp's support status.
//
// The typed phase consults the catalog for every method, path, enum variant and struct-literal
// field of a kernel or stage function: a name the catalog does not hold is an error (with the
// nearest known name), a name it holds as "not supported yet" is refused naming the feature and the
// manual's section, and a supported method is dispatched to its rule (TypeCheckWalk.cpp). The
// catalog is also the answer to "which methods can follow this stage" (`methodsFor`).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace tcp::catalog {

// Where a feature tcp does not implement yet is described: what it is and the manual's section.
struct Limitation {
  const char *feature = nullptr;  // "the Vector Engine's Logic stage"
  const char *section = nullptr;  // "\"Vector Engine\" > Stage Details"
};

// The form of one value argument of a supported method.
enum class ArgForm {
  Address,     // a constant non-negative integer (an address)
  Integer,     // a constant integer
  Variant,     // a variant of the enum `enumName`
  TensorDma,   // `&mut ctx.tdma`
  DmView,      // a DM tensor (view)
  DmViewMut,   // a mutable DM tensor view
  TrfRef,      // `&TrfTensor`
  Table,       // a `&LookupTable<In, Out>` parameter
  ZeroPoints,  // `[zp0, zp1]`
  VeOperand,   // an i32 constant or `VeRhs::vrf(&vrf)` (Vector Engine "Operands")
  VeArgs,      // the Vector Engine op's own argument list (its rule checks the count and forms:
               // operators, modes, operands, per-group operands; "Vector Engine" > Operands)
};

struct ArgSpec {
  ArgForm form;
  const char *what;                // "the DM address", for messages
  const char *enumName = nullptr;  // Variant
};

// A method of an engine value (a tensor of some tier or stage, or a context).
struct Method {
  const char *name;
  // The manual's type names of the values it applies to ("CollectTensor", "VectorInitTensor",
  // "DmTensor", "TuContext" for `ctx.main` / `ctx.sub`). For supported methods the rule accepts
  // exactly the receivers tcp models among these (TypeCheckWalk.cpp derives `requireStage` from it).
  std::vector<const char *> receivers;
  bool supported;
  std::vector<ArgSpec> args;  // value arguments of a supported method (all required)
  unsigned typeArgs = 0;      // turbofish arguments it takes at most
  bool emitsOp = true;        // produces a typed op (`view` does not)
  Limitation limitation;      // unsupported methods
};

const std::vector<Method> &methods();
const Method *findMethod(llvm::StringRef name);
// Every method name (for "did you mean" across receivers).
std::vector<std::string> methodNames();
// The methods that apply to a receiver type, supported or not, in catalog order: what a language
// server completes after `value.` (e.g. methodsFor("CollectTensor") holds `vector_init`, `cast`, ...).
std::vector<std::string> methodsFor(llvm::StringRef receiverType);
// Whether a method applies to a receiver type.
bool appliesTo(const Method &m, llvm::StringRef receiverType);

// A variant of an enum: a unit, a tuple (`MulF(FpMulAlu::Mul0)`) or a struct variant
// (`Broadcast01 { slice1, slice0, time0 }`).
struct Variant {
  const char *name;
  enum Shape { Unit, Tuple, Struct } shape = Unit;
  std::vector<const char *> fields;  // Struct: field names; Tuple: one entry per payload (its type)
  bool supported = true;             // false: tcp cannot honour it yet (limitation says why)
  Limitation limitation;
};

struct Enum {
  const char *name;
  std::vector<Variant> variants;
  const char *section;  // where the manual defines it
};

const std::vector<Enum> &enums();
const Enum *findEnum(llvm::StringRef name);
const Variant *findVariant(const Enum &e, llvm::StringRef name);
std::vector<std::string> enumNames();
std::vector<std::string> variantNames(const Enum &e);

// An engine type name of the manual (a tensor tier, a stream stage, a context). Supported types are
// modelled by TensorType; the others are refused where a signature or annotation names them.
struct EngineType {
  const char *name;
  bool supported;
  Limitation limitation;
};

const std::vector<EngineType> &types();
const EngineType *findType(llvm::StringRef name);

// A path or function a kernel body may name besides enums: `VeRhs::vrf` (an operand form of a
// supported op), library functions tcp does not implement yet.
struct Function {
  const char *path;  // "VeRhs::vrf", "HbmTensor::from_addr"
  bool supported;    // supported: only as the argument form that names it
  Limitation limitation;
};

const std::vector<Function> &functions();
const Function *findFunction(llvm::StringRef path);

// "`.vector_logic()` is not supported yet (the Vector Engine's Logic stage, "Vector Engine" > Stage Details)"
std::string notSupported(const std::string &what, const Limitation &l);

// Catalog sizes (for reports and tests).
struct Counts {
  unsigned methods = 0, supportedMethods = 0, enums = 0, variants = 0, supportedVariants = 0, types = 0,
           supportedTypes = 0;
};
Counts counts();

}  // namespace tcp::catalog
