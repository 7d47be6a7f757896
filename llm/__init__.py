"""The LLM edge: an async aiohttp client for OpenAI-compatible servers, a replayable call log,
prompt builders and answer parsing."""

from llm.answers import AnswerError, Extraction, ParsedAnswer, extract, parse_answer, parse_candidates, parse_regex
from llm.calllog import CallLog, ModelTotals
from llm.chat import Message, ModelInfo, Request, SamplingParams, StructuredOutput
from llm.client import LLMClient, Mode, choose_model
from llm.config import ClientConfig
from llm.errors import CallLogError, ConfigError, LLMError, MalformedResponse, ModelDiscoveryError, ReplayMiss
from llm.prompts import (
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
from llm.results import Choice, Completion, Failed, FailureReason, Result, Truncated, Usage
from llm.retry import RetryPolicy

__all__ = [
    "EXTENDED_REGULARIZATION",
    "SIMPLE_REGULARIZATION",
    "AnswerError",
    "CallLog",
    "CallLogError",
    "Choice",
    "ClientConfig",
    "Completion",
    "ConfigError",
    "DiagnosticFeedback",
    "ErrorCountFeedback",
    "Extraction",
    "Failed",
    "FailureReason",
    "Feedback",
    "GenericFeedback",
    "LLMClient",
    "LLMError",
    "MalformedResponse",
    "Message",
    "Mode",
    "ModelDiscoveryError",
    "ModelInfo",
    "ModelTotals",
    "NoFeedback",
    "ParsedAnswer",
    "PromptSpec",
    "Reflection",
    "Regularization",
    "Repair",
    "ReplayMiss",
    "Request",
    "Result",
    "RetryPolicy",
    "SamplingParams",
    "StructuredOutput",
    "Truncated",
    "Usage",
    "choose_model",
    "description_prompt",
    "example_prompt",
    "example_system_prompt",
    "extract",
    "parse_answer",
    "parse_candidates",
    "parse_regex",
]
