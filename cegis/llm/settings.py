"""Every LLM setting of the papers as one frozen value, so an ablation table is a set of configs.

One :class:`LLMSetting` configures one :class:`cegis.llm.learner.LLMLearner`; its switches give
each setting the papers evaluate (seed paper Sec. 4-5 and Appendix D; A-CEGIS; SEVerA's FGGM):

* **Standard**: no counterexamples, random labeled samples growing on a log scale (3 → 3000); the
  run succeeds at the first size whose proposal is equivalent. The learner makes one plain draw per
  epoch; the schedule is its teacher's (:class:`cegis.llm.setup.SampleSchedule`). ``standard-96``
  (a named setting, not the paper's) stops the log scale at 96 strings, 6 epochs: a small local
  model's context holds that sample (SmolLM2-135M: some 1,800 prompt tokens), where the paper's
  192 → 3000 strings outgrow it and those calls are never sent.
* **Single**: one draw per epoch on the accumulated (clustered) counterexamples, regularization on
  or off.
* **Agentic**: Single plus reflection on the previous epoch and a repair loop, keeping the
  candidate with the best RepairScore. Its ``repair_budget`` is the number of model calls an epoch
  may make *in total*, the first draw included: 3, as in the paper (Appendix D) and its code, so
  an Agentic epoch makes at most 3 calls (1 + 2 repairs).
* **Multi-candidate repair** (Sec. 5.6): reflection, and ``candidates`` regexes in each call, of
  which only the best by RepairScore (the earlier among equals) meets the teacher. The
  paper's form (``multi``) asks for up to 10 ``<ans>`` blocks in one reply, one call per epoch as
  in the paper's code; ``multi-n`` (the ``n`` choices of one request) and ``multi-calls``
  (separate seeded calls) are named variants that sample at temperature 1, since greedy decoding
  has one answer (a setting asking for them at temperature 0 is refused when it is made).
* **A-CEGIS**: a natural-language description instead of examples, with the feedback strategy
  ``zero_shot``, ``generic``, ``error_only`` or ``diagnostic``; the turn budget and hardening cycles
  shape the run (:mod:`cegis.llm.acegis`).
* **Prompt ablation** (seed paper Table 6): ``syntax``, ``input_format``, ``strategy`` and
  ``chain_of_thought`` drop the regex syntax, the input-format instruction, the GEPA strategy and
  the request for reasoning before the answer from the example prompt; the answer format (the
  regex inside ``<ans>``) stays, as in the paper's code.
* **Constrained answers** (``constrained``, a named option beside every protocol): each request
  carries the grammar of the answer block (:mod:`cegis.llm.answer_grammar`), so a server that
  constrains decoding (llama.cpp, vLLM, SGLang) returns ``<ans>`` and a regex that parses; a
  reply outside the grammar is recorded as the server's deviation.
* **Guarded**: the proposal step as a formally guarded call: up to ``guard.draws`` draws checked
  against a contract (parses, alphabet, regularization bounds, consistency with every example),
  each rejection's failing checks fed back (stateful) or not (stateless: K samples of one prompt,
  so it samples at temperature 1; at temperature 0 it is refused when it is made), and a verified
  symbolic fallback when every draw fails.

Sampling (temperature, seed, completion budget, reasoning effort) is part of the setting, so two
runs with equal settings send equal requests, which is what the call log keys on.
"""

from __future__ import annotations

from typing import Literal

import attrs

from cegis.llm.prompts import EXTENDED_REGULARIZATION, SIMPLE_REGULARIZATION, Regularization
from llm.chat import ReasoningEffort, SamplingParams, StructuredOutput
from oracle.testsuite import SuiteConfig
from regexlang.dialects import Dialect

PromptKind = Literal["examples", "description"]
FeedbackStrategy = Literal["zero_shot", "generic", "error_only", "diagnostic"]
CandidateSource = Literal["reply", "n", "calls"]
OverflowPolicy = Literal["fail", "newest"]

#: The regularization bounds of the reference prompts, by dialect (python has none in the papers).
REGULARIZATION: dict[Dialect, Regularization] = {
    "simple": SIMPLE_REGULARIZATION,
    "extended": EXTENDED_REGULARIZATION,
    "python": EXTENDED_REGULARIZATION,
}


@attrs.frozen
class Sampling:
    """How every call of a setting samples; the seed paper's defaults (temperature 0, 32768 tokens)."""

    temperature: float | None = 0.0
    seed: int | None = None
    max_completion_tokens: int = 32768
    reasoning_effort: ReasoningEffort | None = None

    def params(
        self, *, sample_index: int, n: int = 1, structured: StructuredOutput | None = None
    ) -> SamplingParams:
        """The request parameters of sample ``sample_index``. Every request carries a seed derived
        from it (``seed`` + ``sample_index``), so distinct samples are distinct draws on a server
        that samples, and a repeated run asks for the same ones; ``structured`` constrains the
        reply (constrained answers)."""
        return SamplingParams(
            max_completion_tokens=self.max_completion_tokens,
            temperature=self.temperature,
            seed=(self.seed or 0) + sample_index,
            n=n,
            reasoning_effort=self.reasoning_effort,
            structured=structured,
        )


@attrs.frozen
class Guard:
    """SEVerA's guard on the proposal step: ``draws`` tries (K), stateful feedback, the fallbacks.

    ``fallbacks`` name symbolic learners of :mod:`cegis.registry`, tried in order; the union of
    positives should come last since it is consistent whenever anything is. Without ``draw_all``
    the draws stop at the first that meets the contract (SEVerA's rejection sampler), and the
    report shows no conformance for them: SEVerA's conformance (Eq. 21) is the fraction of K
    samples per prompt that meet the contract, which only ``draw_all`` measures.
    """

    draws: int = attrs.field(
        default=5, validator=[attrs.validators.ge(1), attrs.validators.lt(100)]
    )
    stateful: bool = True
    fallbacks: tuple[str, ...] = ("symbolic", "union")
    #: Draw all K every time, even after a conforming draw (the first conforming one still answers),
    #: so the conformance rate measures K draws per proposal, as SEVerA's conformance reward does.
    draw_all: bool = False


@attrs.frozen
class LLMSetting:
    """One LLM learner configuration; see the module doc for what each switch reproduces."""

    name: str
    prompt: PromptKind = "examples"
    counterexamples: bool = True
    clustered: bool = True
    regularization: bool = True
    reflection: bool = False
    #: Model calls (draw rounds) one epoch may make in total, the first draw included.
    repair_budget: int = attrs.field(
        default=1, validator=[attrs.validators.ge(1), attrs.validators.lt(100)]
    )
    #: How many misclassified examples a repair prompt shows at most (the reference code's 16).
    repair_shown: int = attrs.field(default=16, validator=attrs.validators.ge(1))
    candidates: int = attrs.field(
        default=1, validator=[attrs.validators.ge(1), attrs.validators.lt(100)]
    )
    candidate_source: CandidateSource = "n"
    feedback: FeedbackStrategy = "diagnostic"
    turns: int | None = None
    hardening_cycles: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    exact: bool = False
    guard: Guard | None = None
    #: Prompt components (seed paper Table 6): the input-format instruction, the GEPA strategy and
    #: the request to reason before answering (off: the regex alone in ``<ans>``).
    input_format: bool = True
    strategy: bool = True
    chain_of_thought: bool = True
    syntax: bool = True  # the regex syntax section (off: the naive and input-only prompts)
    #: Prompt and completion tokens one proposal may spend before it stops with a ``budget`` failure.
    proposal_tokens: int | None = None
    #: What happens when the examples no longer fit the model's context: ``fail`` (the paper: the
    #: call is a ``budget`` failure and the epoch adds random examples) or ``newest`` (show the
    #: newest half of the examples and an even sample of the older ones, halving until the prompt
    #: fits, and say so in the prompt). Recorded with the setting; the cuts in the epoch's memo.
    overflow: OverflowPolicy = "fail"
    #: Standard's last sample size: its sizes run 3 → ``sample_total`` on a log scale (the paper's
    #: 3000, Appendix D); ignored by the settings that learn from counterexamples.
    sample_total: int = attrs.field(default=3000, validator=attrs.validators.ge(3))
    #: Constrain every reply to the grammar of the answer block (not in the papers: a named option).
    constrained: bool = False
    #: The strategy section's text when a learn step (``python -m cli optimize``) wrote it for the
    #: user's model; None: the paper's (:func:`cegis.llm.prompt_sections.strategy`).
    strategy_text: str | None = None
    sampling: Sampling = Sampling()
    #: The hidden-test suite of a description setting (A-CEGIS: 12 + 12 tests, 3 witnesses per
    #: direction); recorded with the setting, so a report rebuilds the suite the run saw.
    suite: SuiteConfig = SuiteConfig()

    def __attrs_post_init__(self) -> None:
        temperature = self.sampling.temperature
        if temperature is None or temperature > 0:
            return
        if self.candidates > 1 and self.candidate_source != "reply":
            raise ValueError(
                f"setting {self.name!r}: {self.candidates} candidates from candidate_source = {self.candidate_source!r}"
                f" need sampling.temperature > 0 (got {temperature}); greedy decoding has one answer, and vLLM"
                " refuses n > 1 at temperature 0"
            )
        if self.guard is not None and not self.guard.stateful and self.guard.draws > 1:
            raise ValueError(
                f"setting {self.name!r}: a stateless guard's {self.guard.draws} draws resend one prompt and"
                f" need sampling.temperature > 0 (got {temperature}); greedy decoding ignores the seed, so"
                " they would be copies of one sample"
            )

    @property
    def attempts(self) -> int:
        """Draw rounds per proposal: the guard's K, else the repair budget."""
        return self.guard.draws if self.guard is not None else self.repair_budget

    def sample_sizes(self) -> tuple[int, ...]:
        """Standard's sample sizes, one per epoch: 3 → ``sample_total`` on a log scale."""
        return log_scale_sizes(total=self.sample_total)

    def regularization_for(self, dialect: Dialect) -> Regularization | None:
        """The bounds this setting puts in the prompt (and the guard enforces) for ``dialect``."""
        return REGULARIZATION[dialect] if self.regularization else None

    def to_json(self) -> dict[str, object]:
        """The setting as plain JSON data."""
        return attrs.asdict(self)


def _presets() -> dict[str, LLMSetting]:
    standard = LLMSetting("standard", counterexamples=False, clustered=False)
    agentic = LLMSetting("agentic", reflection=True, repair_budget=3)
    multi = attrs.evolve(
        agentic, name="multi", candidates=10, candidate_source="reply", repair_budget=1
    )
    acegis = LLMSetting(
        "acegis-diagnostic", prompt="description", clustered=False, regularization=False, turns=4
    )
    guarded = LLMSetting("guarded", reflection=True, guard=Guard())
    # Table 6 adds prompt components one at a time to Single on plain counterexamples without
    # regularization, starting from the naive prompt (the task, the answer inside <ans>, the data,
    # as the paper's code); "input only" adds the input format alone, "output" the syntax alone.
    prompt = LLMSetting(
        "prompt-output",
        clustered=False,
        regularization=False,
        input_format=False,
        strategy=False,
        chain_of_thought=False,
    )
    settings = [
        attrs.evolve(prompt, name="prompt-naive", syntax=False),
        attrs.evolve(prompt, name="prompt-input-only", syntax=False, input_format=True),
        standard,
        attrs.evolve(standard, name="standard-96", sample_total=96),
        LLMSetting("single"),
        LLMSetting("single-noreg", regularization=False),
        LLMSetting("single-plain", clustered=False),
        agentic,
        attrs.evolve(agentic, name="agentic-plain", clustered=False),
        attrs.evolve(agentic, name="agentic-noreg", regularization=False),
        attrs.evolve(agentic, name="agentic-norefl", reflection=False),
        attrs.evolve(agentic, name="agentic-norepair", repair_budget=1),
        attrs.evolve(multi, name="multi"),
        attrs.evolve(
            multi, name="multi-n", candidate_source="n", sampling=Sampling(temperature=1.0)
        ),
        attrs.evolve(
            multi, name="multi-calls", candidate_source="calls", sampling=Sampling(temperature=1.0)
        ),
        attrs.evolve(acegis, name="acegis-zero-shot", feedback="zero_shot"),
        attrs.evolve(acegis, name="acegis-generic", feedback="generic"),
        attrs.evolve(acegis, name="acegis-error-only", feedback="error_only"),
        acegis,
        attrs.evolve(acegis, name="acegis-diagnostic-7", turns=7),
        attrs.evolve(acegis, name="acegis-full", turns=7, hardening_cycles=2),
        attrs.evolve(acegis, name="acegis-exact", turns=7, exact=True),
        guarded,
        # SEVerA's stateless rejection sampler draws K independent samples of one prompt: it samples,
        # and it draws all K, so its conformance is Eq. 21's fraction of K samples meeting the contract
        attrs.evolve(
            guarded,
            name="guarded-stateless",
            guard=Guard(stateful=False, draw_all=True),
            sampling=Sampling(temperature=1.0),
        ),
        # over all of Unicode (NL-RX) a clustered counterexample prints megabytes of classes
        attrs.evolve(guarded, name="guarded-plain", clustered=False),
        prompt,
        attrs.evolve(prompt, name="prompt-input", input_format=True),
        attrs.evolve(prompt, name="prompt-cot", input_format=True, chain_of_thought=True),
        attrs.evolve(
            prompt, name="prompt-strategy", input_format=True, chain_of_thought=True, strategy=True
        ),
    ]
    return {setting.name: setting for setting in settings}


#: The named settings, by name.
SETTINGS: dict[str, LLMSetting] = _presets()


def setting_named(name: str) -> LLMSetting:
    """The preset called ``name``; ``KeyError`` lists the known names."""
    try:
        return SETTINGS[name]
    except KeyError:
        raise KeyError(f"unknown LLM setting {name!r}; known: {', '.join(SETTINGS)}") from None


def log_scale_sizes(start: int = 3, total: int = 3000, factor: float = 2.0) -> tuple[int, ...]:
    """Standard's sample sizes: ``start`` multiplied by ``factor`` while below ``total``, then ``total``."""
    sizes = []
    size = start
    while size < total:
        sizes.append(size)
        size = max(size + 1, int(size * factor))
    return (*sizes, total)
