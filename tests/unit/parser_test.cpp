// parser_test.cpp — focused parser and AST tests: mappings, generics, literals, items, errors, robustness.
#include "AstPrinter.h"
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>

namespace {

using namespace tcp::ast;

struct Parsed {
  std::unique_ptr<llvm::SourceMgr> sm = std::make_unique<llvm::SourceMgr>();
  std::unique_ptr<Program> program;
  std::vector<StmtP> stmts;  // parseRepl
  std::string diags;
  unsigned errors = 0;
};

Parsed parse(const std::string &text, bool repl = false) {
  Parsed p;
  unsigned id = p.sm->AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "test.tcp"), llvm::SMLoc());
  llvm::raw_string_ostream os(p.diags);
  tcp::Diagnostics diags(*p.sm, os);
  if (repl) p.stmts = tcp::parseReplInput(*p.sm, id, diags);
  else p.program = tcp::parseProgram(*p.sm, id, diags);
  os.flush();
  p.errors = diags.errorCount();
  return p;
}

// A fully bracketed rendering of a mapping tree: `Pad(Stride(A,8),256)`.
std::string shape(const MapExpr &m) {
  static const char *names[] = {"Sym", "Id", "Pair", "Pad", "Resize", "Stride", "Mod", "Offset", "Esc", "Dummy", "Cat", "Lin"};
  std::string s = names[m.kind];
  std::vector<std::string> parts;
  if (m.kind == MapExpr::Symbol || m.kind == MapExpr::Escape) return m.name;
  if (m.kind == MapExpr::Identity) return "1";
  for (size_t i = 0; i < m.children.size(); ++i) {
    std::string c = m.children[i] ? shape(*m.children[i]) : "?";
    if (m.kind == MapExpr::LinComb && i < m.strides.size() && m.strides[i]) c += ":" + tcp::exprToString(*m.strides[i]);
    parts.push_back(c);
  }
  if (m.amount) parts.push_back(tcp::exprToString(*m.amount));
  if (m.zero) parts.push_back("zero");
  if (m.grouped) parts.push_back("grouped");
  s += "(";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "," : "") + parts[i];
  return s + ")";
}

// The mapping of `type E = m![<body>];`.
std::string mapShape(const std::string &body, std::string *printed = nullptr) {
  Parsed p = parse("type E = m![" + body + "];");
  EXPECT_EQ(p.errors, 0u) << body << "\n" << p.diags;
  if (p.errors || p.program->items.empty() || !p.program->items[0]->type || !p.program->items[0]->type->mapping)
    return "<error>";
  const MapExpr &m = *p.program->items[0]->type->mapping;
  if (printed) *printed = tcp::mapExprToString(m);
  return shape(m);
}

// The initializer of the first `let` in `fn main() { <body> }`.
const Expr *firstLetInit(const Parsed &p) {
  if (!p.program || p.program->items.empty() || !p.program->items[0]->body) return nullptr;
  for (const StmtP &s : p.program->items[0]->body->stmts)
    if (s->kind == Stmt::Let) return s->init.get();
  return nullptr;
}

// ------------------------------------------------------------------------------------ mappings

TEST(ParserMapping, PostfixOperatorsAreLeftAssociativeAndBindTighterThanPlusAndComma) {
  EXPECT_EQ(mapShape("B / 32 % 2"), "Mod(Stride(B,32),2)");
  EXPECT_EQ(mapShape("A / 8 # 256"), "Pad(Stride(A,8),256)");
  EXPECT_EQ(mapShape("B / 32 = 2 # 16"), "Pad(Resize(Stride(B,32),2),16)");
  EXPECT_EQ(mapShape("A % 4 = 3"), "Resize(Mod(A,4),3)");
  EXPECT_EQ(mapShape("A, B, C"), "Pair(A,B,C)");
  EXPECT_EQ(mapShape("A, B / 32 = 2 # 16, B % 32"), "Pair(A,Pad(Resize(Stride(B,32),2),16),Mod(B,32))");
  EXPECT_EQ(mapShape("# 2 + B + # 4"), "Cat(Dummy(2),B,Dummy(4))");
  EXPECT_EQ(mapShape("A / 2 + B, C"), "Pair(Cat(Stride(A,2),B),C)");
}

TEST(ParserMapping, AtomsAndNotations) {
  EXPECT_EQ(mapShape("1"), "1");
  EXPECT_EQ(mapShape("1 # 2"), "Pad(1,2)");
  EXPECT_EQ(mapShape("A + 1#"), "Cat(A,Dummy(1))");
  EXPECT_EQ(mapShape("1#, 2#"), "Pair(Dummy(1),Dummy(2))");
  EXPECT_EQ(mapShape("1 + 1z"), "Cat(1,Dummy(1,zero))");
  EXPECT_EQ(mapShape("B'"), "B'");
  EXPECT_EQ(mapShape("A, B' / 32"), "Pair(A,Stride(B',32))");
  EXPECT_EQ(mapShape("{ L }, { R }"), "Pair(L,R)");
  EXPECT_EQ(mapShape("{Time}, A / 16"), "Pair(Time,Stride(A,16))");
  EXPECT_EQ(mapShape("[A, B] # 22"), "Pad(Pair(A,B,grouped),22)");
  EXPECT_EQ(mapShape("{ E1 }, [{ E2 }, { E3 }]"), "Pair(E1,Pair(E2,E3,grouped))");
  EXPECT_EQ(mapShape("A @ 1024, B"), "Pair(Offset(A,1024),B)");
  EXPECT_EQ(mapShape("(D / 2) @ i = 1"), "Resize(Offset(Stride(D,2),i),1)");
  EXPECT_EQ(mapShape("$(N:1, F:2)"), "Lin(N:1,F:2)");
  EXPECT_EQ(mapShape("$(W:2=15 + Fw=4)=32"), "Resize(Lin(Resize(W,15):2,Resize(Fw,4)),32)");
}

TEST(ParserMapping, SizeOperandsAreExpressions) {
  EXPECT_EQ(mapShape("{ E } # E::SIZE"), "Pad(E,E::SIZE)");
  EXPECT_EQ(mapShape("[{ A }, { B }] / B::SIZE"), "Stride(Pair(A,B,grouped),B::SIZE)");
  EXPECT_EQ(mapShape("A / (N * 2)"), "Stride(A,(N * 2))");
  EXPECT_EQ(mapShape("1 # NUM_CHIPS"), "Pad(1,NUM_CHIPS)");
  EXPECT_EQ(mapShape("A # <m![B]>::SIZE"), "Pad(A,<m![B]>::SIZE)");
}

TEST(ParserMapping, PrintsBackInBodyNotation) {
  for (const char *body : {"A / 8 # 256", "A, B / 32 = 2 # 16, B % 32", "# 2 + B + # 4", "[A, B] # 22",
                           "{ E1 }, [{ E2 }, { E3 }]", "(A + B) # 4", "1 # 2", "A + # 1", "1 + 1z",
                           "(D / 2) @ i = 1", "A % 4 = 3, B'"}) {
    std::string printed;
    std::string tree = mapShape(body, &printed);
    EXPECT_EQ(mapShape(printed), tree) << body << " printed as " << printed;
  }
  std::string printed;
  mapShape("(D / 2) @ i = 1", &printed);
  EXPECT_EQ(printed, "D / 2 @ i = 1");
  mapShape("[A, B], C", &printed);
  EXPECT_EQ(printed, "[A, B], C");
  mapShape("(A + B) # 4", &printed);
  EXPECT_EQ(printed, "(A + B) # 4");
}

TEST(ParserMapping, MappingErrorsAreWordedForKernelWriters) {
  Parsed p = parse("type E = m![A / ];");
  EXPECT_NE(p.diags.find("expected a mapping expression after '/'"), std::string::npos) << p.diags;
  p = parse("type E = m![A, 4];");
  EXPECT_NE(p.diags.find("the number 4 is not a mapping"), std::string::npos) << p.diags;
  p = parse("type E = m![A, [B, C];");
  EXPECT_EQ(p.errors, 1u) << p.diags;
  EXPECT_NE(p.diags.find("expected ']'"), std::string::npos) << p.diags;
}

// ------------------------------------------------------------------------------------ generics

TEST(ParserGenerics, TurbofishMethodCallKeepsGenericArguments) {
  Parsed p = parse("fn k() { let r = x.fetch::<bf16, m![1], m![A % 8]>(); }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Expr *e = firstLetInit(p);
  ASSERT_TRUE(e && e->kind == Expr::MethodCall);
  ASSERT_EQ(e->path.segments.size(), 1u);
  const PathSegment &seg = e->path.segments[0];
  EXPECT_EQ(seg.name, "fetch");
  ASSERT_EQ(seg.generics.size(), 3u);
  EXPECT_EQ(tcp::typeToString(*seg.generics[0].type), "bf16");
  ASSERT_EQ(seg.generics[2].type->kind, Type::Mapping);
  EXPECT_EQ(shape(*seg.generics[2].type->mapping), "Mod(A,8)");
}

TEST(ParserGenerics, TurbofishPathAndQualifiedPath) {
  Parsed p = parse("fn k() { let h = HostTensor::<i32, m![A]>::rand(&mut rng); let n = <m![B]>::SIZE; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Block &b = *p.program->items[0]->body;
  const Expr &call = *b.stmts[0]->init;
  ASSERT_EQ(call.kind, Expr::Call);
  EXPECT_EQ(call.operands[0]->path.str(), "HostTensor::rand");
  EXPECT_EQ(tcp::exprToString(*call.operands[0]), "HostTensor::<i32, m![A]>::rand");
  const Expr &size = *b.stmts[1]->init;
  ASSERT_TRUE(size.path.qualifiedSelf);
  EXPECT_EQ(size.path.str(), "<m![B]>::SIZE");
}

TEST(ParserGenerics, ClosingAnglesSplitAndShiftsAreRecognisedByAdjacency) {
  Parsed p = parse("fn k() { let v: Vec<Vec<u8>>= w; let a = b >> 2; let c = d >= e; f >>= 1; let g = 1 << 12; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Block &b = *p.program->items[0]->body;
  EXPECT_EQ(tcp::typeToString(*b.stmts[0]->type), "Vec<Vec<u8>>");
  EXPECT_EQ(b.stmts[1]->init->text, ">>");
  EXPECT_EQ(b.stmts[2]->init->text, ">=");
  EXPECT_EQ(b.stmts[3]->init->kind, Expr::Assign);
  EXPECT_EQ(b.stmts[3]->init->text, ">>=");
  EXPECT_EQ(b.stmts[4]->init->text, "<<");
  p = parse("fn k() { let a = b > > 2; }");
  EXPECT_NE(p.diags.find("write '>>' without spaces"), std::string::npos) << p.diags;
}

TEST(ParserGenerics, StageTypesWithLifetimesAndContextGeneric) {
  Parsed p = parse(
      "fn f<'l, const T: Tu>(input: FetchTensor<'l, T, bf16, m![1], m![J]>) -> StreamTensor<'l, { Position::Fetch }, "
      "bf16> { input.collect() }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Item &f = *p.program->items[0];
  ASSERT_EQ(f.generics.size(), 2u);
  EXPECT_EQ(f.generics[0].kind, GenericParam::LifetimeP);
  EXPECT_EQ(f.generics[0].name, "'l");
  EXPECT_EQ(f.generics[1].kind, GenericParam::ConstP);
  const PathSegment &ret = f.ret->path.segments[0];
  EXPECT_EQ(ret.generics[0].kind, GenericArg::Lifetime);
  EXPECT_EQ(ret.generics[1].kind, GenericArg::ConstArg);
}

// ------------------------------------------------------------------------------------ expressions

TEST(ParserExpr, StructLikeVariantInArguments) {
  Parsed p = parse("fn k() { let t = input.switch(SwitchConfig::Broadcast01 { slice1: 256, slice0: 1, time0: 1 }); }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Expr &lit = *firstLetInit(p)->operands[1];
  ASSERT_EQ(lit.kind, Expr::StructLit);
  EXPECT_EQ(lit.path.str(), "SwitchConfig::Broadcast01");
  ASSERT_EQ(lit.fields.size(), 3u);
  EXPECT_EQ(lit.fields[0].name, "slice1");
  EXPECT_EQ(lit.fields[0].value->intValue, 256u);
}

TEST(ParserExpr, NoStructLiteralInLoopHeads) {
  Parsed p = parse("fn k() { for i in 0..E::SIZE { assert_eq!(E::map(i), None); } for x in v { x } }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Expr &loop = *p.program->items[0]->body->stmts[0]->init;
  ASSERT_EQ(loop.kind, Expr::For);
  EXPECT_EQ(loop.operands[0]->kind, Expr::RangeE);
  ASSERT_TRUE(loop.block);
  EXPECT_EQ(loop.block->stmts.size(), 1u);
  p = parse("fn k() { if x == Foo { a: 1 } { } }");
  EXPECT_NE(p.diags.find("struct literal is not allowed in the condition"), std::string::npos) << p.diags;
  EXPECT_EQ(parse("fn k() { if x == (Foo { a: 1 }) { } }").errors, 0u);
}

TEST(ParserExpr, Closures) {
  Parsed p = parse("fn k() { let a = |x, y| x + y; let b = move || 1; let c = v.map(|v| v.cast()); let d = |x: i32| -> i32 { x }; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Block &b = *p.program->items[0]->body;
  const Expr &a = *b.stmts[0]->init;
  ASSERT_EQ(a.kind, Expr::Closure);
  EXPECT_EQ(a.params.size(), 2u);
  EXPECT_EQ(a.operands[0]->text, "+");
  EXPECT_TRUE(b.stmts[1]->init->isMove);
  EXPECT_TRUE(b.stmts[1]->init->params.empty());
  EXPECT_EQ(b.stmts[2]->init->operands[1]->kind, Expr::Closure);
  EXPECT_TRUE(b.stmts[3]->init->closureRet);
  EXPECT_TRUE(b.stmts[3]->init->block);
}

TEST(ParserExpr, LiteralsWithSuffixesAndRadixes) {
  Parsed p = parse(
      "fn k() { let a = [0.0f32, 16384i32, 0x1000, 0b1010, 0o17, 1_000, 2f32, 1.5e3, 'a', \"t\\n\", true]; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const auto &xs = firstLetInit(p)->operands;
  ASSERT_EQ(xs.size(), 11u);
  EXPECT_EQ(xs[0]->kind, Expr::FloatLit);
  EXPECT_EQ(xs[0]->suffix, "f32");
  EXPECT_EQ(xs[0]->text, "0.0");
  EXPECT_EQ(xs[1]->intValue, 16384u);
  EXPECT_EQ(xs[1]->suffix, "i32");
  EXPECT_EQ(xs[2]->intValue, 4096u);
  EXPECT_EQ(xs[3]->intValue, 10u);
  EXPECT_EQ(xs[4]->intValue, 15u);
  EXPECT_EQ(xs[5]->intValue, 1000u);
  EXPECT_EQ(xs[6]->kind, Expr::FloatLit);
  EXPECT_DOUBLE_EQ(xs[7]->floatValue, 1500.0);
  EXPECT_EQ(xs[8]->text, "a");
  EXPECT_EQ(xs[9]->text, "t\n");
  EXPECT_TRUE(xs[10]->boolValue);
}

TEST(ParserExpr, IntegerOverflowIsFlaggedNotUndefined) {
  Parsed p = parse("fn k() { let a = 99999999999999999999999; }");
  EXPECT_EQ(p.errors, 1u);
  const Expr *e = firstLetInit(p);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->intOverflow);
  EXPECT_EQ(e->intValue, UINT64_MAX);
  EXPECT_EQ(parse("fn k() { let a = 18446744073709551615; }").errors, 0u);
}

TEST(ParserExpr, TupleFields) {
  Parsed p = parse("fn k() { let a = t.0.1; let b = t.1; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Expr *e = firstLetInit(p);
  ASSERT_TRUE(e && e->kind == Expr::Field);
  EXPECT_EQ(e->text, "1");
  EXPECT_EQ(e->operands[0]->text, "0");
}

TEST(ParserExpr, RustPrecedence) {
  Parsed p = parse("fn k() { let a = 1 + 2 * 3 << 4 & 5 == 6 && !x || y as u8 > 0; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  EXPECT_EQ(firstLetInit(p)->text, "||");
  p = parse("fn k() { let a = -x.y()?.await as i32; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  EXPECT_EQ(firstLetInit(p)->kind, Expr::Cast);
  EXPECT_EQ(firstLetInit(p)->operands[0]->kind, Expr::Unary);
}

TEST(ParserExpr, ControlFlowAndMacros) {
  Parsed p = parse(R"(fn k() {
  if let Some(x) = y { } else if z { } else { }
  while i < 4 { i += 1; }
  'outer: loop { break 'outer; }
  match op { Op::Add | Op::Sub => 1, _ if x => { 2 } n => n }
  let t = unsafe { HbmTensor::<bf16, m![1], m![A, B]>::from_addr(0) };
  let f = async move { 1 };
  assert_eq!(E::map(i), Some(i![A: i / <m![B]>::SIZE, B: i % <m![B]>::SIZE]));
  let v = vec![0; 4];
  println!("{} {}", a, b);
  todo!("x")
})");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Block &b = *p.program->items[0]->body;
  ASSERT_EQ(b.stmts.size(), 10u);
  EXPECT_EQ(b.stmts[0]->init->kind, Expr::If);
  EXPECT_TRUE(b.stmts[0]->init->pattern);
  EXPECT_EQ(b.stmts[2]->init->label, "'outer");
  EXPECT_EQ(b.stmts[3]->init->arms.size(), 3u);
  EXPECT_EQ(b.stmts[3]->init->arms[0].pattern->kind, Pattern::Or);
  EXPECT_TRUE(b.stmts[4]->init->isUnsafe);
  const MacroCall &assertion = *b.stmts[6]->init->macro;
  EXPECT_EQ(assertion.name, "assert_eq");
  ASSERT_EQ(assertion.args.size(), 2u);
  const MacroCall &index = *assertion.args[1]->operands[1]->macro;
  ASSERT_EQ(index.indexEntries.size(), 2u);
  EXPECT_EQ(index.indexEntries[0].first->name, "A");
  EXPECT_TRUE(b.stmts[7]->init->macro->repeat);
  EXPECT_FALSE(b.stmts[9]->semi);
}

TEST(ParserExpr, IndexMacroKeysAreMappings) {
  Parsed p = parse("fn k() { let i = i![B / 64: i, A: 2]; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const MacroCall &m = *firstLetInit(p)->macro;
  ASSERT_EQ(m.indexEntries.size(), 2u);
  EXPECT_EQ(shape(*m.indexEntries[0].first), "Stride(B,64)");
  EXPECT_EQ(m.indexEntries[1].second->intValue, 2u);
}

// ------------------------------------------------------------------------------------ items

TEST(ParserItems, AxesWithSkewAndAliases) {
  Parsed p = parse("axes![A = 8, B = 512, B' = B - A];\ntype Slice = m![A / 8 # 256];");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Item &axes = *p.program->items[0];
  ASSERT_EQ(axes.kind, Item::Axes);
  ASSERT_EQ(axes.axes.size(), 3u);
  EXPECT_EQ(axes.axes[1].size->intValue, 512u);
  EXPECT_EQ(axes.axes[2].name, "B'");
  EXPECT_EQ(axes.axes[2].skewBase, "B");
  EXPECT_EQ(axes.axes[2].skewBy, "A");
  EXPECT_EQ(p.program->items[1]->kind, Item::TypeAlias);
  EXPECT_EQ(p.program->items[1]->name, "Slice");
}

TEST(ParserItems, AttributesAndFunctions) {
  Parsed p = parse(
      "#![feature(register_tool)]\nextern crate tokio;\nuse furiosa_visa_std::prelude::*;\n#[tokio::main]\nasync fn "
      "main() {}\n#[device(chip = 1)]\nfn kernel(ctx: &mut Context) {}\n#[test]\nfn t() {}");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Program &prog = *p.program;
  ASSERT_EQ(prog.innerAttrs.size(), 1u);
  EXPECT_EQ(prog.innerAttrs[0].name, "feature");
  EXPECT_EQ(prog.items[0]->kind, Item::ExternCrate);
  EXPECT_EQ(prog.items[1]->usePath, "furiosa_visa_std::prelude::*");
  EXPECT_EQ(prog.items[2]->attrs[0].name, "tokio::main");
  EXPECT_TRUE(prog.items[2]->isAsync);
  const Attribute &dev = prog.items[3]->attrs[0];
  EXPECT_EQ(dev.name, "device");
  ASSERT_EQ(dev.args.size(), 1u);
  EXPECT_EQ(dev.args[0].first, "chip");
  EXPECT_EQ(dev.args[0].second->intValue, 1u);
  EXPECT_EQ(prog.items[3]->params[0].type->kind, Type::Ref);
  EXPECT_TRUE(prog.items[3]->params[0].type->mut);
  EXPECT_EQ(prog.items[4]->attrs[0].name, "test");
}

TEST(ParserItems, ManualWrapperKeepsItemsInsideMain) {
  Parsed p = parse(
      "#![allow(unused)]\nfn main() {\n#![feature(adt_const_params)]\nextern crate furiosa_visa_std;\naxes![A = 8];\n"
      "type E = m![A];\n#[test]\nfn test_symbol() { assert_eq!(E::map(E::SIZE), None); }\n}");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Block &body = *p.program->items[0]->body;
  ASSERT_EQ(body.innerAttrs.size(), 1u);
  ASSERT_EQ(body.stmts.size(), 4u);
  for (const StmtP &s : body.stmts) EXPECT_EQ(s->kind, Stmt::ItemS);
  EXPECT_EQ(body.stmts[1]->item->kind, Item::Axes);
}

TEST(ParserItems, LibraryInternalsAreSkipped) {
  Parsed p = parse(R"(
impl<L, R> M for Pair<L, R>
where
    L: M,
{
    const SIZE: usize = L::SIZE * R::SIZE;
    fn map(i: usize) -> Option<Index> { let mut l = L::map(i / R::SIZE)?; Some(l) }
}
struct BufTensor<D: Scalar, Buf: M>(PhantomData<(D, Buf)>);
#[derive(PartialEq, Eq, ConstParamTy)]
enum Position { Begin, Fetch }
trait Tr { fn f(&self); }
macro_rules! i { () => {}; }
mod inner { fn x() {} }
struct StreamTensor<'l, const P: Position> { _marker: PhantomData<&'l ()> }
)");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  std::vector<std::string> names;
  for (const ItemP &it : p.program->items) {
    EXPECT_EQ(it->kind, Item::Skipped);
    names.push_back(it->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"impl", "struct", "enum", "trait", "macro_rules", "mod", "struct"}));
}

TEST(ParserItems, RendererFragmentsAreAccepted) {
  // An impl block whose `impl<...>` header line the renderer dropped.
  Parsed p = parse(
      "#![allow(unused)]\nfn main() {\nStreamTensor<'l, { T }, P, D, Chip>\n{\n    pub fn commit<E: M>(self) -> "
      "DmTensor<D, E> { todo!() }\n}\n}");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Stmt &s = *p.program->items[0]->body->stmts[0];
  ASSERT_EQ(s.kind, Stmt::ItemS);
  EXPECT_EQ(s.item->kind, Item::Skipped);
  EXPECT_EQ(s.item->name, "impl");
  // `pub fn` signatures whose bodies were hidden, the last one cut off at its `{`.
  p = parse(
      "/// Initializes.\n#[primitive(CollectTensor::vector_init)]\npub fn vector_init(self) -> VectorInitTensor<'l, "
      "T, D>\nwhere\nD: VeScalar,\n#[primitive(X::y)]\npub fn y(\nself,\n) -> VectorBranchTensor<'l, T, { "
      "VeOrder::IntraFirst }> {\n#[primitive(X::z)]\npub fn z(self) -> Z {\n");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  ASSERT_EQ(p.program->items.size(), 2u);
  EXPECT_EQ(p.program->items[0]->kind, Item::Skipped);
  EXPECT_EQ(p.program->items[0]->name, "fn");
  EXPECT_EQ(p.program->items[1]->kind, Item::Skipped);
  // A `pub fn` with a `where` clause is library API; other `pub fn`s are functions.
  p = parse("pub fn f<D>(x: D) -> D where D: Scalar { x }\npub fn g() {}");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  EXPECT_EQ(p.program->items[0]->kind, Item::Skipped);
  EXPECT_EQ(p.program->items[1]->kind, Item::Fn);
  EXPECT_TRUE(p.program->items[1]->isPub);
  // ... but a kernel without a body, or a truncated kernel, is an error.
  EXPECT_GT(parse("fn kernel(a: i32)\nfn main() {}").errors, 0u);
  EXPECT_GT(parse("fn main() {\n let x = 1;\n").errors, 0u);
}

// ------------------------------------------------------------------------------------ lexing

TEST(ParserLexing, PrimesLifetimesAndCharsCoexist) {
  Parsed p = parse(
      "axes![B = 4, A = 4, B' = B - A];\ntype E = m![A, B' = 4];\nfn f<'l>(x: &'l u8) { let c = 'a'; let d = "
      "'\\''; }");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  EXPECT_EQ(shape(*p.program->items[1]->type->mapping), "Pair(A,Resize(B',4))");
  EXPECT_EQ(p.program->items[2]->params[0].type->lifetime, "'l");
  const Block &b = *p.program->items[2]->body;
  EXPECT_EQ(b.stmts[0]->init->kind, Expr::CharLit);
  EXPECT_EQ(b.stmts[0]->init->text, "a");
  EXPECT_EQ(b.stmts[1]->init->text, "'");
}

TEST(ParserLexing, TokenDump) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy("type E = m![B' % 2];\n", "t.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  tcp::dumpTokens(sm, id, os);
  os.flush();
  EXPECT_EQ(out,
            "1:1 TYPE 'type'\n1:6 IDENT 'E'\n1:8 EQ '='\n1:10 MAP_OPEN 'm!['\n1:13 PRIMED_IDENT 'B\\''\n"
            "1:16 PERCENT '%'\n1:18 INT_LIT '2'\n1:19 RBRACK ']'\n1:20 SEMI ';'\n2:1 EOF ''\n");
}

TEST(ParserLexing, RangesCoverTheirTokens) {
  Parsed p = parse("fn k() {\n  let x = foo(1, 2) + bar;\n}");
  ASSERT_EQ(p.errors, 0u) << p.diags;
  const Expr *e = firstLetInit(p);
  ASSERT_TRUE(e);
  std::string text(e->range.Start.getPointer(), e->range.End.getPointer());
  EXPECT_EQ(text, "foo(1, 2) + bar");
  auto lc = p.sm->getLineAndColumn(e->range.Start);
  EXPECT_EQ(lc.first, 2u);
  EXPECT_EQ(lc.second, 11u);
}

// ------------------------------------------------------------------------------------ REPL

TEST(ParserRepl, StatementsItemsAndTrailingExpression) {
  Parsed p = parse("axes![A = 8];\nlet x = 1;\nfn f() {}\nx + 1", /*repl=*/true);
  ASSERT_EQ(p.errors, 0u) << p.diags;
  ASSERT_EQ(p.stmts.size(), 4u);
  EXPECT_EQ(p.stmts[0]->kind, Stmt::ItemS);
  EXPECT_EQ(p.stmts[1]->kind, Stmt::Let);
  EXPECT_EQ(p.stmts[2]->kind, Stmt::ItemS);
  EXPECT_EQ(p.stmts[3]->kind, Stmt::ExprS);
  EXPECT_FALSE(p.stmts[3]->semi);
  EXPECT_EQ(parse("m![A / 8 # 256]", true).stmts.size(), 1u);
}

// ------------------------------------------------------------------------------------ errors

TEST(ParserErrors, MessagesUseTheWordsOfTheLanguage) {
  struct Case { const char *src, *message; };
  const Case cases[] = {
      {"axes![A = 8];\ntype E = m![A]\nfn main() {}", "expected ';' after the type alias but found 'fn'"},
      {"fn main() { let s = \"abc;\n}", "unterminated string literal"},
      {"fn main() { }\n}", "unexpected '}'"},
      {"let x = 1;", "expected an item (fn, type, axes![...]) but found 'let'"},
      {"type E = m![A, B;", "unbalanced '['"},
      {"fn main() {\n  let x = 1\n  let y = 2;\n}", "expected ';' after the let statement but found 'let'"},
      {"fn main() { foo(1, 2]; }", "unbalanced '(': expected ')' but found ']'"},
      {"fn main() { let x = (1 + ; }", "expected an expression after '+' but found ';'"},
      {"fn main() { foo(a b); }", "expected ',' or ')' but found 'b'"},
      {"fn main() {\n  foo(a)\n  bar(b);\n}", "expected ';' after the expression but found 'bar'"},
      {"fn main() { x = 1 return x }", "expected ';' after the expression but found 'return'"},
      {"fn main() { let x = ~y; }", "unexpected character '~'"},
      {"fn main() { /* open", "unterminated block comment"},
      {"fn kernel(a: i32)\nfn main() {}", "expected '{' to begin the function body"},
      {"fn main() { let a = 1z; }", "invalid suffix 'z' for integer literal"},
  };
  for (const Case &c : cases) {
    Parsed p = parse(c.src);
    EXPECT_GT(p.errors, 0u) << c.src;
    EXPECT_NE(p.diags.find(c.message), std::string::npos) << c.src << "\n--- got:\n" << p.diags;
    EXPECT_EQ(p.diags.find("SEMI"), std::string::npos) << p.diags;
    EXPECT_EQ(p.diags.find("', '"), std::string::npos) << p.diags;  // no ANTLR token-set dumps
    EXPECT_EQ(p.diags.find("expecting"), std::string::npos) << p.diags;
    EXPECT_EQ(p.diags.find("mismatched input"), std::string::npos) << p.diags;
  }
}

TEST(ParserErrors, EveryErrorIsCollectedAndCapped) {
  Parsed p = parse("type A = m![A]\ntype B = m![B]\ntype C = m![C]\nfn main() {}");
  EXPECT_EQ(p.errors, 3u) << p.diags;
  std::string many;
  for (int i = 0; i < 500; ++i) many += "type T = ;\n";
  p = parse(many);
  EXPECT_GT(p.errors, 0u);
  EXPECT_LT(p.errors, 60u);
}

// ------------------------------------------------------------------------------------ robustness

TEST(ParserRobustness, DeepNestingIsRejectedWithADiagnostic) {
  Parsed p = parse("fn main() { let x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "; }");
  EXPECT_NE(p.diags.find("nesting deeper than 64"), std::string::npos) << p.diags.substr(0, 300);
  p = parse("type E = m![" + std::string(50000, '[') + "A" + std::string(50000, ']') + "];");
  EXPECT_NE(p.diags.find("nesting deeper than 64"), std::string::npos);
  p = parse("fn main() { let x = " + std::string(100000, '-') + "1; }");
  EXPECT_NE(p.diags.find("nesting deeper than"), std::string::npos) << p.diags.substr(0, 300);
  std::string generics = "type T = ";
  for (int i = 0; i < 20000; ++i) generics += "V<";
  p = parse(generics + "u8" + std::string(20000, '>') + ";");
  EXPECT_GT(p.errors, 0u);
  std::string chain = "fn main() { let x = a";
  for (int i = 0; i < 50000; ++i) chain += ".f()";
  p = parse(chain + "; }");
  EXPECT_GT(p.errors, 0u);
}

TEST(ParserRobustness, GarbageEndsInDiagnostics) {
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7919 + 13) % 256);
  Parsed p = parse(bytes);
  EXPECT_GT(p.errors, 0u);
  p = parse("fn main() { let x = \"\xff\xfe\"; }");
  EXPECT_NE(p.diags.find("invalid UTF-8 byte 0xFF"), std::string::npos) << p.diags;
  EXPECT_GT(parse("fn main() { let x = 'a").errors, 0u);
  EXPECT_GT(parse("m![").errors, 0u);
  EXPECT_GT(parse("#").errors, 0u);
  EXPECT_EQ(parse("").errors, 0u);
}

TEST(ParserRobustness, LargeFilesParse) {
  std::string text = "axes![A = 8, B = 512];\n";
  for (int k = 0; k < 20000; ++k) text += "type T" + std::to_string(k) + " = m![A, B / 64, B % 64];\n";
  Parsed p = parse(text);
  EXPECT_EQ(p.errors, 0u);
  EXPECT_EQ(p.program->items.size(), 20001u);
}

}  // namespace
