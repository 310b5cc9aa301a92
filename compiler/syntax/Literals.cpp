// Literals.cpp — literal decoding without undefined behaviour: overflow saturates and is flagged.
#include "Literals.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

#include <cstdlib>

namespace tcp {

namespace {

int digitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

bool isIntSuffix(llvm::StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases("i8", "i16", "i32", "i64", "i128", "isize", true)
      .Cases("u8", "u16", "u32", "u64", "u128", "usize", true)
      .Default(false);
}

bool isFloatSuffix(llvm::StringRef s) { return s == "f32" || s == "f64"; }

IntLiteral decodeInt(llvm::StringRef text) {
  IntLiteral lit;
  unsigned radix = 10;
  size_t pos = 0;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o' || text[1] == 'b')) {
    radix = text[1] == 'x' ? 16 : text[1] == 'o' ? 8 : 2;
    pos = 2;
  }
  size_t digitsEnd = pos;
  bool any = false;
  while (digitsEnd < text.size()) {
    char c = text[digitsEnd];
    if (c == '_') {
      ++digitsEnd;
      continue;
    }
    int d = digitValue(c);
    if (d >= static_cast<int>(radix)) break;
    any = true;
    if (!lit.overflow) {
      if (lit.value > (UINT64_MAX - d) / radix) {
        lit.overflow = true;
        lit.value = UINT64_MAX;
      } else {
        lit.value = lit.value * radix + d;
      }
    }
    ++digitsEnd;
  }
  lit.valid = any;
  lit.digits = text.substr(0, digitsEnd).str();
  lit.suffix = text.substr(digitsEnd).str();
  return lit;
}

FloatLiteral decodeFloat(llvm::StringRef text) {
  FloatLiteral lit;
  size_t i = 0;
  auto digits = [&] {
    while (i < text.size() && (llvm::isDigit(text[i]) || text[i] == '_')) ++i;
  };
  digits();
  if (i + 1 < text.size() && text[i] == '.' && llvm::isDigit(text[i + 1])) {
    ++i;
    digits();
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t save = i++;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t expStart = i;
    digits();
    if (i == expStart) i = save;  // not an exponent after all: part of the suffix
  }
  lit.digits = text.substr(0, i).str();
  lit.suffix = text.substr(i).str();
  std::string clean;
  for (char c : lit.digits)
    if (c != '_') clean += c;
  // strtod is locale dependent only for the decimal point, which is '.' in the "C" locale we run in.
  lit.value = std::strtod(clean.c_str(), nullptr);
  return lit;
}

bool unescape(llvm::StringRef body, std::string &out, std::string &error, size_t &errorOffset) {
  out.clear();
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    errorOffset = i;
    if (i + 1 >= body.size()) {
      error = "a string cannot end with a lone '\\'";
      return false;
    }
    char e = body[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case '0': out += '\0'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '\n':  // line continuation: skip the newline and leading whitespace
        while (i + 1 < body.size() && (body[i + 1] == ' ' || body[i + 1] == '\t' || body[i + 1] == '\n' ||
                                       body[i + 1] == '\r'))
          ++i;
        break;
      case 'x': {
        if (i + 2 >= body.size() || digitValue(body[i + 1]) > 7 || digitValue(body[i + 2]) > 15) {
          error = "'\\x' needs two hex digits with a value up to 0x7f";
          return false;
        }
        out += static_cast<char>(digitValue(body[i + 1]) * 16 + digitValue(body[i + 2]));
        i += 2;
        break;
      }
      case 'u': {
        if (i + 1 >= body.size() || body[i + 1] != '{') {
          error = "'\\u' must be written '\\u{XXXX}'";
          return false;
        }
        size_t j = i + 2;
        uint32_t cp = 0;
        unsigned n = 0;
        while (j < body.size() && body[j] != '}') {
          if (body[j] != '_') {
            int d = digitValue(body[j]);
            if (d > 15 || ++n > 6) {
              error = "'\\u{...}' needs one to six hex digits";
              return false;
            }
            cp = cp * 16 + d;
          }
          ++j;
        }
        if (j >= body.size() || n == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          error = "'\\u{...}' is not a valid unicode scalar value";
          return false;
        }
        appendUtf8(out, cp);
        i = j;
        break;
      }
      default:
        error = std::string("unknown escape '\\") + e + "'";
        return false;
    }
  }
  return true;
}

}  // namespace tcp
