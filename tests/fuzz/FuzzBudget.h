// FuzzBudget.h — which inputs the text fuzz targets take past name resolution: those whose axes span few elements.
//
// Every later phase enumerates elements (coverage, DMA plans, masking, the DMA cost model, host
// placement, device runs), each under limits of 2^20–2^26 that are made for real kernels; under
// ASan and coverage tracing a realistic kernel then costs 0.1–30 s per input, and the fuzzer runs a
// few inputs a second. An input whose declared axes multiply to more than TCP_FUZZ_MAX_ELEMENTS
// (default 4096) is lexed, parsed and resolved (every parse and mapping rule) and stops there;
// the rest run every phase (tcpi_host_fuzz and repl_fuzz skip such inputs: tcpc_check_fuzz parses
// them). TCP_FUZZ_MAX_ELEMENTS=0 lifts the bound (every input, every phase).
#pragma once

#include "Driver.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>

namespace tcp::fuzz {

inline uint64_t maxElements() {
  static const uint64_t limit = [] {
    const char *env = std::getenv("TCP_FUZZ_MAX_ELEMENTS");
    return env && *env ? std::strtoull(env, nullptr, 10) : uint64_t(4096);
  }();
  return limit;
}

// The decimal number at text[k...] (k moves past its digits), saturating at UINT64_MAX.
inline uint64_t readDecimal(const std::string &text, size_t &k) {
  uint64_t v = 0;
  for (; k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])); ++k)
    v = v > UINT64_MAX / 10 - 9 ? UINT64_MAX : v * 10 + uint64_t(text[k] - '0');
  return v;
}

// volume * size, saturating; a size of 0 or 1 leaves the volume as it is (as resolution counts them).
inline uint64_t timesAxis(uint64_t volume, uint64_t size) {
  if (size <= 1) return volume;
  return volume > UINT64_MAX / size ? UINT64_MAX : volume * size;
}

// The product of every declared axis' size (saturating), after resolution has succeeded.
inline uint64_t axisVolume(const Symbols &symbols) {
  uint64_t volume = 1;
  for (const AxisInfo &a : symbols.axes.all()) {
    uint64_t size = a.size ? a.size : 1;
    if (volume > UINT64_MAX / size) return UINT64_MAX;
    volume *= size;
  }
  return volume;
}

// True when `comp` (resolved without errors) may go on to the typed phase and beyond.
inline bool withinBudget(const Compilation &comp) {
  uint64_t limit = maxElements();
  return limit == 0 || axisVolume(comp.symbols()) <= limit;
}

// `text` with the contents of line comments, string and character literals blanked; nullopt when it
// holds a form this does not follow (block comments, raw strings): only the parser can tell there.
inline std::optional<std::string> codeOnly(std::string text) {
  if (text.find("/*") != std::string::npos || text.find("r\"") != std::string::npos ||
      text.find("r#") != std::string::npos)
    return std::nullopt;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text.compare(k, 2, "//") == 0) {
      for (; k < text.size() && text[k] != '\n'; ++k) text[k] = ' ';
    } else if (text[k] == '"') {
      for (++k; k < text.size() && text[k] != '"'; ++k) {
        if (text[k] == '\\' && k + 1 < text.size()) text[k++] = ' ';
        text[k] = ' ';
      }
    } else if (text[k] == '\'' && k + 2 < text.size() && text[k + 2] == '\'') {
      text[k + 1] = ' ';  // 'x'
      k += 2;
    } else if (text[k] == '\'' && k + 3 < text.size() && text[k + 1] == '\\' && text[k + 3] == '\'') {
      text[k + 1] = text[k + 2] = ' ';  // '\x'
      k += 3;
    }
  }
  return text;
}

// The product of the declared axes read from the text alone (saturating), when every `axes![...]` of
// the code (codeOnly) is a plain list of `NAME = DIGITS`; nullopt when any holds another form (an
// expression, a map, a hex, suffixed or underscored literal) and only resolution can tell.
inline std::optional<uint64_t> literalAxisVolume(const std::string &source) {
  std::optional<std::string> code = codeOnly(source);
  if (!code) return std::nullopt;
  const std::string &text = *code;
  uint64_t volume = 1;
  auto space = [&](size_t &k) {
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
  };
  for (size_t at = text.find("axes!["); at != std::string::npos; at = text.find("axes![", at + 1)) {
    size_t k = at + 6;
    for (;;) {  // NAME = DIGITS (, NAME = DIGITS)* ,? ]
      space(k);
      if (k < text.size() && text[k] == ']') break;
      size_t name = k;
      while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_')) ++k;
      if (k == name) return std::nullopt;
      space(k);
      if (k >= text.size() || text[k] != '=') return std::nullopt;
      ++k;
      space(k);
      size_t digits = k;
      uint64_t v = readDecimal(text, k);
      if (k == digits || (k < text.size() && (std::isalpha(static_cast<unsigned char>(text[k])) || text[k] == '_')))
        return std::nullopt;
      volume = timesAxis(volume, v);
      space(k);
      if (k < text.size() && text[k] == ',') { ++k; continue; }
      if (k < text.size() && text[k] == ']') break;
      return std::nullopt;
    }
  }
  return volume;
}

// For targets that do not drive a Compilation themselves (tcpi): true when `text` stays within the
// budget, or fails to parse or resolve (the target reports it). Plain `axes![NAME = DIGITS, ...]`
// lists are read from the text (literalAxisVolume): the target's own parse is then the only one (500
// corpus inputs: 70 s → 29 s); an input beyond the budget whose parse would fail is then skipped
// (tcpc_check_fuzz parses it). Any other form is parsed and resolved here.
inline bool textWithinBudget(const std::string &text) {
  if (maxElements() == 0) return true;
  if (std::optional<uint64_t> volume = literalAxisVolume(text)) return *volume <= maxElements();
  std::string sink;
  llvm::raw_string_ostream diags(sink);
  Compilation comp(diags);
  if (!comp.loadText(text, "fuzz.tcp") || !comp.run(Phase::Resolved, nullptr)) return true;
  return withinBudget(comp);
}

// For the REPL, whose session is not one program: the volume of its `axes![...]` lists read from the
// text (literalAxisVolume) where they are plain; otherwise an estimate, the product of the integers
// written after each `=` inside every `axes![...]` (its brackets nested: an `m![...]` inside does not
// end it).
inline bool sessionWithinBudget(const std::string &text) {
  uint64_t limit = maxElements(), volume = 1;
  if (limit == 0) return true;
  if (std::optional<uint64_t> literal = literalAxisVolume(text)) return *literal <= limit;
  for (size_t at = text.find("axes!["); at != std::string::npos; at = text.find("axes![", at + 1)) {
    int depth = 0;
    for (size_t k = at + 5; k < text.size(); ++k) {
      if (text[k] == '[') ++depth;
      else if (text[k] == ']' && --depth == 0) break;
      else if (text[k] == '=') {
        size_t d = k + 1;
        while (d < text.size() && text[d] == ' ') ++d;
        volume = timesAxis(volume, readDecimal(text, d));
        if (volume > limit) return false;
      }
    }
  }
  return volume <= limit;
}

}  // namespace tcp::fuzz
