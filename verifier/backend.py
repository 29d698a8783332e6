"""A PEP 517 build backend for the standalone verifier, with nothing but the standard library.

The verifier is not a copy kept in step by hand: it is Kotlík's own ``games`` and ``seeds``
packages and the offline modules of ``audit`` and ``projections`` (listed in pyproject.toml under
``[tool.kotlik-verify]``), taken from the repository at build time. A build from this folder reads
them from the repository root (``..``); the sdist carries them under ``src/``, so a wheel built from
an unpacked sdist reads them there. Files are written in sorted order with a fixed time, so the
same sources give the same wheel byte for byte.

Only the hooks pip needs: ``build_wheel``, ``build_sdist`` and the ``get_requires_*`` pair (none).
"""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The time every file in the archives carries (the earliest a zip can hold): reproducible builds.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
#: What is never shipped from a package folder.
SKIPPED = {"__pycache__"}


def _project() -> dict[str, Any]:
    return tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))


def _root() -> Path:
    """Where the shipped sources are: ``src/`` in an unpacked sdist, else the repository."""
    return HERE / "src" if (HERE / "src").is_dir() else HERE.parent


def _sources() -> list[str]:
    """The shipped files, relative to :func:`_root`, sorted."""
    listed = _project()["tool"]["kotlik-verify"]
    root = _root()
    files = set(listed["modules"])
    for package in listed["packages"]:
        for path in (root / package).rglob("*"):
            relative = path.relative_to(root)
            if path.is_file() and not SKIPPED & set(relative.parts) and path.suffix != ".pyc":
                files.add(relative.as_posix())
    missing = [f for f in files if not (root / f).is_file()]
    if missing:
        raise FileNotFoundError(f"the verifier's sources are incomplete under {root}: {sorted(missing)}")
    return sorted(files)


def _name() -> tuple[str, str]:
    project = _project()["project"]
    return project["name"].replace("-", "_"), project["version"]


def _metadata() -> str:
    project = _project()["project"]
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        *(f"Requires-Dist: {d}" for d in project["dependencies"]),
        "Description-Content-Type: text/markdown",
    ]
    readme = (HERE / project["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _entry_points() -> str:
    scripts = _project()["project"]["scripts"]
    return "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in sorted(scripts.items()))


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """``<name>-<version>-py3-none-any.whl`` in ``wheel_directory``; its file name."""
    name, version = _name()
    info = f"{name}-{version}.dist-info"
    root = _root()
    entries = [(f, (root / f).read_bytes()) for f in _sources()]
    wheel_file = b"Wheel-Version: 1.0\nGenerator: kotlik-verify backend\nRoot-Is-Purelib: true\n"
    wheel_file += b"Tag: py3-none-any\n"
    top_level = sorted({f.split("/")[0] for f, _ in entries})
    entries += [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", wheel_file),
        (f"{info}/entry_points.txt", _entry_points().encode()),
        (f"{info}/top_level.txt", "".join(f"{p}\n" for p in top_level).encode()),
    ]
    record = "".join(_record_line(f, data) + "\n" for f, data in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    wheel = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file, data in entries:
            item = zipfile.ZipInfo(file, FIXED_TIME)
            item.external_attr = 0o644 << 16
            item.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(item, data)
    return wheel


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """``<name>-<version>.tar.gz``: this folder's build files and the sources under ``src/``."""
    name, version = _name()
    base = f"{name}-{version}"
    root = _root()
    entries = [(f"src/{f}", (root / f).read_bytes()) for f in _sources()]
    entries += [(f, (HERE / f).read_bytes()) for f in ("pyproject.toml", "backend.py", "README.md")]
    entries.append(("PKG-INFO", _metadata().encode()))
    sdist = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / sdist, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for file, data in sorted(entries):
            item = tarfile.TarInfo(f"{base}/{file}")
            item.size, item.mode, item.mtime = len(data), 0o644, 315532800
            archive.addfile(item, io.BytesIO(data))
    return sdist
