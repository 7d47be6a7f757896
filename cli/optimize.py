"""``python -m cli optimize``: the learn step (GEPA) that writes a setting's strategy for a model.

It runs :func:`experiments.optimize.optimize_strategy` on the targets given (``--target``,
repeated, or ``--targets FILE``, one regex a line), split into train and validation, with the
task model at ``--base-url`` and the reflection model at ``--reflection-base-url`` (default: the
same server), and writes the best strategy text to ``--out``; a plan's arm loads it with
``strategy_file = "..."``, ``learn`` with ``--strategy-file``. Beside it, ``--out`` with
``.json`` appended holds the seed and best texts, their mean validation scores, the splits and
the seconds taken. The ``gepa`` extra must be installed; it is imported only here.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import click

from cegis.llm.settings import SETTINGS, setting_named
from cli.errors import BadInput
from cli.lazy import CONTEXT
from experiments.regular_file import read_regular
from regexlang.dialects import DIALECTS, parse
from regexlang.errors import RegexError


@click.command(context_settings=CONTEXT)
@click.option("--setting", "setting_name", type=click.Choice(list(SETTINGS)), default="single",
              show_default=True, help="The LLM setting whose strategy is optimized.")  # fmt: skip
@click.option("--dialect", type=click.Choice(list(DIALECTS)), default="simple", show_default=True)
@click.option("--target", "targets", multiple=True, metavar="REGEX", help="A target (repeat).")
@click.option("--targets", "targets_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Targets, one regex a line.")  # fmt: skip
@click.option("--validation", type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True),
              default=0.5, show_default=True, help="Share of the targets held out.")  # fmt: skip
@click.option("--base-url", metavar="URL", help="Task model server (default: $OPENAI_BASE_URL).")
@click.option("--model", metavar="ID", help="Task model id (default: the server's only model).")
@click.option(
    "--reflection-base-url", metavar="URL", help="Reflection model server (default: the task's)."
)
@click.option("--reflection-model", metavar="ID", help="Reflection model id.")
@click.option("--max-epochs", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--batch", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--max-completion-tokens", type=click.IntRange(min=1), default=48, show_default=True)
@click.option("--max-metric-calls", type=click.IntRange(min=1), default=24, show_default=True,
              help="GEPA's budget: target runs in all.")  # fmt: skip
@click.option("--constrained", is_flag=True, help="Constrain replies to the answer grammar.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", type=click.Path(path_type=Path), required=True, metavar="FILE",
              help="Where the strategy text goes.")  # fmt: skip
def optimize(
    setting_name: str,
    dialect: str,
    targets: tuple[str, ...],
    targets_file: Path | None,
    validation: float,
    base_url: str | None,
    model: str | None,
    reflection_base_url: str | None,
    reflection_model: str | None,
    max_epochs: int,
    batch: int,
    max_completion_tokens: int,
    max_metric_calls: int,
    constrained: bool,
    seed: int,
    out: Path,
) -> None:
    """Optimize a setting's strategy text for a model with GEPA (the seed paper's learn step)."""
    from experiments.optimize import OptimizeError, StepConfig, optimize_strategy
    from llm.config import ClientConfig

    chosen = _targets(targets, targets_file, dialect)
    setting = setting_named(setting_name)
    sampling = attrs.evolve(setting.sampling, max_completion_tokens=max_completion_tokens)
    setting = attrs.evolve(setting, sampling=sampling, constrained=constrained)
    config = StepConfig(
        setting, epochs=max_epochs, batch=batch, max_metric_calls=max_metric_calls, seed=seed
    )
    task = ClientConfig.resolve(base_url, model=model)
    reflection = ClientConfig.resolve(
        reflection_base_url or task.base_url, model=reflection_model or model
    )
    try:
        found = optimize_strategy(
            chosen,
            dialect,
            config,
            task,
            reflection,
            validation=validation,
            log=lambda line: click.echo(line, err=True),
        )
    except OptimizeError as error:
        raise BadInput(str(error)) from None
    from experiments.strategy_file import write_strategy

    write_strategy(out, found.best_text)
    summary = attrs.asdict(found) | {"setting": setting_name, "dialect": dialect}
    Path(f"{out}.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    click.echo(f"strategy:   {out} ({found.candidates} candidate texts tried)")
    click.echo(f"validation: {found.before:.3f} before, {found.after:.3f} after")
    click.echo(f"time:       {found.seconds:.1f} s")


#: The most a ``--targets`` file may hold: far above any list of regexes a learn step reads.
MAX_TARGETS_BYTES = 10_000_000


def _targets(given: tuple[str, ...], path: Path | None, dialect: str) -> list[str]:
    """The targets of ``--target`` and ``--targets``, each checked to parse in ``dialect``."""
    targets = list(given)
    if path is not None:
        try:
            text = read_regular(path, MAX_TARGETS_BYTES).decode("utf-8")
        except OSError as error:
            raise BadInput(f"--targets: cannot read {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise BadInput(f"--targets: {path} is not UTF-8 text") from None
        targets += [line.strip() for line in text.splitlines() if line.strip()]
    for target in targets:
        try:
            parse(target, dialect)  # type: ignore[arg-type]
        except RegexError as error:
            raise BadInput(f"--target {target!r}: {error}") from None
    return targets
