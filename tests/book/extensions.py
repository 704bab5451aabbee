"""The book's Sphinx extensions (``book/ext/``) loaded one by one, as Sphinx loads them, for tests without a build."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXTENSIONS = Path(__file__).resolve().parents[2] / "book" / "ext"


def load_extension(name: str) -> ModuleType:
    """The extension ``book/ext/<name>.py`` under its own name (the name ``_config.yml`` gives Sphinx), loaded once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXTENSIONS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
