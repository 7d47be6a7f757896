"""``bench automata`` compares each peer only on the rows where it does what we do."""

from __future__ import annotations

from typing import Any

from automata.algebra import ops
from automata.building.compile import from_text
from automata.strings.sampling import shortest
from experiments.bench.automata import OPERATIONS, Case, counterpart, render, run, summarize
from experiments.bench.peers import Peer


def _peer(name: str, *, random: bool, listing: bool) -> Peer:
    """A stand-in peer built on our own engine (the real ones are dev extras)."""

    def strings(a: Any, b: Any) -> list[str]:
        return shortest(ops.symmetric_difference(a, b), 5)

    return Peer(
        name,
        lambda text, dialect: None,
        from_text,
        ops.equivalent,
        strings if random else None,
        strings if listing else None,
        None,
    )


def test_random_and_shortest_rows_each_compare_the_peers_that_do_the_same() -> None:
    sampler, lister = (
        _peer("sampler", random=True, listing=False),
        _peer("lister", random=False, listing=True),
    )
    assert [op for op in OPERATIONS if counterpart(sampler, op)] == [
        "compile",
        "equivalence",
        "counterexamples",
        "teacher",
    ]
    assert [op for op in OPERATIONS if counterpart(lister, op)] == [
        "compile",
        "equivalence",
        "shortest",
        "teacher_shortest",
    ]

    raw = run(
        [Case("simple", "(a + b)* c", "(a + c)* c", (2, 1))],
        [sampler, lister],
        limit=5.0,
        repeat=1,
        echo=lambda _: None,
    )
    rows = {(r["operation"], r["dialect"]): r for r in summarize(raw) if r["dialect"] == "simple"}
    assert set(rows["counterexamples", "simple"]) & {"sampler", "lister"} == {"sampler"}
    assert set(rows["shortest", "simple"]) & {"sampler", "lister"} == {"lister"}
    assert rows["teacher_shortest", "simple"]["lister"]["ran"] == 1

    table = render(list(rows.values()), None, 5.0).splitlines()
    line = next(line for line in table if line.startswith("sym. difference + 250 shortest"))
    assert (
        line.count("no counterpart") == 1 and "; 1/0/0)" in line
    )  # the sampler's cell, the lister's


def test_a_row_under_target_says_where_our_time_goes() -> None:
    lister = _peer(
        "lister", random=False, listing=True
    )  # our own engine listing 5: far under 10× ours
    raw = run(
        [Case("simple", "(a + b)* c", "(a + c)* c", (2, 1))],
        [lister],
        limit=5.0,
        repeat=1,
        echo=lambda _: None,
    )
    lines = render(summarize(raw), None, 5.0).splitlines()
    at = lines.index(
        next(line for line in lines if line.startswith("  sym. difference + 250 shortest (simple)"))
    )
    assert "MISSED" in lines[at]
    bound = lines[at + 1]
    assert bound.startswith("    bound, p50 over the 1 cases lister ran: ours ")
    assert (
        "= the symmetric difference " in bound
        and "+ building the 250 strings from their code points " in bound
    )
    assert bound.split("; 10× lister leaves ")[1].endswith("µs")
    at = lines.index(
        next(
            line
            for line in lines
            if line.startswith("  equivalence (unequal pairs) (simple): ≥10×")
        )
    )
    assert (
        "= the equal-tables check " in lines[at + 1]
        and "+ the search on the product " in lines[at + 1]
    )
