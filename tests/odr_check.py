#!/usr/bin/env python3
"""odr_check.py — no two classes of one name in one namespace (the One Definition Rule), run as CTest `odr`.

    python3 odr_check.py ROOT [DIR...]     (DIRs relative to ROOT; default: compiler interp tools tests)

Every library, tool and test links into programs together, so two files that each define a class
`tcp::Placement` (outside an anonymous namespace) make one program with two different classes of that
name. The linker keeps one copy of each inline member (a destructor, say) for both, and whichever it
keeps is wrong for the other: an optimized build usually inlines them and hides it, a -O0 build reads
past the smaller class (ASan found exactly that). The check reads the sources, not the objects: it
strips comments, strings and preprocessor lines, tracks the namespaces and braces, and records every
class, struct, union and enum defined at namespace scope outside an anonymous namespace. Two
definitions of one qualified name in different places fail the check. Template specializations
(`struct Tree<0, kB>`) and out-of-class definitions (`class A::B {`) are not new names.
"""
import os
import re
import sys

TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|::|[{}();:<>,=]|\S")


def strip(text):
    """Comments, string and character literals and preprocessor lines blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        if c == "R" and text.startswith('R"', i):  # raw string R"delim( ... )delim"
            k = text.find("(", i)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            j = n if j < 0 else j + len(delim) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == "'" and digit_separator(text, i):  # 200'000'000
            out.append(c)
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
            continue
        if not c.isspace():
            line_start = False
        elif c == "\n":
            line_start = True
        out.append(c)
        i += 1
    return "".join(out)


def digit_separator(text, i):
    """Whether the quote at i separates digits (1'000) rather than opening a literal (L'{', u8'x')."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_.'"):
        j -= 1
    return j < i and text[j].isdigit()


def definitions(path):
    """(qualified name, line) of every class-like definition at named-namespace scope in one file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip(f.read())
    tokens, line, at = [], 1, 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        tokens.append((m.group(0), line))
    found = []
    stack = []  # per open brace: the namespace names it opens ([""]: anonymous), or None (anything else)
    pending = []  # the names the next "{" opens
    i = 0
    while i < len(tokens):
        tok, line = tokens[i]
        if tok == "namespace":
            names, j = [], i + 1
            while j < len(tokens) and tokens[j][0] not in ("{", ";", "="):
                if tokens[j][0] not in ("::", "inline"):
                    names.append(tokens[j][0])
                j += 1
            if j < len(tokens) and tokens[j][0] == "{":
                pending = names or [""]
                i = j
                continue
            i = j + 1
            continue
        if tok in ("class", "struct", "union", "enum"):
            j = i + 1
            if tok == "enum" and j < len(tokens) and tokens[j][0] in ("class", "struct"):
                j += 1
            name = tokens[j][0] if j < len(tokens) else ""
            after = tokens[j + 1][0] if j + 1 < len(tokens) else ""
            k = j + 1
            while k < len(tokens) and tokens[k][0] in ("final", "alignas"):
                k += 1
            nxt = tokens[k][0] if k < len(tokens) else ""
            if nxt == ":" and after != "::":  # a base clause (or an enum's type): up to "{" or ";"
                while k < len(tokens) and tokens[k][0] not in ("{", ";"):
                    k += 1
                nxt = tokens[k][0] if k < len(tokens) else ""
            is_def = re.fullmatch(r"[A-Za-z_]\w*", name) and nxt == "{" and after not in ("<", "::")
            at_namespace_scope = all(s is not None and "" not in s for s in stack)  # only named namespaces around it
            if is_def and at_namespace_scope:
                found.append(("::".join([n for s in stack for n in s] + [name]), line))
            if nxt == "{" and is_def:
                i = k  # its "{" opens a class scope (None)
                continue
            i = j
            continue
        if tok == "{":
            stack.append(pending or None)  # "namespace a::b {" opens one brace for both names
            pending = []
        elif tok == "}":
            if stack:
                stack.pop()
        i += 1
    return found


def main():
    if len(sys.argv) < 2:
        print("usage: odr_check.py ROOT [DIR...]", file=sys.stderr)
        return 2
    root = sys.argv[1]
    dirs = sys.argv[2:] or ["compiler", "interp", "tools", "tests"]
    seen = {}  # qualified name -> [(path, line)]
    for d in dirs:
        for base, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs[:] = sorted(s for s in subdirs if s not in ("odr", "golden", "conformance"))
            for name in sorted(files):
                if name.endswith((".h", ".hpp", ".cpp", ".cc")):
                    path = os.path.join(base, name)
                    for qname, line in definitions(path):
                        seen.setdefault(qname, []).append((os.path.relpath(path, root), line))
    failures = 0
    for qname, places in sorted(seen.items()):
        if len(set(places)) > 1:
            failures += 1
            where = " and ".join(f"{p}:{l}" for p, l in sorted(set(places)))
            print(f"odr_check: `{qname}` is defined twice ({where}): one program would hold two different classes "
                  f"of one name; rename one or move it into an anonymous namespace")
    scanned = len(seen)
    if failures:
        print(f"odr_check: {failures} name(s) defined more than once")
        return 1
    print(f"odr_check: {scanned} class names, each defined once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
