"""The ReDoS checkers ``bench redos`` runs beside ours when they are installed: recheck,
redos-detector and safe-regex (npm packages, run by ``node``).

None is required: :func:`available` lists those that ``node`` can load from the folder given (its
``node_modules``, e.g. after ``npm install recheck redos-detector safe-regex`` there) or from its
global path, and the benchmark leaves out the others with a note. Each peer reads JavaScript
syntax, so it is given the regex as printed for javascript (with the ``u`` flag when it holds
characters past U+FFFF), anchored (``^…$``) for a whole-string
match and bare for a search. One ``node`` child per peer checks every regex of the corpus in turn and
prints one JSON line per regex: whether it flagged it, the class and degree when the peer tells
them (recheck only), recheck's attack as (prefix, pump) pairs and a suffix, and the milliseconds it
took. regexploit (Python syntax, pip) is not run: it reports only cubic and worse.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import attrs

#: The peers, in the order the table prints them.
PEERS = ("recheck", "redos-detector", "safe-regex")
#: Per-regex limit given to recheck and redos-detector, in milliseconds.
PEER_TIMEOUT_MS = 5000

_CHILD = """
const name = process.argv[1];
const peer = require(name);
const patterns = JSON.parse(require("fs").readFileSync(0, "utf8"));
const limit = Number(process.argv[2]);
(async () => {
  for (const pattern of patterns) {
    const start = process.hrtime.bigint();
    let out = {flagged: null, kind: null, degree: null, attack: null};
    const flags = /[\\u{10000}-\\u{10FFFF}]/u.test(pattern) ? "u" : "";
    try {
      if (name === "recheck") {
        const r = await peer.check(pattern, flags, {timeout: limit});
        const c = r.complexity || {};
        out.flagged = r.status === "vulnerable" ? true : r.status === "safe" ? false : null;
        out.kind = out.flagged ? c.type : null;
        out.degree = c.type === "polynomial" ? c.degree : null;
        if (r.attack) out.attack = [r.attack.pumps.map((p) => [p.prefix, p.pump]), r.attack.suffix];
      } else if (name === "redos-detector") {
        const r = peer.isSafePattern(pattern, {timeout: limit, unicode: flags === "u"});
        out.flagged = r.error === "hitMaxScore" ? true : r.error ? null : !r.safe;
      } else {
        out.flagged = !peer(new RegExp(pattern, flags));
      }
    } catch (error) {
      out.flagged = null;
    }
    out.ms = Number(process.hrtime.bigint() - start) / 1e6;
    process.stdout.write(JSON.stringify(out) + "\\n");
  }
})();
"""


@attrs.frozen
class PeerAnswer:
    """One peer on one regex: flagged as super-linear (None: it gave up or failed), the class and
    degree when it tells them, its attack ((prefix, pump) pairs, suffix), and its time."""

    flagged: bool | None
    kind: str | None
    degree: int | None
    attack: tuple[tuple[tuple[str, str], ...], str] | None
    ms: float


def _env(folder: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if folder is not None:
        env["NODE_PATH"] = str(folder / "node_modules")
    return env


def available(folder: Path | None) -> tuple[str, ...]:
    """The peers ``node`` can load (none without ``node``)."""
    node = shutil.which("node")
    if node is None:
        return ()
    found = []
    for name in PEERS:
        done = subprocess.run(
            [node, "-e", f"require.resolve({json.dumps(name)})"],
            env=_env(folder),
            capture_output=True,
            timeout=30,
        )
        if done.returncode == 0:
            found.append(name)
    return tuple(found)


def answers(name: str, patterns: list[str], folder: Path | None) -> list[PeerAnswer | None]:
    """``name``'s answer on each of ``patterns`` (JavaScript syntax); None for the regexes after
    the child died or passed its deadline."""
    node = shutil.which("node")
    assert node is not None  # only peers that :func:`available` found are run
    deadline = 30 + len(patterns) * (PEER_TIMEOUT_MS / 1000 + 1)
    with subprocess.Popen(
        [node, "-e", _CHILD, name, str(PEER_TIMEOUT_MS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(folder),
    ) as child:
        try:
            out, _ = child.communicate(json.dumps(patterns), timeout=deadline)
        except subprocess.TimeoutExpired:
            child.kill()
            out, _ = child.communicate()
    found: list[PeerAnswer | None] = []
    for line in out.splitlines():
        data = json.loads(line)
        attack = data["attack"]
        found.append(
            PeerAnswer(
                data["flagged"],
                data["kind"],
                data["degree"],
                None if attack is None else (tuple((p, u) for p, u in attack[0]), attack[1]),
                data["ms"],
            )
        )
    return found + [None] * (len(patterns) - len(found))
