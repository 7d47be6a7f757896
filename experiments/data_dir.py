"""Where the shared datasets live: ``$REGEX_CEGIS_DATA`` when set, else ``../shared/data`` beside
the repository. The project ships no copy of them; every loader takes a path and defaults here."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DATA_DIR = Path(
    os.environ.get("REGEX_CEGIS_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
