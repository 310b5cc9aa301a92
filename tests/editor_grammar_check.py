#!/usr/bin/env python3
# editor_grammar_check.py — checks editors/vscode: its JSON files parse, the grammar's regexes compile
# (Python's re accepts the subset of Oniguruma the grammar uses), every `include` names a rule of the
# repository, the package's grammar and language entries point at existing files with the same
# scope, and the grammar's rules find what they name in samples/hello/gemm.tcp. Run as CTest
# `editor_grammar`: editor_grammar_check.py REPO
import json
import os
import re
import sys

root = sys.argv[1]
vscode = os.path.join(root, "editors", "vscode")
problems = []


def load(path):
    try:
        with open(os.path.join(vscode, path)) as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001 - any failure is a problem to report
        problems.append(f"{path}: {e}")
        return {}


package = load("package.json")
load("language-configuration.json")
grammar = load("syntaxes/tcp.tmLanguage.json")
repository = grammar.get("repository", {})


def walk(rule, where):
    if isinstance(rule, list):
        for k, r in enumerate(rule):
            walk(r, f"{where}[{k}]")
        return
    if not isinstance(rule, dict):
        return
    for key in ("match", "begin", "end"):
        if key in rule:
            try:
                re.compile(rule[key])
            except re.error as e:
                problems.append(f"{where}.{key}: {e}")
    inc = rule.get("include")
    if inc and inc.startswith("#") and inc[1:] not in repository:
        problems.append(f"{where}: include {inc} names no repository rule")
    for key in ("patterns",):
        if key in rule:
            walk(rule[key], f"{where}.{key}")
    for name, r in rule.get("repository", {}).items():
        walk(r, f"{where}.repository.{name}")


walk(grammar, "grammar")
contributes = package.get("contributes", {})
grammars = contributes.get("grammars", [])
if not grammars or grammars[0].get("scopeName") != grammar.get("scopeName"):
    problems.append("package.json's grammar scope differs from the grammar's scopeName")
for g in grammars:
    if not os.path.exists(os.path.join(vscode, g.get("path", ""))):
        problems.append(f"package.json names a missing grammar {g.get('path')}")
langs = contributes.get("languages", [])
if not langs or ".tcp" not in langs[0].get("extensions", []):
    problems.append("package.json does not claim .tcp files")

with open(os.path.join(root, "samples", "hello", "gemm.tcp")) as f:
    sample = f.read()
expect = {
    "mapping": ("begin", "m!["),
    "methods": ("match", ".fetch"),
    "numbers": ("match", "1024"),
}
for rule, (key, text) in expect.items():
    pattern = repository.get(rule, {}).get(key)
    found = [m.group(0) for m in re.finditer(pattern, sample)] if pattern else []
    if not any(text in f for f in found):
        problems.append(f"rule {rule} does not find {text!r} in samples/hello/gemm.tcp")

for p in problems:
    print("editor_grammar:", p)
sys.exit(1 if problems else 0)
