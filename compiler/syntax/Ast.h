// Ast.h — the owned abstract syntax tree of a .tcp program; every node carries its source range.
#pragma once

#include <llvm/Support/SMLoc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcp::ast {

using Range = llvm::SMRange;

struct Expr;
struct Type;
struct MapExpr;
struct Stmt;
struct Item;
struct Block;
struct Pattern;
using ExprP = std::unique_ptr<Expr>;
using TypeP = std::unique_ptr<Type>;
using MapExprP = std::unique_ptr<MapExpr>;
using StmtP = std::unique_ptr<Stmt>;
using ItemP = std::unique_ptr<Item>;
using BlockP = std::unique_ptr<Block>;
using PatternP = std::unique_ptr<Pattern>;

// ---------------------------------------------------------------- mappings
// The body of `m![...]`. Sizes are expressions (integer literals, `X::SIZE`, arithmetic) that the
// resolver folds to constants.
struct MapExpr {
  enum Kind {
    Symbol,    // `A`, `B'` (name holds primes)
    Identity,  // `1`
    Pair,      // `a, b, c` or `[a, b]`: children, major first (right-associative pairs)
    Pad,       // `e # n`: children[0], amount = n
    Resize,    // `e = n`
    Stride,    // `e / n`
    Modulo,    // `e % n`
    Offset,    // `e @ n`: starts at index n of e
    Escape,    // `{ Alias }`: name = alias
    Dummy,     // `# n` (prefix), `n#` or `nz`: n unused positions; zero = filled with zeros (`z`)
    Concat,    // `e1 + e2 + ...`: children laid out one after another
    LinComb,   // `$(e1:n1, e2:n2)` or `$(e1:n1 + e2)`: children with strides (nullptr = 1)
    OuterSum,  // `e1 * e2 * ...`: `$(e1 : size(e2 * ...), e2 : ..., en : 1)` ("Linear combination")
  };
  Kind kind;
  Range range;
  std::string name;
  std::vector<MapExprP> children;
  ExprP amount;                // Pad/Resize/Stride/Modulo/Offset/Dummy
  std::vector<ExprP> strides;  // LinComb, parallel to children
  bool zero = false;           // Dummy: `z` suffix
  bool grouped = false;        // Pair written with brackets `[ ... ]`
  unsigned depth = 1;          // levels of the tree from this node down (the builder bounds it)
};

// ---------------------------------------------------------------- types and paths
struct GenericArg {
  enum Kind { TypeArg, ConstArg, Lifetime, Binding /* Name = Type */ };
  Kind kind;
  Range range;
  TypeP type;            // TypeArg, Binding
  ExprP expr;            // ConstArg: literal, `{ expr }` block, `-1`
  std::string name;      // Lifetime ("'l"), Binding name
};

struct PathSegment {
  std::string name;
  std::vector<GenericArg> generics;
  bool hasGenerics = false;  // `Foo<>` / `foo::<>` written
  Range range;
};

struct Path {
  TypeP qualifiedSelf;  // `<m![B]>::SIZE` → qualifiedSelf = m![B], segments = [SIZE]
  std::vector<PathSegment> segments;
  bool global = false;  // leading `::`
  Range range;
  std::string str() const;  // "a::b::c" (names only)
};

struct Type {
  enum Kind { PathT, Ref, Ptr, Tuple, Array, Slice, Mapping, Infer, Never, ImplTrait, DynTrait, FnPtr };
  Kind kind;
  Range range;
  Path path;                   // PathT, ImplTrait/DynTrait (first bound)
  bool mut = false;            // Ref/Ptr
  std::string lifetime;        // Ref
  std::vector<TypeP> elems;    // Ref/Ptr/Slice/Array: [0] = pointee; Tuple: members; FnPtr: params
  ExprP arrayLen;              // Array
  MapExprP mapping;            // Mapping: `m![...]`
  TypeP ret;                   // FnPtr
};

// ---------------------------------------------------------------- patterns
struct Pattern {
  enum Kind {
    Ident, Wildcard, Tuple, Ref, Literal, Rest, PathP, TupleStruct,
    Or,       // `p1 | p2`: elems
    RangeP,   // `lo..=hi`: literal = lo, rangeHi = hi
    SliceP,   // `[a, b, ..]`: elems
    StructP,  // `Path { a, b: p, .. }`: fieldNames parallel to elems, hasRest
  };
  Kind kind;
  Range range;
  std::string name;  // Ident
  bool mut = false;  // Ident (`mut x`), Ref (`&mut p`)
  bool byRef = false;
  std::vector<PatternP> elems;  // Ident: `x @ sub` → [sub]
  ExprP literal;
  ExprP rangeHi;
  std::vector<std::string> fieldNames;
  bool hasRest = false;
  Path path;
};

// ---------------------------------------------------------------- expressions
struct MacroCall {
  std::string name;               // "assert_eq", "println", "i", "vec", "todo", ...
  std::vector<ExprP> args;        // comma-separated arguments when they parse as expressions
  std::vector<std::pair<MapExprP, ExprP>> indexEntries;  // `i![A: 2, B / 64: i]`
  MapExprP mapping;               // `m![...]` in expression position
  std::string rawText;            // the tokens between the delimiters, verbatim
  char delimiter = '(';           // '(', '[' or '{'
  bool repeat = false;            // `vec![e; n]`: args = [e, n]
  bool argsParsed = false;        // args hold the comma-separated arguments (else only rawText)
};

struct ClosureParam {
  PatternP pattern;
  TypeP type;  // may be null
};

struct StructField {
  std::string name;
  Range range;
  ExprP value;  // null for shorthand `{ x }`
};

struct Expr {
  enum Kind {
    IntLit, FloatLit, BoolLit, StrLit, CharLit,
    PathE,       // `x`, `FxpBinaryOp::AddFxp`, `HostTensor::<i32, m![A]>::rand`, `<m![B]>::SIZE`
    Unary,       // op: "-", "!", "*", "&", "&mut"
    Binary,      // op: "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "==", ...
    Assign,      // op: "=", "+=", "-=", ...
    Cast,        // `e as T`
    Call,        // callee(args)
    MethodCall,  // receiver.name::<generics>(args)
    Field,       // e.name or e.0
    Index,       // e[i]
    Tuple, Array, ArrayRepeat /* [e; n] */,
    StructLit,   // Path { f: e, .. }
    Closure,
    BlockE,      // `{ ... }`, `unsafe { }`, `async { }` (flags)
    If, While, Loop, For, Match,
    Return, Break, Continue,
    RangeE,      // a..b, a..=b, ..b, a..
    Await,       // e.await
    Try,         // e?
    Macro,
    Paren,
  };
  Kind kind;
  Range range;

  // literals
  std::string text;      // literal spelling (without suffix), string contents, operator, field name
  std::string suffix;    // `0.0f32` → "f32", `16384i32` → "i32"
  uint64_t intValue = 0;
  bool intOverflow = false;
  double floatValue = 0;
  bool boolValue = false;

  Path path;                       // PathE, StructLit, MethodCall (name + turbofish in segments[0])
  std::vector<ExprP> operands;     // Unary [x], Binary [l, r], Cast [x], Call [callee, args...],
                                   // MethodCall [receiver, args...], Field/Await/Try [x],
                                   // Index [x, i], Tuple/Array elems, ArrayRepeat [e, n],
                                   // If [cond], While [cond], For [iterable], Return/Break [value?],
                                   // RangeE [lo?, hi?] (null entries allowed), Paren [x], Match [scrutinee]
  TypeP type;                      // Cast target
  std::vector<StructField> fields; // StructLit
  bool hasRest = false;            // StructLit `..base` (operands[0] = base)
  std::vector<ClosureParam> params;// Closure
  TypeP closureRet;
  bool isMove = false;
  BlockP block;                    // BlockE, If then, While/Loop/For body, Closure body when braced
  ExprP elseExpr;                  // If: else branch (BlockE or If)
  PatternP pattern;                // For loop variable, `if let` pattern
  bool inclusive = false;          // RangeE `..=`
  bool isUnsafe = false, isAsync = false;  // BlockE flags
  std::string label;               // loop label 'a
  std::unique_ptr<MacroCall> macro;
  struct Arm { PatternP pattern; ExprP guard; ExprP body; Range range; };
  std::vector<Arm> arms;           // Match
};

// ---------------------------------------------------------------- statements and blocks
struct Stmt {
  enum Kind { Let, ExprS, ItemS, Empty };
  Kind kind;
  Range range;
  PatternP pattern;  // Let
  TypeP type;        // Let (optional)
  ExprP init;        // Let (optional), ExprS
  BlockP elseBlock;  // let-else
  bool semi = false; // ExprS followed by `;`
  ItemP item;        // ItemS
};

struct Attribute {
  std::string name;                             // "device", "test", "tokio::main", "allow"
  std::vector<std::pair<std::string, ExprP>> args;  // `chip = 1` → ("chip", 1); bare words → (word, null)
  std::string rawText;                          // tokens inside the brackets
  bool inner = false;                           // `#![...]`
  Range range;
};

struct Block {
  Range range;
  std::vector<Attribute> innerAttrs;  // `#![allow(unused)]` at the top of a body
  std::vector<StmtP> stmts;           // the last ExprS without `semi` is the tail value
};

// ---------------------------------------------------------------- items
struct AxisDecl {
  std::string name;  // "A", "B'"
  Range range;
  ExprP size;        // `A = 8`
  std::string skewBase, skewBy;  // `B' = B - A` → ("B", "A"); size then null
  MapExprP padded;               // `B' = # 2 + B + # 4` (a concatenation); size then null
};

struct GenericParam {
  enum Kind { LifetimeP, TypeP_, ConstP };
  Kind kind;
  std::string name;
  Range range;
  TypeP constType;               // `const T: Tu`
  std::vector<TypeP> bounds;     // `D: Scalar + Copy`
  ExprP defaultValue;
};

struct Param {
  PatternP pattern;  // null for `self`
  TypeP type;        // null for plain `self`
  bool isSelf = false, selfRef = false, selfMut = false;
  Range range;
};

// One imported path of a `use` tree: `use a::{b, c::*, d as e};` has three (a::b, a::c::*, a::d as e).
struct UseEntry {
  std::vector<std::string> path;    // the segments (`crate`, `self`, `super` included), without `*`
  std::vector<Range> segmentRanges; // parallel to path
  bool glob = false;                // `path::*`
  std::string rename;               // `as name` (`_` for `as _`); empty when not renamed
  Range range;                      // the entry's source text
};

struct Item {
  enum Kind {
    Axes,        // axes![...]
    TypeAlias,   // type Name<...> = Type;
    Fn,          // fn items (kernels, stage functions, tests, main)
    Use,         // use a::b::*;
    Mod,         // mod name; (a module in another file; `mod name { ... }` is Skipped)
    ExternCrate, // extern crate x;
    Const,       // const X: T = e; / static
    Skipped,     // impl/struct/enum/trait/macro_rules!/mod blocks: parsed and ignored
    MacroItem,   // other item-position macro invocations `foo! { }` / `foo!(...);`
  };
  Kind kind;
  Range range;
  std::vector<Attribute> attrs;
  std::string name;             // alias/fn/const/crate name; Skipped: keyword ("impl", "struct", ...)
  std::string declName;         // Skipped struct/enum/trait: the name it declares ("BufTensor")
  bool isPub = false;
  bool hasAttr(std::string_view attr) const {
    for (const auto &a : attrs)
      if (a.name == attr) return true;
    return false;
  }
  // `fn main` or a `#[test]` function: a program's entry, never imported from a module.
  bool isEntry() const { return kind == Fn && (name == "main" || hasAttr("test") || hasAttr("tokio::test")); }

  // Axes
  std::vector<AxisDecl> axes;
  // TypeAlias / Const
  std::vector<GenericParam> generics;  // also Fn
  TypeP type;                          // alias target, const type
  ExprP value;                         // Const value
  // Fn
  bool isAsync = false, isUnsafe = false, isConst = false;
  std::vector<Param> params;
  TypeP ret;
  BlockP body;  // null for `fn f();`
  // Use
  std::string usePath;            // the tree as written, without whitespace
  std::vector<UseEntry> uses;     // the tree flattened into paths
  // MacroItem
  std::unique_ptr<MacroCall> macro;
};

struct Program {
  std::vector<Attribute> innerAttrs;  // file-level `#![...]`
  std::vector<ItemP> items;
  unsigned bufferId = 0;              // llvm::SourceMgr buffer
  // A program spanning files (`mod`, `use` of library modules) holds the items of every module,
  // merged by the module loader (ModuleLoader.h), each with source ranges in its own buffer.
};

}  // namespace tcp::ast
