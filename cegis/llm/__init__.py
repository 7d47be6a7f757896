"""The LLM learner: the papers' settings (Standard, Single, Agentic, multi-candidate, A-CEGIS,
guarded), the prompts they send, the answers they read, and one assembly path for a run
(:func:`prepare_llm_run`). The transport (client, call log, server pool) is :mod:`llm`."""

from typing import TYPE_CHECKING

from llm.lazy import lazy_exports

if TYPE_CHECKING:
    from cegis.llm.answers import (
        AnswerError,
        Extraction,
        ParsedAnswer,
        extract,
        parse_answer,
        parse_candidates,
        parse_regex,
    )
    from cegis.llm.learner import LLMLearner
    from cegis.llm.prompts import (
        EXTENDED_REGULARIZATION,
        SIMPLE_REGULARIZATION,
        DiagnosticFeedback,
        ErrorCountFeedback,
        Feedback,
        GenericFeedback,
        NoFeedback,
        PromptSpec,
        Reflection,
        Regularization,
        Repair,
        description_prompt,
        example_prompt,
        example_system_prompt,
    )
    from cegis.llm.settings import SETTINGS, LLMSetting, setting_named
    from cegis.llm.setup import LLMSetupError, PreparedRun, prepare_llm_run, setting_config

_WHERE = {
    name: module
    for module, names in (
        (
            "cegis.llm.answers",
            (
                "AnswerError",
                "Extraction",
                "ParsedAnswer",
                "extract",
                "parse_answer",
                "parse_candidates",
                "parse_regex",
            ),
        ),
        ("cegis.llm.learner", ("LLMLearner",)),
        (
            "cegis.llm.prompts",
            (
                "EXTENDED_REGULARIZATION",
                "SIMPLE_REGULARIZATION",
                "DiagnosticFeedback",
                "ErrorCountFeedback",
                "Feedback",
                "GenericFeedback",
                "NoFeedback",
                "PromptSpec",
                "Reflection",
                "Regularization",
                "Repair",
                "description_prompt",
                "example_prompt",
                "example_system_prompt",
            ),
        ),
        ("cegis.llm.settings", ("SETTINGS", "LLMSetting", "setting_named")),
        ("cegis.llm.setup", ("LLMSetupError", "PreparedRun", "prepare_llm_run", "setting_config")),
    )
    for name in names
}
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "EXTENDED_REGULARIZATION",
    "SETTINGS",
    "SIMPLE_REGULARIZATION",
    "AnswerError",
    "DiagnosticFeedback",
    "ErrorCountFeedback",
    "Extraction",
    "Feedback",
    "GenericFeedback",
    "LLMLearner",
    "LLMSetting",
    "LLMSetupError",
    "NoFeedback",
    "ParsedAnswer",
    "PreparedRun",
    "PromptSpec",
    "Reflection",
    "Regularization",
    "Repair",
    "description_prompt",
    "example_prompt",
    "example_system_prompt",
    "extract",
    "parse_answer",
    "parse_candidates",
    "parse_regex",
    "prepare_llm_run",
    "setting_config",
    "setting_named",
]
