// Tcp.g4 — lexer and parser grammar of the .tcp text language (the TCP Virtual ISA, Rust surface syntax).
//
// Design notes
// - `>` is always lexed singly so nested generics close one level per token; the expression rules
//   recognise `>>`, `>=` and `>>=` from adjacent tokens (the `adjacent()` predicate).
// - `m![`, `i![` and `axes![` are single tokens that open the mapping, index and axis sublanguages.
// - `B'` (identifier + prime) is a primed axis, `'l` a lifetime and `'a'` a char literal; longest
//   match keeps them apart.
// - No struct literal directly in `if`/`while`/`for`/`match` heads (`structAllowed()`).
// - Library documentation (impl/struct/enum/trait/macro_rules!/mod) is parsed by header and skipped
//   as balanced token trees; blocks may end at end of file by matching EOF (the builder decides
//   whether that is an error or a renderer-truncated library excerpt). Matching EOF, rather than an
//   empty alternative, keeps the follow sets small so errors are found where they happen.
grammar Tcp;

@parser::header {
#include <string>
}

@parser::members {
  // True when the previous token ends exactly where the next one starts (`>>`, `>=`, `>>=`).
  bool adjacent() {
    antlr4::Token *prev = _input->LT(-1);
    antlr4::Token *next = _input->LT(1);
    return prev && next && prev->getStopIndex() + 1 == next->getStartIndex();
  }
  // Rust's rule: no struct literal in the head of if/while/for/match unless parenthesised.
  bool structAllowed() {
    for (antlr4::tree::ParseTree *t = _ctx; t; t = t->parent) {
      auto *c = dynamic_cast<antlr4::RuleContext *>(t);
      if (!c) break;
      size_t r = c->getRuleIndex();
      if (r == RuleCondExpr) return false;
      if (r == RuleParenLike || r == RuleBlock || r == RuleCallArgs || r == RuleMacroArgs ||
          r == RuleStructLitBody || r == RuleMatchArms)
        return true;
    }
    return true;
  }
}

// =====================================================================================  files
program : innerAttr* item* EOF ;

// REPL input: items and statements, the last expression statement may omit its ';'.
replInput : innerAttr* stmt* tailExpr? EOF ;

// =====================================================================================  attributes
innerAttr : POUND BANG LBRACK attrBody RBRACK ;
outerAttr : POUND LBRACK attrBody RBRACK ;
attrBody  : simplePath attrInput? ;
attrInput : attrArgs | delimTokenTree | EQ expr ;
attrArgs  : LPAREN (attrArg (COMMA attrArg)* COMMA?)? RPAREN ;
attrArg   : pathIdent EQ expr | expr ;

// =====================================================================================  items
item
  : outerAttr* visibility? itemKind   # regularItem
  | outerAttr* macroItem               # macroInvocationItem
  ;

visibility : PUB (LPAREN (CRATE | SELF | SUPER | IN simplePath) RPAREN)? ;

itemKind
  : axesItem
  | typeAlias
  | fnItem
  | useItem
  | externCrate
  | constItem
  | staticItem
  | implItem
  | headerlessImpl
  | structItem
  | enumItem
  | traitItem
  | macroRulesItem
  | modItem
  ;

axesItem  : AXES_OPEN axisDecl (COMMA axisDecl)* COMMA? RBRACK SEMI ;
// `B' = # 2 + B + # 4` (a padded axis) parses as a concatenation; a plain size stays an `expr`.
axisDecl : axisName EQ (axisName MINUS axisName | expr | mapConcat) ;
axisName : IDENT | PRIMED_IDENT ;

typeAlias : TYPE IDENT genericParams? (COLON typeBounds)? whereClause? (EQ type_)? SEMI ;

fnItem
  : fnQualifiers FN pathIdent genericParams? LPAREN fnParams? RPAREN (RARROW type_)? whereClause? fnBody ;
fnQualifiers : CONST? ASYNC? UNSAFE? (EXTERN STRING_LIT?)? ;
// A `pub fn` excerpt whose body the renderer hid gets a zero-width `;` from the token preparation
// (TokenPrep.h), so no empty alternative is needed here.
fnBody : block | SEMI ;
fnParams : fnParam (COMMA fnParam)* COMMA? ;
fnParam
  : outerAttr* selfParam        # selfFnParam
  | outerAttr* pattern COLON type_ # typedFnParam
  | outerAttr* type_            # anonFnParam
  ;
selfParam : (AND LIFETIME? MUT? | MUT)? SELF (COLON type_)? ;

useItem : USE useTree SEMI ;
useTree
  : (simplePath? PATHSEP)? (STAR | LBRACE (useTree (COMMA useTree)* COMMA?)? RBRACE)
  | simplePath (AS (IDENT | UNDERSCORE))?
  ;

externCrate : EXTERN CRATE (IDENT | SELF) (AS (IDENT | UNDERSCORE))? SEMI ;
constItem   : CONST (IDENT | UNDERSCORE) COLON type_ (EQ expr)? SEMI ;
staticItem  : STATIC MUT? IDENT COLON type_ (EQ expr)? SEMI ;

// ---- library documentation: parsed by header, body skipped as balanced tokens
implItem : UNSAFE? IMPL genericParams? BANG? type_ (FOR type_)? whereClause? skipBody ;
// A generic type path directly followed by a braced body is an impl block whose `impl` header line
// the renderer dropped (`StreamTensor<'l, { T }, P, D> { ...methods... }`).
headerlessImpl : typePathWithGenerics whereClause? skipBody ;
typePathWithGenerics : PATHSEP? pathIdent (PATHSEP pathIdent)* genericArgs ;
structItem : STRUCT IDENT genericParams? (LPAREN tokenTree* RPAREN)? whereClause? (SEMI | skipBody) ;
enumItem   : ENUM IDENT genericParams? whereClause? skipBody ;
traitItem  : UNSAFE? TRAIT IDENT genericParams? (COLON typeBounds)? whereClause? skipBody ;
macroRulesItem : {_input->LT(1)->getText() == "macro_rules"}? IDENT BANG IDENT delimTokenTree SEMI? ;
modItem    : MOD IDENT (SEMI | skipBody) ;
// `foo! { ... }` or `foo!(...);` in item position
macroItem  : simplePath BANG (LBRACE tokenTree* RBRACE | (LPAREN tokenTree* RPAREN | LBRACK tokenTree* RBRACK) SEMI) ;

skipBody : LBRACE skipTree* (RBRACE | EOF) ;
// Like tokenTree, but a renderer-truncated excerpt may end inside any bracket.
skipTree
  : LPAREN skipTree* (RPAREN | EOF)
  | (LBRACK | MAP_OPEN | INDEX_OPEN | AXES_OPEN) skipTree* (RBRACK | EOF)
  | LBRACE skipTree* (RBRACE | EOF)
  | ~(LPAREN | RPAREN | LBRACK | RBRACK | LBRACE | RBRACE | MAP_OPEN | INDEX_OPEN | AXES_OPEN)
  ;
delimTokenTree
  : LPAREN tokenTree* RPAREN
  | LBRACK tokenTree* RBRACK
  | LBRACE tokenTree* RBRACE
  | MAP_OPEN tokenTree* RBRACK
  | INDEX_OPEN tokenTree* RBRACK
  | AXES_OPEN tokenTree* RBRACK
  ;
tokenTree
  : delimTokenTree
  | ~(LPAREN | RPAREN | LBRACK | RBRACK | LBRACE | RBRACE | MAP_OPEN | INDEX_OPEN | AXES_OPEN)
  ;

// ---- generics
genericParams : LT (genericParam (COMMA genericParam)* COMMA?)? GT ;
genericParam
  : outerAttr* LIFETIME (COLON lifetimeBounds)?                     # lifetimeParam
  | outerAttr* CONST IDENT COLON type_ (EQ genericArg)?             # constParam
  | outerAttr* IDENT (COLON typeBounds?)? (EQ type_)?               # typeParam
  ;
lifetimeBounds : LIFETIME (PLUS LIFETIME)* PLUS? ;
whereClause : WHERE (wherePredicate (COMMA wherePredicate)* COMMA?)? ;
wherePredicate
  : LIFETIME COLON lifetimeBounds
  | forLifetimes? type_ COLON typeBounds?
  ;
forLifetimes : FOR LT (LIFETIME (COMMA LIFETIME)* COMMA?)? GT ;
typeBounds : typeBound (PLUS typeBound)* PLUS? ;
typeBound
  : LIFETIME
  | QUESTION? forLifetimes? typePath
  | LPAREN QUESTION? forLifetimes? typePath RPAREN
  ;

// =====================================================================================  types
type_
  : typePath                                               # pathType
  | qualifiedPath                                          # qualifiedPathType
  | AND LIFETIME? MUT? type_                               # refType
  | ANDAND LIFETIME? MUT? type_                            # refRefType
  | STAR (CONST | MUT) type_                               # ptrType
  | LPAREN RPAREN                                          # unitType
  | LPAREN type_ RPAREN                                    # parenType
  | LPAREN type_ COMMA (type_ (COMMA type_)* COMMA?)? RPAREN # tupleType
  | LBRACK type_ SEMI expr RBRACK                          # arrayType
  | LBRACK type_ RBRACK                                    # sliceType
  | MAP_OPEN mapExpr RBRACK                                # mappingType
  | UNDERSCORE                                             # inferType
  | BANG                                                   # neverType
  | IMPL typeBounds                                        # implTraitType
  | DYN typeBounds                                         # dynTraitType
  | UNSAFE? (EXTERN STRING_LIT?)? FN LPAREN (type_ (COMMA type_)* COMMA?)? RPAREN (RARROW type_)? # fnPtrType
  ;
// The target of `as`. It never ends in type_, so the `<` that may follow a cast (`x as u8 < y`)
// stays out of type_'s follow set; otherwise ANTLR's SLL prediction would read every generic type as a
// possible comparison chain and scan to the end of the input at each `<`.
castType
  : PATHSEP? castSegment (PATHSEP castSegment)*            # pathCastType
  | AND MUT? castType                                      # refCastType
  | STAR (CONST | MUT) castType                            # ptrCastType
  | LPAREN (type_ (COMMA type_)* COMMA?)? RPAREN           # tupleCastType
  | MAP_OPEN mapExpr RBRACK                                # mappingCastType
  | UNDERSCORE                                             # inferCastType
  ;
castSegment : pathIdent genericArgs? ;

typePath : PATHSEP? typePathSegment (PATHSEP typePathSegment)* ;
typePathSegment
  : pathIdent (PATHSEP? genericArgs)?
  | pathIdent LPAREN (type_ (COMMA type_)* COMMA?)? RPAREN (RARROW type_)?   // Fn(A) -> B sugar
  ;
qualifiedPath : LT type_ (AS typePath)? GT (PATHSEP pathExprSegment)+ ;
genericArgs : LT (genericArg (COMMA genericArg)* COMMA?)? GT ;
genericArg
  : LIFETIME                        # lifetimeArg
  | IDENT EQ type_                  # bindingArg
  | type_                           # typeArg
  | block                           # blockConstArg
  | MINUS? literal                  # literalConstArg
  ;
pathIdent : IDENT | SELF | SELF_TYPE | SUPER | CRATE ;
simplePath : PATHSEP? pathIdent (PATHSEP pathIdent)* ;

// =====================================================================================  mappings
// Precedence: postfix operators (/ % # = @, left-assoc) > outer sum `*` > concatenation `+` > pair `,` (n-ary).
mapExpr    : mapConcat (COMMA mapConcat)* COMMA? ;
mapConcat  : mapOuter (PLUS mapOuter)* ;
mapOuter   : mapPostfix (STAR mapPostfix)* ;
mapPostfix : mapAtom mapSuffix* ;
mapSuffix  : op=(SLASH | PERCENT | POUND | EQ | AT) mapSize? ;
mapAtom
  : IDENT                                                   # mapSymbol
  | PRIMED_IDENT                                            # mapSymbol
  | INT_LIT                                                 # mapLiteral
  | POUND mapSize                                           # mapDummy
  | LBRACE typePath RBRACE                                  # mapEscape
  | LBRACK mapExpr RBRACK                                   # mapGroup
  | LPAREN mapExpr RPAREN                                   # mapParen
  | DOLLAR LPAREN linTerm ((COMMA | PLUS) linTerm)* COMMA? RPAREN  # mapLinComb
  ;
// `e:n` is term e with stride n; suffixes after the stride apply to the term (`W:2=15`).
linTerm : mapPostfix (COLON mapSize mapSuffix*)? ;
mapSize
  : INT_LIT                 # sizeLiteral
  | pathExpr                # sizePath
  | qualifiedPath           # sizeQualified
  | LPAREN expr RPAREN      # sizeParen
  | LBRACE expr RBRACE      # sizeBlock
  ;

// index literal `i![A: 2, B / 64: i]`
indexEntry : mapConcat COLON expr ;

// =====================================================================================  statements
// Rust's rule: an expression statement ends in ';' unless it ends in a block (if/match/loop/...,
// a brace-delimited macro call); only the final expression of a block may omit it. Keeping
// expression starts out of the follow set of `expr` keeps SLL prediction short (statements that
// could run together made most expression decisions look to the end of the statement).
block : LBRACE innerAttr* stmt* tailExpr? (RBRACE | EOF) ;

// FastPrediction.cpp relies on: only `let` and expression statements end in ';', the expression
// statement is the last alternative, and a path starts no other statement unless `!` or `<` follows.
stmt
  : SEMI                                                     # emptyStmt
  | outerAttr* visibility? itemKind                          # itemStmt
  | outerAttr* LET pattern (COLON type_)? (EQ expr (ELSE block)?)? SEMI  # letStmt
  | outerAttr* blockLikeExpr SEMI?                           # blockLikeStmt
  | outerAttr* simplePath BANG braceMacroArgs SEMI?          # braceMacroStmt
  | outerAttr* expr SEMI                                     # exprStmt
  ;
// The block's value: its final expression, without ';'.
tailExpr : outerAttr* expr ;

// =====================================================================================  expressions
// Alternatives from tightest to loosest binding (Rust precedence).
expr
  : primary                                                  # primaryExpr
  | expr DOT AWAIT                                           # awaitExpr
  | expr DOT pathIdent (PATHSEP genericArgs)? LPAREN callArgs? RPAREN # methodCallExpr
  | expr DOT (IDENT | INT_LIT | FLOAT_LIT)                   # fieldExpr   // `t.0.1` lexes 0.1 as a float
  | expr LPAREN callArgs? RPAREN                             # callExpr
  | expr LBRACK expr RBRACK                                  # indexExpr
  | expr QUESTION                                            # tryExpr
  | op=(MINUS | STAR | BANG) expr                            # unaryExpr
  | (AND | ANDAND) MUT? expr                                 # refExpr
  | expr AS castType                                         # castExpr
  | expr op=(STAR | SLASH | PERCENT) expr                    # mulExpr
  | expr op=(PLUS | MINUS) expr                              # addExpr
  | expr shiftOp expr                                        # shiftExpr
  | expr AND expr                                            # bitAndExpr
  | expr CARET expr                                          # bitXorExpr
  | expr OR expr                                             # bitOrExpr
  | expr compareOp expr                                      # compareExpr
  | expr ANDAND expr                                         # andExpr
  | expr OROR expr                                           # orExpr
  | expr op=(DOTDOT | DOTDOTEQ) expr                         # rangeExpr
  | expr DOTDOT                                              # rangeFromExpr
  | op=(DOTDOT | DOTDOTEQ) expr                              # rangeToExpr
  | DOTDOT                                                   # rangeFullExpr
  | <assoc=right> expr assignOp expr                         # assignExpr
  | closureHead closureParams RARROW type_ block            # typedClosureExpr
  | closureHead closureParams expr                          # closureExpr
  | RETURN expr?                                             # returnExpr
  | BREAK LIFETIME? expr?                                    # breakExpr
  | CONTINUE LIFETIME?                                       # continueExpr
  ;

shiftOp   : SHL | GT {adjacent()}? GT ;
compareOp : EQEQ | NE | LT | LE | GT {adjacent()}? EQ | GT ;
assignOp
  : EQ | PLUSEQ | MINUSEQ | STAREQ | SLASHEQ | PERCENTEQ | CARETEQ | ANDEQ | OREQ | SHLEQ
  | GT {adjacent()}? GT {adjacent()}? EQ
  ;

closureHead   : (ASYNC MOVE? | MOVE ASYNC?)? ;
closureParams : OROR | OR (closureParam (COMMA closureParam)* COMMA?)? OR ;
closureParam  : outerAttr* patternNoTop (COLON type_)? ;

callArgs : expr (COMMA expr)* COMMA? ;

// Ambiguities resolve to the earlier alternative: `name!(...)` is a macro call, not `name` then `!(...)`.
// (FastPrediction.cpp: an identifier starts a macro call, a struct literal or a path, in this order.)
primary
  : literal                                                  # literalPrimary
  | MAP_OPEN mapExpr RBRACK                                  # mapMacroPrimary
  | INDEX_OPEN (indexEntry (COMMA indexEntry)* COMMA?)? RBRACK # indexMacroPrimary
  | simplePath BANG macroArgs                                # macroPrimary
  | {structAllowed()}? pathExpr structLitBody                # structLitPrimary
  | pathExpr                                                 # pathPrimary
  | qualifiedPath                                            # qualifiedPathPrimary
  | parenLike                                                # parenPrimary
  | LBRACK expr SEMI expr RBRACK                             # repeatPrimary
  | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK               # arrayPrimary
  | blockLikeExpr                                            # blockLikePrimary
  ;

parenLike : LPAREN (expr (COMMA expr)* COMMA?)? RPAREN ;

structLitBody : LBRACE (structField (COMMA structField)* COMMA?)? (DOTDOT expr)? RBRACE ;
structField   : outerAttr* (IDENT | INT_LIT) COLON expr | outerAttr* IDENT ;

// Macro arguments: a comma list of expressions when they parse as such, else raw tokens (the last
// alternative: FastPrediction.cpp takes the expression form first).
macroArgs
  : LPAREN (expr (COMMA expr)* COMMA?)? RPAREN               # exprMacroArgs
  | LBRACK expr SEMI expr RBRACK                             # repeatMacroArgs
  | LBRACK (expr (COMMA expr)* COMMA?)? RBRACK               # exprMacroArgs
  | LBRACE (expr (COMMA expr)* COMMA?)? RBRACE               # exprMacroArgs
  | delimTokenTree                                           # rawMacroArgs
  ;
// `name! { ... }` as a statement (no ';' needed).
braceMacroArgs
  : LBRACE (expr (COMMA expr)* COMMA?)? RBRACE               # exprBraceMacroArgs
  | LBRACE tokenTree* RBRACE                                 # rawBraceMacroArgs
  ;

pathExpr : PATHSEP? pathExprSegment (PATHSEP pathExprSegment)* ;
pathExprSegment : pathIdent (PATHSEP genericArgs)? ;

// Expressions that end in a block; as statements they need no ';'.
blockLikeExpr
  : block                                                    # blockExpr
  | UNSAFE block                                             # unsafeBlockExpr
  | ASYNC MOVE? block                                        # asyncBlockExpr
  | CONST block                                              # constBlockExpr
  | ifExpr                                                   # ifLikeExpr
  | label? LOOP block                                        # loopExpr
  | label? WHILE condExpr block                              # whileExpr
  | label? FOR pattern IN condExpr block                     # forExpr
  | MATCH condExpr matchArms                                 # matchExpr
  ;
label : LIFETIME COLON ;
ifExpr : IF condExpr block (ELSE (block | ifExpr))? ;
condExpr : LET pattern EQ expr | expr ;
matchArms : LBRACE innerAttr* matchArm* RBRACE ;
matchArm : outerAttr* pattern (IF expr)? FATARROW expr COMMA? ;

literal
  : INT_LIT | FLOAT_LIT | STRING_LIT | RAW_STRING_LIT | BYTE_STRING_LIT | CHAR_LIT | BYTE_LIT
  | TRUE | FALSE
  ;

// =====================================================================================  patterns
pattern : OR? patternNoTop (OR patternNoTop)* ;
patternNoTop
  : patternRangeEnd (DOTDOTEQ | DOTDOTDOT) patternRangeEnd     # rangePattern
  | MINUS? literal                                            # literalPattern
  | UNDERSCORE                                                # wildcardPattern
  | DOTDOT                                                    # restPattern
  | (AND | ANDAND) MUT? patternNoTop                          # refPattern
  | LPAREN (pattern (COMMA pattern)* COMMA?)? RPAREN          # tuplePattern
  | LBRACK (pattern (COMMA pattern)* COMMA?)? RBRACK          # slicePattern
  | pathExpr LPAREN (pattern (COMMA pattern)* COMMA?)? RPAREN # tupleStructPattern
  | pathExpr LBRACE (fieldPattern (COMMA fieldPattern)* COMMA?)? DOTDOT? RBRACE # structPattern
  | REF? MUT? IDENT (AT patternNoTop)?                        # identPattern
  | pathExpr                                                  # pathPattern
  | qualifiedPath                                             # qualifiedPathPattern
  ;
patternRangeEnd : MINUS? literal | pathExpr ;
fieldPattern : IDENT COLON pattern | REF? MUT? IDENT ;

// =====================================================================================  lexer
// keywords
AS : 'as' ; ASYNC : 'async' ; AWAIT : 'await' ; BREAK : 'break' ; CONST : 'const' ;
CONTINUE : 'continue' ; CRATE : 'crate' ; DYN : 'dyn' ; ELSE : 'else' ; ENUM : 'enum' ;
EXTERN : 'extern' ; FALSE : 'false' ; FN : 'fn' ; FOR : 'for' ; IF : 'if' ; IMPL : 'impl' ;
IN : 'in' ; LET : 'let' ; LOOP : 'loop' ; MATCH : 'match' ; MOD : 'mod' ; MOVE : 'move' ;
MUT : 'mut' ; PUB : 'pub' ; REF : 'ref' ; RETURN : 'return' ; SELF : 'self' ; SELF_TYPE : 'Self' ;
STATIC : 'static' ; STRUCT : 'struct' ; SUPER : 'super' ; TRAIT : 'trait' ; TRUE : 'true' ;
TYPE : 'type' ; UNSAFE : 'unsafe' ; USE : 'use' ; WHERE : 'where' ;
WHILE : 'while' ;

// sublanguage openers
MAP_OPEN   : 'm![' ;
INDEX_OPEN : 'i![' ;
AXES_OPEN  : 'axes![' ;

// literals
FLOAT_LIT
  : DEC_DIGITS '.' DEC_DIGITS EXPONENT? SUFFIX?
  | DEC_DIGITS EXPONENT SUFFIX?
  ;
INT_LIT
  : DEC_DIGITS SUFFIX?
  | '0x' [0-9a-fA-F_]+ SUFFIX?
  | '0o' [0-7_]+ SUFFIX?
  | '0b' [01_]+ SUFFIX?
  ;
fragment DEC_DIGITS : [0-9] [0-9_]* ;
fragment EXPONENT   : [eE] [+-]? [0-9_]* [0-9] [0-9_]* ;
fragment SUFFIX     : [a-zA-Z_] [a-zA-Z0-9_]* ;

STRING_LIT      : '"' (~["\\] | ESCAPE)* '"' ;
RAW_STRING_LIT  : 'r' RAW_BODY | 'br' RAW_BODY ;
fragment RAW_BODY : '"' .*? '"' | '#' RAW_BODY '#' ;
BYTE_STRING_LIT : 'b"' (~["\\] | ESCAPE)* '"' ;
CHAR_LIT        : '\'' (~['\\\r\n] | ESCAPE) '\'' ;
BYTE_LIT        : 'b\'' (~['\\\r\n] | ESCAPE) '\'' ;
fragment ESCAPE : '\\' . | '\\x' [0-9a-fA-F] [0-9a-fA-F] | '\\u{' [0-9a-fA-F_]+ '}' ;
UNTERMINATED_STRING : '"' (~["\\] | '\\' .)* EOF ;
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF ;

LIFETIME     : '\'' IDENT_FRAG ;
PRIMED_IDENT : IDENT_FRAG '\''+ ;
UNDERSCORE   : '_' ;
IDENT        : IDENT_FRAG ;
fragment IDENT_FRAG : [a-zA-Z_] [a-zA-Z0-9_]* ;

// punctuation (`>` stays single: see the grammar notes)
PATHSEP : '::' ; SEMI : ';' ; COMMA : ',' ; COLON : ':' ; DOTDOTDOT : '...' ; DOTDOTEQ : '..=' ;
DOTDOT : '..' ; DOT : '.' ; RARROW : '->' ; FATARROW : '=>' ; POUND : '#' ; DOLLAR : '$' ;
QUESTION : '?' ; AT : '@' ; LPAREN : '(' ; RPAREN : ')' ; LBRACK : '[' ; RBRACK : ']' ;
LBRACE : '{' ; RBRACE : '}' ;
EQEQ : '==' ; NE : '!=' ; LE : '<=' ; SHLEQ : '<<=' ; SHL : '<<' ; LT : '<' ; GT : '>' ;
PLUSEQ : '+=' ; MINUSEQ : '-=' ; STAREQ : '*=' ; SLASHEQ : '/=' ; PERCENTEQ : '%=' ;
CARETEQ : '^=' ; ANDEQ : '&=' ; OREQ : '|=' ; ANDAND : '&&' ; OROR : '||' ;
EQ : '=' ; PLUS : '+' ; MINUS : '-' ; STAR : '*' ; SLASH : '/' ; PERCENT : '%' ; CARET : '^' ;
BANG : '!' ; AND : '&' ; OR : '|' ;

// trivia
BLOCK_COMMENT : '/*' (BLOCK_COMMENT | .)*? '*/' -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
WS            : [ \t\r\n\f\u000B\u00A0\uFEFF]+ -> skip ;
