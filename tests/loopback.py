"""The loopback server shell the test servers share (:mod:`experiments.bench.loopback`)."""

from experiments.bench.loopback import LoopbackServer

__all__ = ["LoopbackServer"]
