// MappingPrint.cpp — m![...] spelling of mapping trees, parenthesized so the text parses back.
#include "Mapping.h"

#include <cassert>

namespace tcp {

namespace {

const char *opText(Mapping::Kind k) {
  switch (k) {
    case Mapping::Pad: return " # ";
    case Mapping::Resize: return " = ";
    case Mapping::Stride: return " / ";
    case Mapping::Modulo: return " % ";
    case Mapping::Offset: return " @ ";
    default: return "";
  }
}

[[maybe_unused]] bool isPostfix(Mapping::Kind k) {
  return k == Mapping::Pad || k == Mapping::Resize || k == Mapping::Stride || k == Mapping::Modulo ||
         k == Mapping::Offset;
}

std::string bodyOf(const Mapping &m);

// Operand of a postfix operator: chains of `/` `%` read left to right (`B / 32 % 2`), as do
// `= n # m` (`B / 32 = 2 # 16`) and `@ n = m`; anything else is parenthesized (`(D # 64) / 8`).
std::string operand(const Mapping &e, Mapping::Kind op) {
  switch (e.kind()) {
    case Mapping::Symbol:
    case Mapping::Identity:
    case Mapping::LinComb:
    case Mapping::Stride:
    case Mapping::Modulo:
      return bodyOf(e);
    case Mapping::Resize:
      if (op == Mapping::Pad) return bodyOf(e);
      break;
    case Mapping::Offset:
      if (op == Mapping::Resize) return bodyOf(e);
      break;
    case Mapping::Pair:
      return "[" + bodyOf(e) + "]";
    default:
      break;
  }
  return "(" + bodyOf(e) + ")";
}

// A member of a pair, concatenation or linear combination.
std::string member(const Mapping &e, bool inPair) {
  if (e.kind() == Mapping::Pair) return "[" + bodyOf(e) + "]";
  if (e.kind() == Mapping::Concat && inPair) return "(" + bodyOf(e) + ")";
  return bodyOf(e);
}

std::string bodyOf(const Mapping &m) {
  const auto &ch = m.children();
  switch (m.kind()) {
    case Mapping::Symbol:
      return m.axis();
    case Mapping::Identity:
      return "1";
    case Mapping::Pair:
      // Right-associative: the minor side flattens (`A, B, C`), a major pair keeps brackets.
      if (ch[1]->kind() == Mapping::Pair) return member(*ch[0], true) + ", " + bodyOf(*ch[1]);
      return member(*ch[0], true) + ", " + member(*ch[1], true);
    case Mapping::Dummy:
      return std::to_string(m.amount()) + (m.zero() ? "z" : "#");
    case Mapping::Concat: {
      std::string s;
      for (size_t i = 0; i < ch.size(); ++i) {
        if (i) s += " + ";
        s += ch[i]->kind() == Mapping::Concat ? "(" + bodyOf(*ch[i]) + ")" : member(*ch[i], false);
      }
      return s;
    }
    case Mapping::LinComb: {
      std::string s = "$(";
      for (size_t i = 0; i < ch.size(); ++i) {
        if (i) s += ", ";
        s += (ch[i]->kind() == Mapping::Concat ? "(" + bodyOf(*ch[i]) + ")" : member(*ch[i], false)) + ":" +
             std::to_string(m.strides()[i]);
      }
      return s + ")";
    }
    default:
      break;
  }
  assert(isPostfix(m.kind()));
  return operand(*ch[0], m.kind()) + opText(m.kind()) + std::to_string(m.amount());
}

}  // namespace

std::string Mapping::body() const { return bodyOf(*this); }
std::string Mapping::str() const { return "m![" + body() + "]"; }

}  // namespace tcp
