"""``python -m cli learn``: learns from a target or a CSV of examples; bad input is one line, exit 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from automata.building.compile import compile_regex
from cegis.registry import REGISTRY, default_passive
from cli.learn import learn
from regexlang import parse, universe

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(learn, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("learner", ["lstar", "union"])
def test_learning_a_target_prints_an_exact_regex_as_json(learner: str) -> None:
    code, out = invoke(
        "--target",
        "(a b)* c",
        "--dialect",
        "simple",
        "--learner",
        learner,
        "--max-epochs",
        "50",
        "--json",
    )
    report = json.loads(out)
    if learner == "union":  # an infinite language: the union of positives never gets there
        assert code == 1 and report["exact"] is False and report["outcome"] == "epochs"
        return
    assert code == 0 and report["exact"] is True and report["dialect"] == "simple"
    target, learned = (
        compile_regex(parse(t, "simple"), universe("simple")) for t in ("(a b)* c", report["regex"])
    )
    assert all(
        target.accepts(s) == learned.accepts(s) for s in ("c", "abc", "ababc", "ab", "", "acb")
    )
    assert (
        report["epochs"] >= 1
        and report["examples"] >= 1
        and report["membership_queries"] >= (learner == "lstar")
    )


def test_the_text_report_says_exact_and_the_records_are_written(tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    code, out = invoke(
        "--target",
        "[A-Z][a-z]{2}",
        "--dialect",
        "extended",
        "--learner",
        "lstar",
        "--clustered",
        "--records",
        str(records),
    )
    assert code == 0 and "status:   exact" in out and re.search(r"^regex:\s+\S", out, re.M)
    kinds = [json.loads(line)["type"] for line in records.read_text().splitlines()]
    assert kinds[-1] == "run" and set(kinds[:-1]) == {"epoch"}


def test_examples_give_a_regex_consistent_with_every_row(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text('string,label\nab1,1\n"a,b",1\nab,0\n,0\nxyz,0\n', encoding="utf-8")
    code, out = invoke("--examples", str(rows), "--learner", "union", "--json")
    report = json.loads(out)
    assert code == 0 and report["exact"] is False and report["consistent"] is True
    for string, label in (("ab1", True), ("a,b", True), ("ab", False), ("", False), ("xyz", False)):
        assert (
            bool(re.fullmatch(report["regex"], string)) == label
        )  # python dialect: checked with `re`


BAD_INPUT = [
    (["--target", "(a", "--dialect", "simple"], "unbalanced"),
    (["--dialect", "simple"], "exactly one of"),
    (["--examples", "{empty}"], "no labeled examples"),
    (["--examples", "{malformed}"], "row 1"),
    (["--examples", "{contradictory}"], "labeled both"),
    (["--examples", "{missing}"], "cannot read"),
    (["--examples", "{good}", "--learner", "lstar"], "membership"),
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    contents = {
        "empty": "",
        "malformed": "abc;1\n",
        "contradictory": "ab,1\nab,0\n",
        "good": "ab,1\nb,0\n",
    }
    paths = {name: tmp_path / f"{name}.csv" for name in [*contents, "missing"]}
    for name, text in contents.items():
        paths[name].write_text(text)
    return {name: str(path) for name, path in paths.items()}


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_code_2(
    files: dict[str, str], args: list[str], message: str
) -> None:
    code, out = invoke(*(a.format(**files) for a in args))
    assert code == 2 and message in out and out.count("\n") == 1 and out.startswith("Error: ")


def test_bad_input_in_a_real_process_prints_no_traceback(files: dict[str, str]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from cli.learn import learn; learn()",
            "--examples",
            files["contradictory"],
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "labeled both" in done.stderr


def test_examples_default_to_the_symbolic_learner_without_membership_queries(
    tmp_path: Path,
) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("a1,1\nb22,1\nab,0\n1a,0\n,0\n", encoding="utf-8")
    code, out = invoke("--examples", str(rows), "--dialect", "extended", "--json")
    report = json.loads(out)
    assert code == 0 and report["consistent"] is True and report["membership_queries"] == 0
    assert report["learner"] == "symbolic" and not REGISTRY[default_passive()].membership
    for string, label in (("a1", True), ("b22", True), ("ab", False), ("1a", False), ("", False)):
        assert (
            bool(re.fullmatch(report["regex"], string)) == label
        )  # these extended regexes read the same in `re`


def test_the_cegml_teacher_profile_is_a_flag() -> None:
    code, out = invoke(
        "--target",
        "(a b)* c",
        "--dialect",
        "simple",
        "--learner",
        "lstar",
        "--profile",
        "cegml",
        "--json",
    )
    assert code == 0 and json.loads(out)["exact"] is True


def test_the_llm_learner_takes_its_options_and_reports_setup_errors_in_one_line() -> None:
    code, out = invoke(
        "--target", "a b*", "--dialect", "simple", "--learner", "llm", "--call-log-mode", "replay"
    )
    assert code == 2 and "needs --call-log" in out and out.count("\n") == 1


def test_a_corrupt_records_file_is_bad_input(tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    records.write_text("{not json\n")
    code, out = invoke("--target", "a b*", "--dialect", "simple", "--records", str(records))
    assert code == 2 and "not a JSON record" in out and out.count("\n") == 1


def test_a_users_learner_is_named_by_module_and_factory(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "from cegis.symbolic.union import UnionLearner\n\ndef positives():\n    return UnionLearner(name='mine')\n",
        encoding="utf-8",
    )
    (tmp_path / "examples.csv").write_text("ab,1\nb,0\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    command = [sys.executable, "-m", "cli", "learn", "--examples", "examples.csv", "--json"]
    done = subprocess.run(
        [*command, "--learner", "mine:positives"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["regex"] == "ab"
    missing = subprocess.run(
        [*command, "--learner", "mine:nothing"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "cannot load learner 'mine:nothing'" in missing.stderr


def test_a_csv_is_read_as_written_quoted_line_breaks_separators_and_a_byte_order_mark(
    tmp_path: Path,
) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_bytes(
        '\ufeffstring,label\r\n"a\nb",1\r\nab,0\r\n"x\u2028y",1\r\n"p\x85q",0\r\n'.encode("utf-8")
    )
    code, out = invoke("--examples", str(rows), "--learner", "union", "--json")
    report = json.loads(out)
    assert code == 0 and report["consistent"] is True and report["examples"] == 4
    pattern = re.compile(report["regex"])
    assert pattern.fullmatch("a\nb") and pattern.fullmatch("x\u2028y")
    assert not pattern.fullmatch("ab") and not pattern.fullmatch("p\x85q")


def test_positives_and_negatives_files_give_a_regex_for_the_flavour(tmp_path: Path) -> None:
    positives, negatives = tmp_path / "good.txt", tmp_path / "bad.txt"
    positives.write_text("12345\n98765-4321\n55555\n12345-0000\n", encoding="utf-8")
    negatives.write_text("1234\r\n123456\r\n12345-\r\n", encoding="utf-8")
    code, out = invoke(
        "--positives",
        str(positives),
        "--negatives",
        str(negatives),
        "--flavor",
        "javascript",
        "--json",
    )
    report = json.loads(out)
    assert code == 0 and report["consistent"] is True and report["flavor"] == "javascript"
    assert (
        report["regex"] == "^\\d{5}(?:-\\d{4})?$"
        and report["dialect_regex"] == "[0-9]{5}(?:-[0-9]{4})?"
    )


def test_positives_alone_from_stdin_are_a_guess_said_on_stderr() -> None:
    result = CliRunner().invoke(learn, ["--positives", "-", "--json"], input="abc\nabd\nabe\n")
    assert result.exit_code == 0 and "guess" in result.stderr
    assert re.fullmatch(json.loads(result.stdout)["regex"], "abd")


def test_a_target_defaults_to_clustered_counterexamples_and_a_failed_run_reports_its_best_hypothesis() -> (
    None
):
    help_text = CliRunner().invoke(learn, ["--help"]).output
    assert "--clustered / --plain" in help_text and "[default: clustered]" in help_text
    for words in ("true/false", "--max-epochs", "--dialect", "symbolic", "--flavor", "--anchored"):
        assert words in help_text
    code, out = invoke("--target", "[A-Za-z]{6,}.*dog.*", "--max-epochs", "1", "--plain", "--json")
    report = json.loads(out)
    assert code == 1 and report["outcome"] == "epochs"
    assert report["regex"] is not None and 0.0 <= report["accuracy"] <= 1.0


def test_negatives_without_positives_are_bad_input(tmp_path: Path) -> None:
    negatives = tmp_path / "bad.txt"
    negatives.write_text("x\n", encoding="utf-8")
    code, out = invoke("--negatives", str(negatives))
    assert code == 2 and "--positives" in out
