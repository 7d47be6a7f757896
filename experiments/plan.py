"""An experiment as data: which datasets, which arms (learner + loop settings), which seeds.

An experiment file is TOML (read with the standard library's ``tomllib``)::

    name = "table1-simple"
    seeds = [0, 1, 2]
    teacher_profile = "cegml"          # or "improved" (the default)

    [[datasets]]
    kind = "paper-list"                # generated | paper-list | kb13-extended | nl-rx-turk | kb13-python
    list = "simplyrx"
    per_cell = 3                       # optional: star_depths = [1, 2, 3]; limit = 5 (first N tasks)

    [[arms]]
    name = "agentic"
    learner = "llm"                    # or a symbolic learner of cegis.registry (symbolic, rpni, lstar, ...)
    setting = "agentic"                # an LLM setting of cegis.llm.settings

    [[servers]]                        # optional: OpenAI-compatible endpoints for llm arms
    base_url = "http://localhost:8000/v1"
    concurrency = 8
    model = "openai/gpt-oss-120b"      # optional: the one model this server serves
    read_timeout = 600                 # optional, seconds: also connect_timeout (10), call_timeout (1200)

An arm may name the ``datasets`` it runs on (by name; default: every dataset), as an A-CEGIS arm
that needs described tasks beside arms on Simple targets. An llm arm may name a ``model`` (Table
2's one row per backbone), a ``reasoning_effort`` and a ``max_completion_tokens``; its calls go
to the servers that serve that model (those whose ``model`` is unset or equal).

Every field of an arm that is not the learner's own (protocol, batch, epochs, clustered, mode, ...)
becomes a field of the run's :class:`cegis.config.LoopConfig`, so two arms differ by data only.
:func:`load_plan` validates everything before a single run starts (every field's type and range;
names, which become directory names, as safe path components unique ignoring case) and names the
file and the field in its :class:`PlanError`. Each table is read by ``cattrs`` into its class
(:mod:`experiments.plan_values`: values taken as TOML wrote them, the ranges as validators on the
classes); what one table cannot say alone (an llm arm's setting, the learner's registry entry,
names unique across tables) is checked here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from cegis.config import Budgets, LoopConfig
from cegis.errors import BrokenLearner
from cegis.llm.settings import SETTINGS, LLMSetting
from cegis.registry import UnknownLearner, spec
from experiments.plan_values import PlanError as PlanError  # where callers have always found it
from experiments.plan_values import (
    as_float,
    count,
    distinct_depths,
    integers,
    key_variable,
    named_by_validator,
    path_name,
    price,
    seconds,
    some_names,
    structure,
    written,
)
from experiments.regular_file import read_regular
from experiments.strategy_file import StrategyFileError, read_strategy
from llm.chat import ReasoningEffort
from llm.config import check_model_id, normalize_base_url
from llm.errors import ConfigError
from oracle.config import Profile, TeacherConfig
from oracle.protocol import SamplingMode

DatasetKind = Literal["generated", "paper-list", "kb13-extended", "nl-rx-turk", "kb13-python"]
PaperList = Literal["simplyrx", "extrx"]
Protocol = Literal["paper", "one-shortest"]
LLM = "llm"

#: The limits of a plan's values: each is far above any experiment of the papers.
MAX_PLAN_BYTES = 1_000_000
MAX_SEEDS = 1000
MAX_SEED = 2**32 - 1
MAX_CONCURRENCY = 256
MAX_PER_CELL = 1000
MAX_SIZE = 100_000
MAX_EPOCHS = 10_000
MAX_BATCH = 100_000
MAX_SERVER_CONCURRENCY = 4096
MAX_COMPLETION_TOKENS = 10_000_000


def _paper_list(instance: DatasetSpec, attribute: attrs.Attribute[Any], value: object) -> None:
    if instance.kind == "paper-list" and value is None:
        raise PlanError('a paper-list dataset needs list = "simplyrx" or "extrx"')
    if instance.kind != "paper-list" and value is not None:
        raise PlanError("list applies to paper-list datasets only")


def model_id(instance: object, attribute: attrs.Attribute[Any], value: str | None) -> None:
    """Validator: None or a model id a request can carry (:func:`llm.config.check_model_id`)."""
    try:
        check_model_id(value)
    except ConfigError as error:
        raise PlanError(f"{attribute.name}: {error}") from None


@attrs.frozen
class DatasetSpec:
    """One dataset of an experiment: its kind, its file (None: the default location) and size."""

    kind: DatasetKind
    name: str = attrs.field(validator=path_name)
    path: Path | None = None
    list: PaperList | None = attrs.field(default=None, validator=_paper_list)
    #: generated / paper-list: targets per (#States, StarDepth) cell
    per_cell: int | None = attrs.field(default=None, validator=count(high=MAX_PER_CELL))
    #: nl-rx-turk / kb13-python: tasks sampled; kb13-extended: first N
    size: int | None = attrs.field(default=None, validator=count(high=MAX_SIZE))
    seed: int = attrs.field(default=0, validator=count(low=0, high=MAX_SEED))
    optional: bool = False  # skip (with a note) instead of failing when the files are absent
    #: keep only the first N tasks (a smoke run of a big plan)
    limit: int | None = attrs.field(default=None, validator=count())
    #: keep only targets filed under these StarDepths
    star_depths: tuple[int, ...] | None = attrs.field(default=None, validator=distinct_depths)


@attrs.frozen
class ArmSpec:
    """One row of the experiment's tables: a learner under one loop protocol.

    ``protocol`` ``paper`` is the seed paper's (≤ 8 initial, ≤ 12 epochs of ≤ 250 counterexamples);
    ``one-shortest`` shows one shortest counterexample per epoch (≤ 100 epochs), the protocol that
    measures sample efficiency.
    """

    name: str = attrs.field(validator=path_name)
    learner: str
    setting: str | None = None  # the LLM setting when learner == "llm"
    protocol: Protocol = "paper"
    clustered: bool = True
    mode: SamplingMode | None = None  # teacher sampling mode; None: the protocol's
    batch: int | None = attrs.field(default=None, validator=count(high=MAX_BATCH))
    epochs: int | None = attrs.field(default=None, validator=count(high=MAX_EPOCHS))
    profile: Profile | None = None  # overrides the experiment's teacher_profile
    #: llm arms: the model asked (default: the server's, or /v1/models)
    model: str | None = attrs.field(default=None, validator=model_id)
    reasoning_effort: ReasoningEffort | None = None  # llm arms: overrides the setting's
    #: llm arms: overrides the setting's
    max_completion_tokens: int | None = attrs.field(
        default=None, validator=count(high=MAX_COMPLETION_TOKENS)
    )
    #: the datasets (by name) the arm runs on; None: every one
    datasets: tuple[str, ...] | None = attrs.field(default=None, validator=some_names)
    constrained: bool = False  # llm arms: constrain replies to the answer grammar
    #: llm arms: the strategy section (``strategy_file``, read at load, or written inline)
    strategy_text: str | None = None
    strategy_file: str | None = None

    @property
    def is_llm(self) -> bool:
        """Whether the arm asks a model."""
        return self.learner == LLM


@attrs.frozen
class ServerSpec:
    """An OpenAI-compatible endpoint, how many calls it takes at once and how long they may take:
    ``connect_timeout`` to open a connection, ``read_timeout`` without a byte from the server (a
    non-streamed reply sends nothing until it is complete, so this bounds one attempt),
    ``call_timeout`` for a whole call with its retries (seconds)."""

    base_url: str = attrs.field(converter=normalize_base_url)  # ConfigError when unusable
    concurrency: int = attrs.field(default=8, validator=count(high=MAX_SERVER_CONCURRENCY))
    model: str | None = attrs.field(default=None, validator=model_id)
    #: The variable the key is read from (never from the file): a name ending in ``_API_KEY``,
    #: which must be set; None reads ``OPENAI_API_KEY`` when set, else sends no key.
    api_key_env: str | None = attrs.field(default=None, validator=key_variable)
    connect_timeout: float = attrs.field(default=10.0, converter=as_float, validator=seconds)
    read_timeout: float = attrs.field(default=600.0, converter=as_float, validator=seconds)
    call_timeout: float = attrs.field(default=1200.0, converter=as_float, validator=seconds)


def _seed_list(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not integers(value, 0, MAX_SEED) or not 1 <= len(value) <= MAX_SEEDS:
        raise PlanError(
            f"seeds must be a count or a list of 1 to {MAX_SEEDS} integers in 0..{MAX_SEED},"
            f" not {written(value)}"
        )
    if len(set(value)) != len(value):
        raise PlanError(f"seeds lists a seed twice: {written(value)}")


@attrs.frozen
class Plan:
    """A whole experiment: every (task, arm, seed) combination is one unit of work."""

    name: str = attrs.field(validator=path_name)
    datasets: tuple[DatasetSpec, ...]
    arms: tuple[ArmSpec, ...]
    seeds: tuple[int, ...] = attrs.field(default=(0,), validator=_seed_list)
    teacher_profile: Profile = "improved"
    servers: tuple[ServerSpec, ...] = ()
    #: symbolic units run in this many worker processes
    concurrency: int = attrs.field(default=2, validator=count(high=MAX_CONCURRENCY))
    token_budget: int | None = attrs.field(default=None, validator=count())
    description: str = ""
    #: USD per million tokens for the report's cost table: ``prompt``, ``cached_prompt``, ``completion``.
    price: Mapping[str, float] | None = attrs.field(default=None, validator=price)

    @property
    def needs_model(self) -> bool:
        """Whether any arm asks a model."""
        return any(arm.is_llm for arm in self.arms)


named_by_validator(DatasetSpec, ArmSpec, Plan)


def arm_setting(arm: ArmSpec) -> LLMSetting | None:
    """The LLM setting of an llm arm, with the arm's sampling overrides; None for symbolic arms."""
    if not arm.is_llm or arm.setting is None:
        return None
    setting = SETTINGS[arm.setting]
    sampling = setting.sampling
    if arm.reasoning_effort is not None:
        sampling = attrs.evolve(sampling, reasoning_effort=arm.reasoning_effort)
    if arm.max_completion_tokens is not None:
        sampling = attrs.evolve(sampling, max_completion_tokens=arm.max_completion_tokens)
    if sampling != setting.sampling:
        setting = attrs.evolve(setting, sampling=sampling)
    if arm.epochs is not None and setting.turns is not None:  # the arm's epochs are the turns
        setting = attrs.evolve(setting, turns=arm.epochs)
    if arm.constrained:
        setting = attrs.evolve(setting, constrained=True)
    if arm.strategy_text is not None:
        setting = attrs.evolve(setting, strategy_text=arm.strategy_text)
    return setting


def loop_config(plan: Plan, arm: ArmSpec, seed: int) -> LoopConfig:
    """The loop settings of one arm at one seed: the protocol's defaults, then the arm's overrides."""
    profile = arm.profile or plan.teacher_profile
    teacher = TeacherConfig.cegml() if profile == "cegml" else TeacherConfig()
    if arm.protocol == "one-shortest":
        teacher = attrs.evolve(teacher, mode="shortest", batch=1)
        epochs: int | None = 100
    else:
        epochs = 12
    teacher = attrs.evolve(teacher, clustered=arm.clustered)
    if arm.mode is not None:
        teacher = attrs.evolve(teacher, mode=arm.mode)
    if arm.batch is not None:
        teacher = attrs.evolve(teacher, batch=arm.batch)
    if arm.epochs is not None:
        epochs = arm.epochs
    return LoopConfig(teacher=teacher, budgets=Budgets(epochs=epochs), seed=seed)


def load_plan(path: Path) -> Plan:
    """The experiment in the TOML file ``path``; raises :class:`PlanError` naming what is wrong."""
    try:
        data = tomllib.loads(read_regular(path, MAX_PLAN_BYTES).decode("utf-8"))
    except OSError as error:
        raise PlanError(f"cannot read experiment file {path}: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PlanError(f"{path} is not valid TOML: {error}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise PlanError(f"{path} nests arrays or tables too deeply to read") from None
    try:
        return plan_from_data(data, default_name=path.stem)
    except PlanError as error:
        raise PlanError(f"{path}: {error}") from None


_TABLES = ("datasets", "arms", "servers")


def plan_from_data(data: Mapping[str, Any], *, default_name: str = "experiment") -> Plan:
    """The experiment described by parsed TOML ``data``; every field's type and range is checked."""
    header = {key: value for key, value in data.items() if key not in _TABLES}
    header.setdefault("name", default_name)
    seeds = header.get("seeds")
    if isinstance(seeds, int) and not isinstance(seeds, bool):  # a count of seeds
        if not 1 <= seeds <= MAX_SEEDS:
            raise PlanError(f"seeds as a count must be 1 to {MAX_SEEDS}, not {seeds}")
        header["seeds"] = list(range(seeds))
    plan = structure(header | {"datasets": [], "arms": []}, Plan, "")
    datasets = tuple(_dataset(d, i) for i, d in enumerate(_tables(data, "datasets")))
    arms = tuple(_arm(a, i) for i, a in enumerate(_tables(data, "arms")))
    for field, items in (("dataset", [d.name for d in datasets]), ("arm", [a.name for a in arms])):
        normalized = [name.casefold() for name in items]
        if len(set(normalized)) != len(normalized):
            raise PlanError(
                f"two {field}s share a name (names are compared ignoring case); give each a distinct name"
            )
    for arm in arms:
        unknown = set(arm.datasets or ()) - {d.name for d in datasets}
        if unknown:
            raise PlanError(
                f"arm {arm.name!r}: datasets {sorted(unknown)} are not datasets of the experiment"
            )
    servers = tuple(_server(s, i) for i, s in enumerate(_tables(data, "servers", required=False)))
    return attrs.evolve(plan, datasets=datasets, arms=arms, servers=servers)


def _tables(data: Mapping[str, Any], key: str, *, required: bool = True) -> list[Mapping[str, Any]]:
    tables = data.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise PlanError(f"{key} must be an array of tables ([[{key}]])")
    if required and not tables:
        raise PlanError(f"an experiment needs at least one [[{key}]] table")
    return tables


def _dataset(table: Mapping[str, Any], index: int) -> DatasetSpec:
    # named after its list or kind; a name taken from a refused value is never used
    kind, listed = table.get("kind"), table.get("list")
    named = listed if kind == "paper-list" and isinstance(listed, str) else kind
    default = {"name": named} if isinstance(named, str) else {}
    return structure(default | dict(table), DatasetSpec, f"[[datasets]] #{index + 1}")


def _arm(table: Mapping[str, Any], index: int) -> ArmSpec:
    where = f"[[arms]] #{index + 1}"
    learner = table.get("learner")
    if not isinstance(learner, str):
        raise PlanError(
            f"{where}: learner must be a string: 'llm', a registered learner or package.module:factory"
        )
    if learner != LLM:
        try:
            spec(learner)
        except UnknownLearner as error:
            raise PlanError(f"{where}: {error} (or 'llm', a model)") from None
        except BrokenLearner as error:  # its factory raised or exited
            raise PlanError(f"{where}: {error}") from None
    setting = table.get("setting")
    if learner == LLM and not (isinstance(setting, str) and setting in SETTINGS):
        raise PlanError(f"{where}: an llm arm needs setting = one of {', '.join(SETTINGS)}")
    if learner != LLM and setting is not None:
        raise PlanError(f"{where}: setting applies to llm arms only")
    named = setting if learner == LLM else learner.rpartition(":")[2]
    arm = structure({"name": named} | dict(table), ArmSpec, where)
    llm_only = [
        *("model", "reasoning_effort", "max_completion_tokens"),
        *("constrained", "strategy_text", "strategy_file"),
    ]
    if not arm.is_llm and any(table.get(f) is not None for f in llm_only):
        raise PlanError(f"{where}: {', '.join(llm_only)} apply to llm arms only")
    if arm.strategy_file is not None and arm.strategy_text is not None:
        raise PlanError(f"{where}: give strategy_file or strategy_text, not both")
    if arm.strategy_file is not None:
        try:
            arm = attrs.evolve(arm, strategy_text=read_strategy(Path(arm.strategy_file)))
        except StrategyFileError as error:
            raise PlanError(f"{where}: {error}") from None
    setting = SETTINGS[arm.setting] if arm.is_llm and arm.setting is not None else None
    if setting is not None and not setting.counterexamples and arm.epochs is not None:
        raise PlanError(
            f"{where}: setting {arm.setting!r} runs one epoch per size of its sample schedule"
            f" (3 → {setting.sample_total}), so it cannot honour epochs; remove it"
        )
    try:  # the teacher validates mode and the rest at construction
        loop_config(Plan("check", (), (arm,)), arm, 0)
    except (ValueError, TypeError) as error:
        raise PlanError(f"{where}: {error}") from None
    return arm


def _server(table: Mapping[str, Any], index: int) -> ServerSpec:
    where = f"[[servers]] #{index + 1}"
    try:
        return structure(table, ServerSpec, where)
    except ConfigError as error:  # the only one: the base URL's normalisation
        raise PlanError(f"{where}: base_url: {error}") from None
