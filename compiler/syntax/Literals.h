// Literals.h — decoding of integer, float, string and char literal spellings (digits, suffixes, escapes).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>

namespace tcp {

struct IntLiteral {
  std::string digits;  // spelling without the suffix ("0x1000", "1_000")
  std::string suffix;  // "i32", "z", "" ...
  uint64_t value = 0;  // saturated at UINT64_MAX on overflow
  bool overflow = false;
  bool valid = true;   // false when a radix prefix has no digits ("0x")
};

struct FloatLiteral {
  std::string digits;  // spelling without the suffix
  std::string suffix;  // "f32", "f64", ""
  double value = 0;
};

// Splits and evaluates an INT_LIT token: decimal, 0x, 0o, 0b, `_` separators, optional suffix.
IntLiteral decodeInt(llvm::StringRef text);
// Splits and evaluates a FLOAT_LIT token (also a decimal INT_LIT with an f32/f64 suffix).
FloatLiteral decodeFloat(llvm::StringRef text);

// Known literal suffixes.
bool isIntSuffix(llvm::StringRef s);    // i8..i128, isize, u8..u128, usize
bool isFloatSuffix(llvm::StringRef s);  // f32, f64

// Decodes the escapes of a string or char literal body (without quotes). On a bad escape returns
// false with `error` set and `errorOffset` at the backslash.
bool unescape(llvm::StringRef body, std::string &out, std::string &error, size_t &errorOffset);

}  // namespace tcp
