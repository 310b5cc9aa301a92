#!/usr/bin/env python3
"""extract_manual_listings.py — pulls every Rust code listing out of the flattened TCP manual.

The manual is a text dump of an mdBook: code blocks lost their fences, so listings are found by
heuristics.

- A listing starts at a line that can only begin Rust code: an inner attribute `#![...]`, an outer
  attribute `#[...]`, `// Trait implementation`, a `///` doc comment followed by such a line, or an
  item keyword (`impl`, `fn`, `struct`, `use`, `extern crate`, ...).
- It extends while brackets are open (strings, chars and comments are skipped when counting) and,
  once every bracket is closed, while the next line still looks like an item or the current line
  cannot end one (a signature running into `where`). The renderer's wrapper ends the listing when
  its `fn main() {` closes; a fresh `#![allow(unused)]` or `// Trait implementation` at depth 0
  always starts a new listing (mdBook renders one code block per such header).
- A line of prose ends a listing even inside open brackets: some interface excerpts in the manual
  are cut off (`pub fn f(...) -> T {` and then prose), and are kept as they are.
- Non-Rust blocks are skipped: mermaid `flowchart`s, shell `cargo ...`, TOML, sequencer
  configurations such as `[A = 8 : 512] : 8`, tables, and the pseudo-code blocks the manual does not
  render as Rust (top-level `axes![...]; // dtype = ...` operation arguments, top-level
  `let x: T = ...;` statements).

Each listing is written to OUT/NNN_<slug>.tcp with a first line `// manual line N`. The output is
deterministic; stale .tcp files in OUT are removed first.

usage: extract_manual_listings.py [MANUAL] [OUT_DIR]
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANUAL = "/work/shared/seeds/tcp-virtual-isa-manual.txt"
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "conformance", "manual")

# Lines that can only start Rust code. Top-level `axes![...]`/`let` blocks are deliberately absent:
# mdBook wraps every Rust block in `fn main`, so unwrapped `axes!`/`let` text is pseudo-code
# (operation arguments, configurations with `= ...;`), not a Rust listing.
ITEM_START = re.compile(
    r"^(#!\[|#\[[a-z_:]+(\(.*\))?\]\s*(//.*)?$|// Trait implementation$|"
    r"(pub(\(crate\))? )?(async |unsafe |const )*fn [a-z_][a-z0-9_]*\s*[<(]|"
    r"impl\s*<|impl [A-Z]|(pub )?struct [A-Z]\w*\s*[<{(;]|(pub )?enum [A-Z]\w*\s*[<{]|"
    r"(pub )?trait [A-Z]\w*|type [A-Z]\w*(<[^>]*>)?\s*=|use [a-z_]+::|extern crate [a-z_]+;|"
    r"macro_rules! |(pub )?mod [a-z_]+\s*\{|(pub )?const [A-Z_][A-Z0-9_]*\s*:)"
)
# Lines that continue a listing at bracket depth 0: further items, attributes, comments.
CONTINUE = re.compile(
    r"^(//|#!\[|#\[|(pub(\(crate\))? )?(async |unsafe |const )*fn |impl\b|(pub )?struct |"
    r"(pub )?enum |(pub )?trait |type [A-Z]\w*|use |extern crate |axes!\[.*\];|macro_rules! |"
    r"(pub )?mod |(pub )?const |static |where\b|\{)"
)
NEW_LISTING = re.compile(r"^(#!\[allow\(unused\)\]|// Trait implementation)$")
RUST_KEYWORDS = {"where", "impl", "pub", "fn", "let", "mut", "move", "async", "unsafe", "else",
                 "return", "in", "as", "loop", "struct", "enum", "trait", "type", "use", "const"}


def is_prose(line):
    """True for lines that can never be Rust code: prose resumed after a truncated listing."""
    s = line.strip()
    if not s or s.startswith(("//", "#")):
        return False
    s = re.sub(r'"([^"\\]|\\.)*"?', '""', s)  # string contents are not prose
    s = re.sub(r"\s+//.*$", "", s)  # a trailing comment says nothing about the code before it
    if s.startswith(("- ", "| ")) or re.search(r"[\u2500-\u257f]", s):
        return True  # bullets, tables, box drawings
    words = s.split()
    if len(words) >= 2 and re.fullmatch(r"[A-Za-z0-9 ]+", s) and words[0] not in RUST_KEYWORDS:
        return True  # "f32 Interface"
    if re.fullmatch(r"[A-Z][A-Za-z ]*:", s):
        return True  # "Parameters:"
    words = s.split()
    english = sum(1 for w in words if re.fullmatch(r"[a-z]+[,.:;]?", w))
    return english >= 4 and english >= 0.6 * len(words)


def incomplete(line):
    """True when a code line cannot end an item (a signature still running, e.g. before `where`)."""
    s = re.sub(r"//.*$", "", line).rstrip()
    return bool(s) and not s.endswith((";", "}", "]"))


def bracket_delta(line, state):
    """Returns the net bracket depth change of `line`, skipping strings, chars and comments.

    `state` carries an open block comment across lines ({'block': bool}).
    """
    depth = 0
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if state["block"]:
            if line.startswith("*/", i):
                state["block"] = False
                i += 2
            else:
                i += 1
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        if c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
            continue
        if c == "'":
            # char literal 'x' or '\n'; otherwise a lifetime or a prime
            m = re.match(r"'(\\.[^']*|[^'\\])'", line[i:])
            if m:
                i += len(m.group(0))
                continue
            i += 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth


def slugify(lines):
    """A short name for a listing: its first fn/type/impl name, else 'listing'."""
    for line in lines:
        m = re.match(r"^\s*(?:pub )?(?:async )?fn ([a-z_][a-z0-9_]*)", line)
        if m and m.group(1) != "main":
            return m.group(1)[:40]
    for line in lines:
        m = re.match(r"^\s*(?:impl(?:<.*?>)?\s+(?:[\w:]+ for )?|struct |enum |trait |type )([A-Za-z]\w*)", line)
        if m:
            return m.group(1).lower()[:40]
    for line in lines:
        if line.startswith("fn main"):
            return "main"
    return "listing"


def extract(lines):
    """Yields (first_line_number, [lines]) for every listing."""
    i, n = 0, len(lines)
    while i < n:
        starts = ITEM_START.match(lines[i])
        if not starts and lines[i].startswith("///"):
            # a doc comment opens a listing when the item it documents follows
            j = i
            while j < n and lines[j].startswith("///"):
                j += 1
            starts = j < n and ITEM_START.match(lines[j])
        if not starts:
            i += 1
            continue
        start = i
        depth = 0
        state = {"block": False}
        body = []
        wrapped = False
        while i < n:
            line = lines[i]
            if body and depth <= 0 and not state["block"] and NEW_LISTING.match(line):
                break
            if body and is_prose(line):
                break
            body.append(line)
            if line.startswith("fn main()") and len(body) <= 3 and body[0].startswith("#!"):
                wrapped = True
            depth += bracket_delta(line, state)
            i += 1
            if depth <= 0 and not state["block"]:
                if wrapped and line.startswith("}"):
                    break  # the renderer's `fn main() { ... }` wrapper closed
                if i >= n:
                    break
                if not incomplete(line) and not CONTINUE.match(lines[i]):
                    break
        # pseudo-code: top-level `let` statements follow the items (`let x: T = /* ... */;`)
        j = i
        while j < n and lines[j].startswith("//"):
            j += 1
        if depth <= 0 and j < n and re.match(r"^let |^\.", lines[j]):
            while i < n and not is_prose(lines[i]):
                i += 1
            continue
        # trim trailing comment-only lines
        while len(body) > 1 and body[-1].lstrip().startswith("//") and not body[-1].startswith("///"):
            body.pop()
            i -= 1
        if any(not l.lstrip().startswith(("//", "#!")) for l in body):
            yield start + 1, body
        if i == start:
            i += 1


def main(argv):
    manual = argv[1] if len(argv) > 1 else DEFAULT_MANUAL
    out = argv[2] if len(argv) > 2 else DEFAULT_OUT
    with open(manual, encoding="utf-8") as f:
        lines = f.read().split("\n")
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.endswith(".tcp"):
            os.remove(os.path.join(out, old))
    count = 0
    for lineno, body in extract(lines):
        count += 1
        name = "%03d_%s.tcp" % (count, slugify(body))
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write("// manual line %d\n" % lineno)
            f.write("\n".join(body) + "\n")
    print("extracted %d listings into %s" % (count, os.path.relpath(os.path.normpath(out))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
