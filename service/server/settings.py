"""Numeric settings an operator gives as environment variables, or a test as the app's config."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any


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
