"""The LLM edge: an async aiohttp client for OpenAI-compatible servers, a replayable call log,
prompt builders and answer parsing."""
