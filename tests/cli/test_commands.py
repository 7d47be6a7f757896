"""The command line's contract: lazy imports, exit codes, and one-line errors without tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_every_lazy_command_loads_and_has_help() -> None:
    for name in COMMANDS:
        code, output = invoke(name, "--help")
        assert code == 0, output
        assert "Usage:" in output


def test_regex_command_imports_neither_http_client_nor_benchmark_peers_nor_numba() -> None:
    probe = (
        "import sys\n"
        "from cli.main import main\n"
        "try:\n"
        "    main(['regex', 'a b*', '--dialect', 'simple'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('aiohttp', 'pyformlang', 'networkx', 'llm', 'hypothesis',"
        " 'numba') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    ("text", "against", "code"),
    [("(a b* + c)*", "(c* (a b*)*)*", 0), ("(a b* + c)*", "(a + b + c)*", 1)],
)
def test_regex_against_exit_code_says_whether_languages_are_equal(
    text: str, against: str, code: int
) -> None:
    exit_code, output = invoke("regex", text, "--dialect", "simple", "--against", against)
    assert exit_code == code
    assert ("equivalent: yes" in output) == (code == 0)


@pytest.mark.parametrize(
    "args",
    [
        ("regex", "(a|b"),
        ("regex", "a", "--against", "(b"),
        ("regex", "a", "--state-limit", "0"),
        ("regex", "a", "--state-limit", "-5"),
        ("regex", "a", "--examples", "0"),
        ("regex", "(a|b)*a(a|b){30}", "--state-limit", "1000"),
        ("corpus-stats", "/nonexistent/data"),
    ],
)
def test_bad_input_exits_2_without_traceback(args: tuple[str, ...]) -> None:
    code, output = invoke(*args)
    assert code == 2, output
    assert "Traceback" not in output
    assert "Error:" in output


def test_syntax_error_shows_position_and_caret() -> None:
    code, output = invoke("regex", "ab)c", "--dialect", "python")
    assert code == 2
    lines = output.strip().splitlines()
    assert lines[-2] == "ab)c"
    assert lines[-1] == "  ^"
    assert "at position 2, marked below" in lines[0]


def test_corpus_stats_reports_a_malformed_file(tmp_path: Path) -> None:
    (tmp_path / "cegml").mkdir()
    (tmp_path / "cegml" / "regex_list.json").write_text("{not json")
    code, output = invoke("corpus-stats", str(tmp_path))
    assert code == 2
    assert "malformed" in output and "Traceback" not in output


def test_console_script_is_declared() -> None:
    assert "regex-cegis = cli.main:main" in (ROOT / "setup.cfg").read_text()


@pytest.mark.slow
def test_after_warmup_a_compiled_run_compiles_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run(
        [sys.executable, "-m", "cli", "warmup"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    env["REGEX_CEGIS_KERNELS"] = "compiled"
    done = subprocess.run(
        [sys.executable, "-m", "cli", "learn", "--target", "[0-9]{3}-[a-f]+", "--clustered"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert "compiling kernels" not in done.stderr
