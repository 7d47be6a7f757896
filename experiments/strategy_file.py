"""A strategy file: the strategy section of a prompt, as the learn step wrote it for one model.

``python -m cli optimize`` (GEPA, :mod:`experiments.optimize`) writes the strategy text it found
to a plain UTF-8 file; a plan's arm (``strategy_file = "..."``) or ``learn --strategy-file``
reads it into the setting's ``strategy_text``, so the text itself, not the file's name, is part of
the setting, the records and the unit's fingerprint: a changed file is a changed configuration.
"""

from __future__ import annotations

from pathlib import Path

from experiments.regular_file import read_regular

#: The longest strategy text read (a prompt section, not a document).
MAX_STRATEGY_CHARS = 20_000
#: The most bytes read of a strategy file: the longest text in 4-byte characters, with room for
#: the surrounding whitespace that is stripped.
MAX_STRATEGY_BYTES = 4 * MAX_STRATEGY_CHARS + 64 * 1024


class StrategyFileError(ValueError):
    """A strategy file that cannot be read or holds no strategy."""


def read_strategy(path: Path) -> str:
    """The strategy text of ``path`` (surrounding whitespace removed); a FIFO or a device is refused
    before it is read, never waited on."""
    try:
        text = read_regular(path.expanduser(), MAX_STRATEGY_BYTES).decode("utf-8").strip()
    except OSError as error:
        raise StrategyFileError(f"cannot read strategy file {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise StrategyFileError(f"strategy file {path} is not UTF-8 text") from None
    if not text:
        raise StrategyFileError(f"strategy file {path} is empty")
    if len(text) > MAX_STRATEGY_CHARS:
        raise StrategyFileError(
            f"strategy file {path} holds {len(text):,} characters; at most"
            f" {MAX_STRATEGY_CHARS:,} are read"
        )
    return text


def write_strategy(path: Path, text: str) -> None:
    """Write ``text`` as the strategy file ``path`` (its folder is created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.strip() + "\n", encoding="utf-8")
