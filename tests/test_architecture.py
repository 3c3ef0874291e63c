"""The architecture check that CI runs (``.ci/check_architecture.py``): it passes on the core and
fails, naming the file, on each rule broken in a small crate of its own."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECK = ROOT / ".ci" / "check_architecture.py"


def check(src: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), *([str(src)] if src else [])], capture_output=True, text=True)


def test_the_core_passes():
    r = check()
    assert r.returncode == 0 and "no game imports another" in r.stdout, r.stdout + r.stderr


def test_each_rule_broken_is_named(tmp_path):
    files = {
        "lib.rs": "pub mod games;\npub mod search;\npub mod a;\npub mod b;\n",
        "games/mod.rs": "pub mod skat;\npub mod bridge;\nuse crate::games::skat::Skat;\n",  # the registry may
        "games/skat.rs": "pub struct Skat;\n",
        "games/bridge.rs": "use crate::games::skat::Skat;\n",  # a game using another
        "search.rs": "use crate::games::skat::Skat;\n",  # a generic module using a game
        "a.rs": "use crate::b::B;\npub struct A;\n",  # a cycle
        "b.rs": "use crate::a::A;\npub struct B;\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    r = check(tmp_path)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 1
    assert any(line.startswith("games/bridge.rs refers to games::skat") and "another" in line for line in lines)
    assert any(line.startswith("search.rs refers to games::skat") for line in lines)
    assert any("import cycle in crate root: a <-> b" in line for line in lines)
    assert not any(line.startswith("games/mod.rs") for line in lines), lines
