#!/usr/bin/env python3
"""Checks the module structure of the Rust core (rust/core/src).

Three rules, from docs/architecture.md:

1. Nothing outside ``games/`` refers to ``games`` (generic modules never know a game); the
   games registry (``games/mod.rs``) is inside ``games/``.
2. No import cycles: at every level of the module tree, the children of a module (its files and
   sub-folders, and the module's own ``mod.rs`` as one more node) refer to each other without a
   cycle. A reference is a ``use`` or a path in code (``crate::…``, ``super::…``, ``child::…``);
   a name that a module re-exports with ``pub use`` is followed to where it is defined.
3. No game refers to another game: what two games share lives in a generic module (the registry,
   ``games/mod.rs``, is the one module under ``games/`` that names every game).

Prints one line per violation and exits 1 if there is any; exits 0 with a one-line summary
otherwise. Usage: ``python3 .ci/check_architecture.py [SRC_DIR]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

Module = tuple[str, ...]


def strip_comments_and_strings(text: str) -> str:
    """The code with comments, string and char literals blanked out (paths in them are not references)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", text[i:]).group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use(tree: str) -> list[list[str]]:
    """``a::{b, c::{d, self}}`` -> [[a, b], [a, c, d], [a, c]] (aliases dropped)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    paths: list[list[str]] = []

    def walk(prefix: list[str], s: str) -> None:
        if "{" not in s:
            for part in split_top(s):
                segs = [p for p in part.split("::") if p]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                if segs or prefix:
                    paths.append(prefix + segs)
            return
        for part in split_top(s):
            if "{" in part:
                head, body = part.split("{", 1)
                walk(prefix + [p for p in head.split("::") if p], body[: body.rfind("}")])
            else:
                walk(prefix, part)

    walk([], tree)
    return paths


def split_top(s: str) -> list[str]:
    """Splits at commas outside braces."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return [p for p in parts if p]


class Crate:
    def __init__(self, src: Path):
        self.src = src
        self.files: dict[Module, Path] = {}
        for f in sorted(src.rglob("*.rs")):
            rel = f.relative_to(src).with_suffix("")
            parts = rel.parts
            if parts == ("lib",):
                mod: Module = ()
            elif parts[-1] == "mod":
                mod = tuple(parts[:-1])
            else:
                mod = tuple(parts)
            self.files[mod] = f
        self.code = {m: strip_comments_and_strings(f.read_text()) for m, f in self.files.items()}
        self.children = {
            m: set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", c, re.M)) for m, c in self.code.items()
        }
        # Re-exports: module -> {name: absolute path of the re-exported item}.
        self.reexports: dict[Module, dict[str, list[str]]] = {}
        for m, c in self.code.items():
            names: dict[str, list[str]] = {}
            for body in re.findall(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", c):
                for path in expand_use(body):
                    absolute = self.absolute(m, path)
                    if absolute:
                        names[absolute[-1]] = absolute
            self.reexports[m] = names

    def absolute(self, here: Module, segs: list[str]) -> list[str] | None:
        """Absolute segments of path ``segs`` written in module ``here`` (None for outside crates)."""
        if not segs:
            return None
        if segs[0] == "crate":
            return segs[1:]
        if segs[0] in ("self", "super"):
            base = list(here)
            i = 0
            while i < len(segs) and segs[i] in ("self", "super"):
                if segs[i] == "super":
                    if not base:
                        return None
                    base.pop()
                i += 1
            return base + segs[i:]
        if segs[0] in self.children.get(here, ()):
            return list(here) + segs
        return None

    def resolve(self, segs: list[str], seen: int = 0) -> Module | None:
        """The module that defines what absolute path ``segs`` names."""
        for k in range(len(segs), -1, -1):
            mod = tuple(segs[:k])
            if mod in self.files:
                rest = segs[k:]
                if rest and seen < 16 and rest[0] in self.reexports.get(mod, {}):
                    target = self.reexports[mod][rest[0]]
                    if target != list(mod) + rest[:1]:
                        return self.resolve(target + rest[1:], seen + 1) or mod
                return mod
        return None

    def references(self, m: Module) -> set[Module]:
        """Modules that module ``m`` refers to (inline modules such as ``mod tests { … }`` included)."""
        out: set[Module] = set()
        for here, code in inline_modules(m, self.code[m]):
            paths: list[list[str]] = []
            for body in re.findall(r"\buse\s+([^;]+);", code):
                paths.extend(expand_use(body))
            for expr in re.findall(r"(?<![\w:])((?:crate|super|self|\w+)(?:::\w+)+)", code):
                paths.append(expr.split("::"))
            for p in paths:
                absolute = self.absolute(here, p)
                if absolute is None:
                    continue
                target = self.resolve(absolute)
                if target is not None and target != m:
                    out.add(target)
        return out


def inline_modules(here: Module, code: str) -> list[tuple[Module, str]]:
    """``code`` split into (module path, code) for the file's module and each inline ``mod x { … }``."""
    parts = []
    outer, i = [], 0
    for match in re.finditer(r"\bmod\s+(\w+)\s*\{", code):
        if match.start() < i:
            continue
        depth, j = 1, match.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        outer.append(code[i : match.start()])
        parts.extend(inline_modules(here + (match.group(1),), code[match.end() : j - 1]))
        i = j
    outer.append(code[i:])
    return [(here, "".join(outer))] + parts


def cycles(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv: list[str]) -> int:
    src = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "rust" / "core" / "src"
    crate = Crate(src)
    problems = []
    # Per level: edges between the children of each module (its own file as "(mod)").
    levels: dict[Module, dict[str, set[str]]] = {}
    for m in crate.files:
        for t in crate.references(m):
            if t[:1] == ("games",) and m[:1] != ("games",):
                problems.append(f"{crate.files[m].relative_to(src)} refers to {'::'.join(t)}: only games/ may use games")
            if m[:1] == t[:1] == ("games",) and len(m) > 1 and len(t) > 1 and m[1] != t[1]:
                problems.append(f"{crate.files[m].relative_to(src)} refers to {'::'.join(t)}: a game never uses another")
            k = 0
            while k < min(len(m), len(t)) and m[k] == t[k]:
                k += 1
            a = m[k] if k < len(m) else "(mod)"
            b = t[k] if k < len(t) else "(mod)"
            levels.setdefault(m[:k], {}).setdefault(a, set()).add(b)
    for parent, edges in sorted(levels.items()):
        nodes = set(edges) | {x for v in edges.values() for x in v}
        for comp in cycles(nodes, edges):
            where = "/".join(parent) or "crate root"
            problems.append(f"import cycle in {where}: {' <-> '.join(comp)}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(
        f"architecture ok: {len(crate.files)} modules, no game imports outside games/, no game imports another, "
        "no import cycles"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
