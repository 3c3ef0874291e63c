"""The match checkpoints kept in ``docs/runs`` are valid checkpoints, and the guides quote their
figures: every checkpoint is named in some guide, and a guide naming it states its difference
with its 95% interval as the checkpoint holds them (so a resumed run cannot leave stale figures
in the docs)."""

from pathlib import Path

import pytest
from cfrkit._checkpoint import MatchCheckpoint

ROOT = Path(__file__).resolve().parent.parent
RUNS = sorted((ROOT / "docs" / "runs").glob("*.ckpt.json"))
GUIDES = {g.name: g.read_text(encoding="utf-8") for g in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]}


def quoted(x: float, ci: float) -> str:
    """A difference as the guides write it: signed, two decimals, a typographic minus."""
    return f"{x:+.2f} ± {ci:.2f}".replace("-", "−")


def test_there_are_runs_to_check():
    assert RUNS, "docs/runs holds no match checkpoints"


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.name)
def test_a_kept_checkpoint_is_read_and_its_guides_quote_it(path):
    cp = MatchCheckpoint._read(path)
    assert cp.done > 0 and cp.diff.n == cp.done, "a kept run has deals and their differences"
    naming = {name: text for name, text in GUIDES.items() if path.name in text}
    assert naming, f"no guide names {path.name}"
    figure = quoted(cp.diff.mean, cp.diff.ci95)
    for name, text in naming.items():
        assert figure in text, f"{name} names {path.name} but not its figure {figure}"


def test_quoting_matches_the_guides_style():
    assert quoted(14.5335, 1.1649) == "+14.53 ± 1.16"
    assert quoted(-1.724, 1.75) == "−1.72 ± 1.75"
