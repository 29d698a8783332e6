"""Settings an operator gives as environment variables, or a test as the app's config."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from events.database import data_dir

#: The signing key's file under ``$KOTLIK_DATA`` unless ``KOTLIK_SIGNING_KEY`` names another.
SIGNING_KEY_FILE = "export-signing-key.pem"
#: What a yes/no setting takes as yes (anything else, or nothing, is no).
YES = frozenset({"1", "true", "yes", "on"})


def positive(config: Mapping[str, Any], name: str, default: int, unit: str) -> int:
    """``name`` from the app's config, else the environment, else ``default``; a clear error for
    anything but a positive whole number of ``unit``."""
    value = config.get(name, os.environ.get(name, default))
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be a number of {unit}, not {value!r}") from None
    if number <= 0:
        raise ValueError(f"{name} must be positive, not {number}")
    return number


def flag(config: Mapping[str, Any], name: str) -> bool:
    """A yes/no setting: ``name`` from the app's config, else the environment; no by default."""
    value = config.get(name, os.environ.get(name))
    return value is True or str(value or "").strip().lower() in YES


def signing_key_path(config: Mapping[str, Any]) -> Path:
    """Where the export signing key is kept: ``KOTLIK_SIGNING_KEY`` (the app's config, else the
    environment), else ``$KOTLIK_DATA/export-signing-key.pem``; made there at first start."""
    configured = config.get("KOTLIK_SIGNING_KEY", os.environ.get("KOTLIK_SIGNING_KEY"))
    return Path(configured) if configured else data_dir() / SIGNING_KEY_FILE
