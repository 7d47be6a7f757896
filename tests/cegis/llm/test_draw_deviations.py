"""A server that returns fewer choices than ``n`` (llama-cpp-python ignores ``n``) gives a short
sample: the epoch record says so, so the sample is never read as the full one unnoticed."""

from __future__ import annotations

import asyncio
import json

import attrs

from cegis.llm.drafts import draw
from cegis.llm.memo import LLMMemo, decoded
from llm.chat import SamplingParams
from tests.llm.fake_server import Choices, FakeServer
from tests.llm.support import MESSAGES, make_client


def test_a_short_sample_reaches_the_epoch_record_as_a_deviation() -> None:
    async def scenario() -> None:
        async with FakeServer() as server:
            server.push(Choices((("<ans>a</ans>", "stop"),)))
            async with make_client(server.base_url) as client:
                params = SamplingParams(temperature=1.0, n=3, max_completion_tokens=50)
                drawn = await draw(client, MESSAGES, params, sample_index=0)
        assert len(drawn.drafts) == 1
        assert drawn.calls[0].deviations == ("1 of 3 choices returned: the server ignores n",)
        again = decoded(json.loads(json.dumps(attrs.asdict(LLMMemo(calls=drawn.calls)))))
        assert again is not None and again.calls == drawn.calls

    asyncio.run(scenario())
