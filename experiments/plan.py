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
2's one row per backbone), a ``reasoning_effort`` and a ``max_completion_tokens``; its calls go to
the servers that serve that model (those whose ``model`` is unset or equal).

Every field of an arm that is not the learner's own (protocol, batch, epochs, clustered, mode, ...)
becomes a field of the run's :class:`cegis.config.LoopConfig`, so two arms differ by data only.
:func:`load_plan` validates everything before a single run starts (every field's type and range;
names, which become directory names, as safe path components unique ignoring case) and names the
file and the field in its :class:`PlanError`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast, get_args

import attrs

from cegis.config import Budgets, LoopConfig
from cegis.llm.settings import SETTINGS, LLMSetting
from cegis.registry import UnknownLearner, spec
from experiments.strategy_file import StrategyFileError, read_strategy
from llm.chat import ReasoningEffort
from llm.config import normalize_base_url
from llm.errors import ConfigError
from oracle.config import PROFILES, Profile, TeacherConfig
from oracle.protocol import SamplingMode

DatasetKind = Literal["generated", "paper-list", "kb13-extended", "nl-rx-turk", "kb13-python"]
Protocol = Literal["paper", "one-shortest"]
LLM = "llm"


class PlanError(ValueError):
    """An experiment file that cannot be run, with the file and the field at fault."""


@attrs.frozen
class DatasetSpec:
    """One dataset of an experiment: its kind, its file (None: the default location) and size."""

    kind: DatasetKind
    name: str
    path: Path | None = None
    list: str | None = None  # paper-list: simplyrx or extrx
    per_cell: int | None = None  # generated / paper-list: targets per (#States, StarDepth) cell
    size: int | None = None  # nl-rx-turk / kb13-python: tasks sampled; kb13-extended: first N
    seed: int = 0
    optional: bool = False  # skip (with a note) instead of failing when the files are absent
    limit: int | None = None  # keep only the first N tasks (a smoke run of a big plan)
    star_depths: tuple[int, ...] | None = None  # keep only targets filed under these StarDepths


@attrs.frozen
class ArmSpec:
    """One row of the experiment's tables: a learner under one loop protocol.

    ``protocol`` ``paper`` is the seed paper's (≤ 8 initial, ≤ 12 epochs of ≤ 250 counterexamples);
    ``one-shortest`` shows one shortest counterexample per epoch (≤ 100 epochs), the protocol that
    measures sample efficiency.
    """

    name: str
    learner: str
    setting: str | None = None  # the LLM setting when learner == "llm"
    protocol: Protocol = "paper"
    clustered: bool = True
    mode: SamplingMode | None = None  # teacher sampling mode; None: the protocol's
    batch: int | None = None
    epochs: int | None = None
    profile: Profile | None = None  # overrides the experiment's teacher_profile
    model: str | None = None  # llm arms: the model asked (default: the server's, or /v1/models)
    reasoning_effort: ReasoningEffort | None = None  # llm arms: overrides the setting's
    max_completion_tokens: int | None = None  # llm arms: overrides the setting's
    constrained: bool = False  # llm arms: constrain replies to the answer grammar
    #: llm arms: the strategy section (``strategy_file``, read at load, or written inline)
    strategy_text: str | None = None
    strategy_file: str | None = None
    datasets: tuple[str, ...] | None = (
        None  # the datasets (by name) the arm runs on; None: every one
    )

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

    base_url: str
    concurrency: int = 8
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"  # the key is read from this variable, never from the file
    connect_timeout: float = 10.0
    read_timeout: float = 600.0
    call_timeout: float = 1200.0


@attrs.frozen
class Plan:
    """A whole experiment: every (task, arm, seed) combination is one unit of work."""

    name: str
    datasets: tuple[DatasetSpec, ...]
    arms: tuple[ArmSpec, ...]
    seeds: tuple[int, ...] = (0,)
    teacher_profile: Profile = "improved"
    servers: tuple[ServerSpec, ...] = ()
    concurrency: int = 2  # symbolic units run in this many worker processes
    token_budget: int | None = None
    description: str = ""
    #: USD per million tokens for the report's cost table: ``prompt``, ``cached_prompt``, ``completion``.
    price: Mapping[str, float] | None = None

    @property
    def needs_model(self) -> bool:
        """Whether any arm asks a model."""
        return any(arm.is_llm for arm in self.arms)


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
        if path.exists() and not path.is_file():
            raise PlanError(f"experiment file {path} is not a regular file")
        if path.is_file() and path.stat().st_size > MAX_PLAN_BYTES:
            raise PlanError(f"experiment file {path} is larger than {MAX_PLAN_BYTES:,} bytes")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
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


def plan_from_data(data: Mapping[str, Any], *, default_name: str = "experiment") -> Plan:
    """The experiment described by parsed TOML ``data``; every field's type and range is checked."""
    known = {
        "name",
        "description",
        "seeds",
        "teacher_profile",
        "datasets",
        "arms",
        "servers",
        "concurrency",
        "token_budget",
        "price",
    }
    _no_unknown(data, known, "the experiment")
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
    profile = data.get("teacher_profile", "improved")
    if profile not in PROFILES:
        raise PlanError(f"teacher_profile {profile!r} is not one of {', '.join(PROFILES)}")
    return Plan(
        name=safe_name(data.get("name", default_name), "name"),
        datasets=datasets,
        arms=arms,
        seeds=_seeds(data.get("seeds", [0])),
        teacher_profile=profile,
        servers=servers,
        concurrency=_int(data, "concurrency", "concurrency", 2, high=MAX_CONCURRENCY),
        token_budget=_int(data, "token_budget", "token_budget", None),
        description=_str(data, "description", "description", ""),
        price=_price(data.get("price")),
    )


#: The limits of a plan's values: each is far above any experiment of the papers.
MAX_PLAN_BYTES = 1_000_000
MAX_SEEDS = 1000
MAX_SEED = 2**32 - 1
MAX_CONCURRENCY = 256
MAX_PER_CELL = 1000
MAX_SIZE = 100_000
MAX_EPOCHS = 10_000
MAX_BATCH = 100_000
MAX_NAME = 100
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")


def safe_name(value: object, field: str) -> str:
    """``value`` if it is a name safe as one path component: letters, digits, ``. _ + -``, not
    starting with a dot, at most 100 characters; raises :class:`PlanError` naming ``field``."""
    if (
        not isinstance(value, str)
        or not value
        or len(value) > MAX_NAME
        or value.startswith(".")
        or not set(value) <= _NAME_CHARACTERS
    ):
        raise PlanError(
            f"{field} must be 1 to {MAX_NAME} letters, digits, '.', '_', '+' or '-' not starting with '.' (it names"
            f" a directory), not {value!r}"
        )
    return value


def _seeds(value: object) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= MAX_SEEDS:
            raise PlanError(f"seeds as a count must be 1 to {MAX_SEEDS}, not {value}")
        return tuple(range(value))
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= MAX_SEEDS
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SEED for s in value
        )
    ):
        raise PlanError(
            f"seeds must be a count or a list of 1 to {MAX_SEEDS} integers in 0..{MAX_SEED}, not {value!r}"
        )
    if len(set(value)) != len(value):
        raise PlanError(f"seeds lists a seed twice: {value!r}")
    return tuple(value)


def _price(table: object) -> dict[str, float] | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise PlanError(
            "price must be a table: [price] prompt = ..., cached_prompt = ..., completion = ..."
            " (USD per million tokens)"
        )
    _no_unknown(table, {"prompt", "cached_prompt", "completion"}, "[price]")
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise PlanError(
                f"[price] {key} must be a number >= 0 (USD per million tokens), got {value!r}"
            )
    return {key: float(value) for key, value in table.items()}


def _tables(data: Mapping[str, Any], key: str, *, required: bool = True) -> list[Mapping[str, Any]]:
    tables = data.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise PlanError(f"{key} must be an array of tables ([[{key}]])")
    if required and not tables:
        raise PlanError(f"an experiment needs at least one [[{key}]] table")
    return tables


def _no_unknown(table: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise PlanError(
            f"{where} has unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )


def _int(
    table: Mapping[str, Any],
    key: str,
    field: str,
    default: int | None,
    *,
    low: int = 1,
    high: int | None = None,
) -> Any:
    """``table[key]`` as an integer in ``low..high`` (``default`` when absent)."""
    value = table.get(key)
    if value is None:
        return default
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise PlanError(f"{field} must be an integer {span}, not {value!r}")
    return value


def _float(table: Mapping[str, Any], key: str, field: str, default: float) -> float:
    value = table.get(key, default)
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 86_400:
        raise PlanError(f"{field} must be a number of seconds in (0, 86400], not {value!r}")
    return float(value)


def _names(table: Mapping[str, Any], key: str, field: str) -> tuple[str, ...] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(item, str) for item in value):
        raise PlanError(f"{field} must be a non-empty list of dataset names, not {value!r}")
    return tuple(value)


def _str(table: Mapping[str, Any], key: str, field: str, default: Any) -> Any:
    value = table.get(key)
    if value is None:
        return default
    if not isinstance(value, str) or "\0" in value:
        raise PlanError(f"{field} must be a string without NUL characters, not {value!r}")
    return value


def _bool(table: Mapping[str, Any], key: str, field: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise PlanError(f"{field} must be true or false, not {value!r}")
    return value


def _dataset(table: Mapping[str, Any], index: int) -> DatasetSpec:
    where = f"[[datasets]] #{index + 1}"
    _no_unknown(table, {f.name for f in attrs.fields(DatasetSpec)}, where)
    kind = cast(DatasetKind, table.get("kind"))
    if kind not in get_args(DatasetKind):
        raise PlanError(f"{where}: kind {kind!r} is not one of {', '.join(get_args(DatasetKind))}")
    if kind == "paper-list" and table.get("list") not in ("simplyrx", "extrx"):
        raise PlanError(f'{where}: a paper-list dataset needs list = "simplyrx" or "extrx"')
    if kind != "paper-list" and table.get("list") is not None:
        raise PlanError(f"{where}: list applies to paper-list datasets only")
    depths = table.get("star_depths")
    if depths is not None and (
        not isinstance(depths, list)
        or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 100 for d in depths)
        or len(set(depths)) != len(depths)
    ):
        raise PlanError(
            f"{where}: star_depths must be a list of distinct integers 0..100, not {depths!r}"
        )
    default = kind if kind != "paper-list" else str(table["list"])
    path = _str(table, "path", f"{where}: path", None)
    return DatasetSpec(
        kind=kind,
        name=safe_name(table.get("name", default), f"{where}: name"),
        path=None if path is None else Path(path).expanduser(),
        list=table.get("list"),
        per_cell=_int(table, "per_cell", f"{where}: per_cell", None, high=MAX_PER_CELL),
        size=_int(table, "size", f"{where}: size", None, high=MAX_SIZE),
        seed=_int(table, "seed", f"{where}: seed", 0, low=0, high=MAX_SEED),
        optional=_bool(table, "optional", f"{where}: optional", False),
        limit=_int(table, "limit", f"{where}: limit", None),
        star_depths=None if depths is None else tuple(depths),
    )


def _arm(table: Mapping[str, Any], index: int) -> ArmSpec:
    where = f"[[arms]] #{index + 1}"
    _no_unknown(table, {f.name for f in attrs.fields(ArmSpec)}, where)
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
        except Exception as error:  # noqa: BLE001 - a user's factory may raise anything
            raise PlanError(
                f"{where}: the factory {learner} failed: {type(error).__name__}: {error}"
            ) from None
    setting = table.get("setting")
    if learner == LLM and setting not in SETTINGS:
        raise PlanError(f"{where}: an llm arm needs setting = one of {', '.join(SETTINGS)}")
    if learner != LLM and setting is not None:
        raise PlanError(f"{where}: setting applies to llm arms only")
    if table.get("protocol", "paper") not in get_args(Protocol):
        raise PlanError(f"{where}: protocol must be one of {', '.join(get_args(Protocol))}")
    if table.get("profile") not in (None, *PROFILES):
        raise PlanError(f"{where}: profile must be one of {', '.join(PROFILES)}")
    if table.get("reasoning_effort") not in (None, *get_args(ReasoningEffort)):
        raise PlanError(
            f"{where}: reasoning_effort must be one of {', '.join(get_args(ReasoningEffort))}"
        )
    llm_only = [
        *("model", "reasoning_effort", "max_completion_tokens"),
        *("constrained", "strategy_text", "strategy_file"),
    ]
    if learner != LLM and any(table.get(f) is not None for f in llm_only):
        raise PlanError(f"{where}: {', '.join(llm_only)} apply to llm arms only")
    strategy_file = _str(table, "strategy_file", f"{where}: strategy_file", None)
    strategy_text = _str(table, "strategy_text", f"{where}: strategy_text", None)
    if strategy_file is not None and strategy_text is not None:
        raise PlanError(f"{where}: give strategy_file or strategy_text, not both")
    if strategy_file is not None:
        try:
            strategy_text = read_strategy(Path(strategy_file))
        except StrategyFileError as error:
            raise PlanError(f"{where}: {error}") from None
    fixed = learner == LLM and isinstance(setting, str) and not SETTINGS[setting].counterexamples
    if fixed and table.get("epochs") is not None:
        raise PlanError(
            f"{where}: setting {setting!r} runs one epoch per size of its sample schedule (3 → 3000),"
            " so it cannot honour epochs; remove it"
        )
    if table.get("mode") is not None and not isinstance(table["mode"], str):
        raise PlanError(f"{where}: mode must be a string, not {table['mode']!r}")
    arm = ArmSpec(
        name=safe_name(
            table.get("name", setting if learner == LLM else learner.rpartition(":")[2]),
            f"{where}: name",
        ),
        learner=learner,
        setting=setting,
        protocol=table.get("protocol", "paper"),
        clustered=_bool(table, "clustered", f"{where}: clustered", True),
        mode=table.get("mode"),
        batch=_int(table, "batch", f"{where}: batch", None, high=MAX_BATCH),
        epochs=_int(table, "epochs", f"{where}: epochs", None, high=MAX_EPOCHS),
        profile=table.get("profile"),
        model=_str(table, "model", f"{where}: model", None),
        reasoning_effort=table.get("reasoning_effort"),
        max_completion_tokens=_int(
            table, "max_completion_tokens", f"{where}: max_completion_tokens", None, high=10_000_000
        ),
        datasets=_names(table, "datasets", f"{where}: datasets"),
        constrained=_bool(table, "constrained", f"{where}: constrained", False),
        strategy_text=strategy_text,
        strategy_file=strategy_file,
    )
    try:  # the teacher validates mode and the rest at construction
        loop_config(Plan("check", (), (arm,)), arm, 0)
    except (ValueError, TypeError) as error:
        raise PlanError(f"{where}: {error}") from None
    return arm


def _server(table: Mapping[str, Any], index: int) -> ServerSpec:
    where = f"[[servers]] #{index + 1}"
    _no_unknown(table, {f.name for f in attrs.fields(ServerSpec)}, where)
    url = _str(table, "base_url", f"{where}: base_url", None)
    if url is None:
        raise PlanError(f"{where}: base_url is required")
    try:
        url = normalize_base_url(url)
    except ConfigError as error:
        raise PlanError(f"{where}: base_url: {error}") from None
    key_env = _str(table, "api_key_env", f"{where}: api_key_env", "OPENAI_API_KEY")
    if not key_env or "=" in key_env:
        raise PlanError(f"{where}: api_key_env must name an environment variable, not {key_env!r}")
    defaults = ServerSpec(url)
    return ServerSpec(
        url,
        _int(table, "concurrency", f"{where}: concurrency", defaults.concurrency, high=4096),
        _str(table, "model", f"{where}: model", None),
        key_env,
        _float(table, "connect_timeout", f"{where}: connect_timeout", defaults.connect_timeout),
        _float(table, "read_timeout", f"{where}: read_timeout", defaults.read_timeout),
        _float(table, "call_timeout", f"{where}: call_timeout", defaults.call_timeout),
    )
