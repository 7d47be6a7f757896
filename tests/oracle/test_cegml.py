"""The ``cegml`` profile: the reference code's sampling choices, checked against ``re`` and brute force."""

from __future__ import annotations

import collections
import itertools
import random
import re
import threading

import numpy as np
import pytest

from automata.algebra.ops import complement
from automata.building.compile import compile_regex
from automata.core.dfa import DFA
from automata.jit import _jit
from oracle import (
    ExactTeacher,
    Example,
    TeacherConfig,
    cegml,
    evaluation_set,
    remember,
    satisfies,
    score,
)
from oracle import _cegml_kernels as cegml_kernels
from oracle.examples import ClusteredExample
from regexlang.charset import CharSet
from regexlang.dialects import parse

MODES = ("paths", "shortest", "uniform")


def matcher(text: str) -> re.Pattern[str]:
    return re.compile(text.replace(" ", "").replace("+", "|"))


def test_the_profile_is_one_config_value() -> None:
    config = TeacherConfig.cegml(mode="shortest")
    assert (config.profile, config.order, config.clustered, config.mode) == (
        "cegml",
        "grouped",
        True,
        "shortest",
    )
    assert config == TeacherConfig(
        profile="cegml", order="grouped", clustered=True, mode="shortest"
    )
    assert config.reading == "loose" and TeacherConfig().reading == "universal"
    assert config.mode_name == "shortest+clustered@cegml" and TeacherConfig().mode_name == "paths"


@pytest.mark.parametrize("mode", MODES)
def test_half_a_batch_per_side_without_refill_positives_first(mode: str) -> None:
    config = TeacherConfig.cegml(mode=mode, clustered=False, batch=50)
    teacher = ExactTeacher.from_regex("a (a + b + c)*", "simple", config=config)
    verdict = teacher.check("a (a + b + c)* c + b")  # the only negative is "b"
    labels = [e.label for e in verdict.counterexamples]
    assert labels == sorted(labels, reverse=True)  # positives first
    assert [e.text() for e in verdict.negatives] == ["b, 0"]
    assert 1 <= len(verdict.positives) <= 25  # no refill from the short side
    inside, outside = matcher("a (a + b + c)*"), matcher("a (a + b + c)* c + b")
    for example in verdict.counterexamples:
        assert isinstance(example, Example) and len(example.string) <= 32
        assert (
            bool(inside.fullmatch(example.string))
            == example.label
            != bool(outside.fullmatch(example.string))
        )


def test_shortest_returns_every_witness_of_the_minimum_length() -> None:
    config = TeacherConfig.cegml(mode="shortest", clustered=False, batch=4)
    teacher = ExactTeacher.from_regex("(a + b + c)* c", "simple", config=config)
    verdict = teacher.check("c")
    inside, outside = matcher("(a + b + c)* c"), matcher("c")
    strings = ("".join(t) for n in range(4) for t in itertools.product("abc", repeat=n))
    differ = [s for s in strings if bool(inside.fullmatch(s)) != bool(outside.fullmatch(s))]
    shortest = min(map(len, differ))
    expected = {s for s in differ if len(s) == shortest}
    assert {e.string for e in verdict.counterexamples if isinstance(e, Example)} == expected
    assert len(expected) > 4 // 2  # more than k: the reference does not cap this mode


def test_repeats_are_allowed_across_rounds() -> None:
    teacher = ExactTeacher.from_regex(
        "(a + b + c)* c", "simple", config=TeacherConfig.cegml(mode="shortest")
    )
    first = teacher.check("c")
    again = teacher.check("c", first.counterexamples)
    assert again.counterexamples == first.counterexamples
    assert len(remember(first.counterexamples, again)) == len(first.counterexamples)


@pytest.mark.parametrize(("mode", "clustered"), list(itertools.product(MODES, [False, True])))
def test_witnesses_are_genuine_and_distinct_within_a_round(mode: str, clustered: bool) -> None:
    target, hypothesis = "(a b* + c)*", "(a b + c)*"
    config = TeacherConfig.cegml(mode=mode, clustered=clustered, batch=40)
    verdict = ExactTeacher.from_regex(target, "simple", config=config).check(hypothesis)
    assert verdict.counterexamples and len(verdict.positives) <= 20 and len(verdict.negatives) <= 20
    inside, outside = matcher(target), matcher(hypothesis)
    texts = [e.text() for e in verdict.counterexamples]
    assert len(set(texts)) == len(texts) or mode == "uniform" and not clustered
    for example in verdict.counterexamples:
        strings = [example.string] if isinstance(example, Example) else list(example.strings())
        for string in strings:
            assert len(string) <= 32
            assert (
                bool(inside.fullmatch(string)) == example.label != bool(outside.fullmatch(string))
            )


def test_a_simple_targets_alphabet_is_its_own_letters() -> None:
    teacher = ExactTeacher.from_regex("(a b)*", "simple", config=TeacherConfig.cegml())
    assert teacher.universe == CharSet.of("ab")
    verdict = teacher.check(
        "(a b + c)*"
    )  # "c" is not a letter of the target: the code cannot compile it
    assert not verdict.valid and verdict.issues[0].kind == "syntax_error"
    improved = ExactTeacher.from_regex("(a b)*", "simple")
    assert improved.universe == CharSet.of("abc") and improved.check("(a b + c)*").valid


def test_classes_print_in_the_reference_spelling() -> None:
    config = TeacherConfig.cegml(mode="paths")
    verdict = ExactTeacher.from_regex("[ac]x", "extended", config=config).check("x")
    assert "[ac]x, 1" in [e.text() for e in verdict.counterexamples]
    simple = ExactTeacher.from_regex("(a + c) b", "simple", config=TeacherConfig.cegml()).check("b")
    assert [e.text() for e in simple.counterexamples] == [
        "[ac]b, 1",
        "b, 0",
    ]  # ours would print [^b]b


def test_negative_clusters_score_loosely() -> None:
    dfa = compile_regex(parse("a b", "simple"), CharSet.of("abc"))
    cluster = ClusteredExample(("a", CharSet.of("bc")), False)  # "ab" is accepted, "ac" is not
    assert satisfies(dfa, cluster, reading=TeacherConfig.cegml().reading)
    assert not satisfies(dfa, cluster)


def test_coin_flip_evaluation_set() -> None:
    target = compile_regex(parse("(a b* + c)*", "simple"), CharSet.of("abc"))
    examples = evaluation_set(target, size=300, seed=3, profile="cegml")
    pattern = matcher("(a b* + c)*")
    assert len(examples) == 300 and 90 < examples.positives < 210
    assert all(
        bool(pattern.fullmatch(e.string)) == e.label and len(e.string) <= 32
        for e in examples.examples
    )
    assert examples == evaluation_set(target, size=300, seed=3, profile="cegml")
    everything = compile_regex(parse("(a + b + c)*", "simple"), CharSet.of("abc"))
    assert (
        evaluation_set(everything, size=20, profile="cegml").positives == 20
    )  # no complement to flip to


def reference_walk(
    graph: cegml._Graph, targets: set[int], max_len: int, rng: random.Random
) -> cegml.Tokens | None:
    """The reference code's walk as written: a FIFO queue and ``rng.sample`` per expansion."""
    parents: list[tuple[int, CharSet | None]] = [(-1, None)]
    queue = collections.deque([(graph.dfa.start, 0, 0)])
    visited = {(graph.dfa.start, 0)}
    hits = []
    while queue:
        state, depth, node = queue.popleft()
        if state in targets:
            hits.append(node)
        if depth >= max_len:
            continue
        successors = graph.out(state)
        for index in rng.sample(range(len(successors)), len(successors)):
            target, chars = successors[index]
            if (target, depth + 1) not in visited:
                visited.add((target, depth + 1))
                parents.append((node, chars))
                queue.append((target, depth + 1, len(parents) - 1))
    return _unwind(parents, hits[rng.randrange(len(hits))]) if hits else None


def _unwind(parents: list[tuple[int, CharSet | None]], node: int) -> cegml.Tokens:
    steps: list[CharSet] = []
    while node > 0:
        node, chars = parents[node]
        assert chars is not None  # only the root has no step
        steps.append(chars)
    return tuple(reversed(steps))


@pytest.mark.parametrize("text", ["(a b* + c)*", "a (b + c)* a", "(a + b + c)* a b c", "c c c"])
@pytest.mark.parametrize("seed", [0, 11])
def test_the_walk_draws_what_the_reference_draws(text: str, seed: int) -> None:
    graph = cegml._Graph(compile_regex(parse(text, "simple"), CharSet.of("abcd")))
    finals = set(graph.finals())
    ours, theirs = random.Random(seed), random.Random(seed)
    for max_len in (0, 3, 12, 32, 7, 32):
        assert cegml.reaching_tokens(graph, finals, max_len, ours) == reference_walk(
            graph, finals, max_len, theirs
        )
    assert ours.random() == theirs.random()  # the stream is where the reference leaves it


@pytest.mark.parametrize("form", ["python", "compiled"])
def test_the_kernels_draw_what_cpython_draws(form: str) -> None:
    ours, theirs = random.Random(5), random.Random(5)
    with _jit.forced(form):  # type: ignore[arg-type]
        mt = cegml._generator(ours)
        for n in itertools.islice(
            itertools.cycle([1, 2, 3, 7, 8, 1000, 2**31 + 5, 2**32 - 1]), 700
        ):
            assert cegml_kernels.below(mt, n) == theirs.randrange(n)
            assert cegml_kernels.uniform(mt) == theirs.random()
        assert cegml_kernels.next_word(mt) == theirs.getrandbits(32)
    cegml._restore(ours, mt)
    assert ours.getstate() == theirs.getstate()


def test_other_threads_run_while_the_evaluation_sets_kernel_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled draws let the GIL go: this thread reads the generator's index between its
    value before the kernel and after it (holding the GIL, the kernel would let it see only those
    two)."""
    generators: list[np.ndarray] = []
    generator = cegml._generator

    def kept(rng: random.Random) -> np.ndarray:
        generators.append(generator(rng))
        return generators[-1]

    monkeypatch.setattr(cegml, "_generator", kept)
    target = compile_regex(parse("(a b* + c)*", "simple"), CharSet.of("abcd"))
    with _jit.forced("compiled"):
        cegml.coin_flip_set(target, 10, 32, 0)  # compiled (or loaded) before the watch
        generators.clear()
        drawing = threading.Thread(target=cegml.coin_flip_set, args=(target, 20_000, 32, 1))
        seen = set()
        drawing.start()
        while drawing.is_alive():
            if generators:
                seen.add(int(generators[0][624]))
        drawing.join()
    before, after = random.Random(1).getstate()[1][624], int(generators[0][624])
    assert seen - {before, after}


def reference_coin_flip_set(target: DFA, size: int, max_len: int, seed: int) -> list[Example]:
    """The evaluation strings as the reference code draws them, on :func:`reference_walk`."""
    rng = random.Random(seed)
    usable = []
    for graph, label in ((cegml._Graph(target), True), (cegml._Graph(complement(target)), False)):
        finals = set(graph.finals())
        if finals and reference_walk(graph, finals, max_len, rng) is not None:
            usable.append((graph, label, finals))
    out = []
    for _ in range(size if usable else 0):
        graph, label, finals = usable[0 if len(usable) == 1 or rng.random() < 0.5 else 1]
        tokens = reference_walk(graph, finals, max_len, rng)
        assert tokens is not None
        members = [cegml._members(chars) for chars in tokens]
        out.append(Example("".join(m[rng.randrange(len(m))] for m in members), label))
    return out


@pytest.mark.parametrize("form", ["python", "compiled"])
@pytest.mark.parametrize(
    ("text", "dialect", "universe"),
    [
        ("(a b* + c)*", "simple", CharSet.of("abcd")),
        ("(a + b + c)*", "simple", CharSet.of("abc")),  # no complement to flip to
        ("a (b + c)* a", "simple", CharSet.of("abcd")),
        ("[0-9]{3}-[a-z]+", "python", CharSet.range(" ", "~")),
        (".*x[^x]", "python", CharSet.range("\x00", "\uffff")),  # steps past 4,096 characters
    ],
)
def test_the_evaluation_set_is_the_reference_codes(
    form: str, text: str, dialect: str, universe: CharSet
) -> None:
    target = compile_regex(parse(text, dialect), universe)  # type: ignore[arg-type]
    with _jit.forced(form):  # type: ignore[arg-type]
        for size, max_len, seed in ((60, 32, 0), (40, 5, 7), (10, 0, 3), (0, 32, 1)):
            assert cegml.coin_flip_set(target, size, max_len, seed) == reference_coin_flip_set(
                target, size, max_len, seed
            )


def test_a_hypothesis_that_does_not_compile_scores_zero_and_one() -> None:
    target = compile_regex(parse("a b*", "simple"), CharSet.of("abc"))
    examples = evaluation_set(target, size=10)
    assert (score(target, None, examples).accuracy, score(target, None, examples).diff_ratio) == (
        0.0,
        1.0,
    )
    assert score(target, target, examples).accuracy == 1.0
