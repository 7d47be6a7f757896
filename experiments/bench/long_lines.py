"""Long lines for ``bench examples --targets long``: access-log lines of about 500 to 800
characters, as a user pastes them from a server's log, each with a long query string, a browser's
user agent and a hex trace id.

A regex cannot draw them (the sampler's strings stop at a few dozen characters), so a seeded
generator writes them field by field; the gold is the regex a person writes for the format
(:data:`GOLD`), and every line written is checked against it. The near misses are one edit from a
line (:func:`experiments.bench.examples.near_misses`, the same as for the other rows). The row
measures that long examples learn at all, how fast, and how well the answer generalizes."""

from __future__ import annotations

import numpy as np

#: The format, as a person writes it: free-text fields (referrer, user agent) as negated classes.
GOLD = (
    r"(?:[0-9]{1,3}\.){3}[0-9]{1,3} - [a-z]+ \[[0-9]{2}/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep"
    r"|Oct|Nov|Dec)/20[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{2} \+0000\] "
    r'"(?:GET|POST|PUT|DELETE) (?:/[a-z0-9_-]+)+\?[a-z]+=[A-Za-z0-9%.]+(?:&[a-z]+=[A-Za-z0-9%.]+)*'
    r' HTTP/1\.1" [1-5][0-9]{2} [0-9]+ "[^"]*" "[^"]*" trace=[0-9a-f]+'
)

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_USERS = ("svc", "deploy", "anna", "jorge", "mei", "otto")
_WORDS = (
    "api", "v2", "orders", "items", "search", "users", "static", "img", "reports", "export",
    "billing", "invoices", "cart", "checkout", "health", "metrics", "assets", "thumbs",
)  # fmt: skip
_KEYS = ("q", "page", "size", "sort", "filter", "lang", "ts", "ref", "utm", "session", "token")
_AGENTS = (
    "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15",
    "curl/8.6.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0 Safari/537.36",
    "python-requests/2.32.3",
)
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def long_lines(count: int, rng: np.random.Generator) -> list[str]:
    """``count`` log lines of about 500 to 800 characters, written from ``rng``."""
    return [_line(rng) for _ in range(count)]


def _line(rng: np.random.Generator) -> str:
    def pick(options: tuple[str, ...]) -> str:
        return options[int(rng.integers(len(options)))]

    def word(alphabet: str, low: int, high: int) -> str:
        return "".join(
            alphabet[int(i)] for i in rng.integers(len(alphabet), size=rng.integers(low, high))
        )

    address = ".".join(str(int(rng.integers(1, 255))) for _ in range(4))
    when = (
        f"{int(rng.integers(1, 29)):02d}/{pick(_MONTHS)}/20{int(rng.integers(20, 27))}"
        f":{int(rng.integers(24)):02d}:{int(rng.integers(60)):02d}:{int(rng.integers(60)):02d}"
    )
    path = "".join(f"/{pick(_WORDS)}" for _ in range(int(rng.integers(2, 6))))
    query = "&".join(
        f"{pick(_KEYS)}={word(_ALNUM + '%.', 4, 40)}" for _ in range(int(rng.integers(6, 12)))
    )
    method = pick(("GET", "POST", "PUT", "DELETE"))
    status, size = int(rng.integers(100, 600)), int(rng.integers(0, 10**7))
    referrer = f"https://{pick(_WORDS)}.example.org{path}" if rng.random() < 0.7 else "-"
    trace = word("0123456789abcdef", 150, 300)
    return (
        f'{address} - {pick(_USERS)} [{when} +0000] "{method} {path}?{query} HTTP/1.1" {status}'
        f' {size} "{referrer}" "{pick(_AGENTS)}" trace={trace}'
    )
