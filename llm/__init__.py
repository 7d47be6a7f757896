"""The model transport: an async aiohttp client for OpenAI-compatible servers (vLLM and others),
typed results, retries, a replayable call log and a pool of servers. It knows nothing of regexes:
prompts and answer parsing live with the learner that uses them (:mod:`cegis.llm`)."""

from typing import TYPE_CHECKING

from llm.lazy import lazy_exports

if TYPE_CHECKING:
    from llm.calllog import CallLog, ModelTotals
    from llm.chat import Message, ModelInfo, Request, SamplingParams, StructuredOutput
    from llm.client import LLMClient, Mode, choose_model
    from llm.config import ClientConfig
    from llm.errors import (
        CallLogError,
        ConfigError,
        LLMError,
        MalformedResponse,
        ModelDiscoveryError,
        ReplayMiss,
    )
    from llm.protocol import ChatClient
    from llm.results import Choice, Completion, Failed, FailureReason, Result, Truncated, Usage
    from llm.retry import RetryPolicy
    from llm.servers import ServerPool

_WHERE = {
    name: module
    for module, names in (
        ("llm.calllog", ("CallLog", "ModelTotals")),
        ("llm.protocol", ("ChatClient",)),
        ("llm.chat", ("Message", "ModelInfo", "Request", "SamplingParams", "StructuredOutput")),
        ("llm.client", ("LLMClient", "Mode", "choose_model")),
        ("llm.config", ("ClientConfig",)),
        (
            "llm.errors",
            (
                "CallLogError",
                "ConfigError",
                "LLMError",
                "MalformedResponse",
                "ModelDiscoveryError",
                "ReplayMiss",
            ),
        ),
        (
            "llm.results",
            ("Choice", "Completion", "Failed", "FailureReason", "Result", "Truncated", "Usage"),
        ),
        ("llm.retry", ("RetryPolicy",)),
        ("llm.servers", ("ServerPool",)),
    )
    for name in names
}
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "CallLog",
    "CallLogError",
    "ChatClient",
    "Choice",
    "ClientConfig",
    "Completion",
    "ConfigError",
    "Failed",
    "FailureReason",
    "LLMClient",
    "LLMError",
    "MalformedResponse",
    "Message",
    "Mode",
    "ModelDiscoveryError",
    "ModelInfo",
    "ModelTotals",
    "Request",
    "ReplayMiss",
    "Result",
    "RetryPolicy",
    "SamplingParams",
    "ServerPool",
    "StructuredOutput",
    "Truncated",
    "Usage",
    "choose_model",
]
