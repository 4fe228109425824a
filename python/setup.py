"""Build ballcast._ballcast with cffi (see ballcast/_build_ffi.py and pyproject.toml)."""
import re
from pathlib import Path

from setuptools import setup

HEADER = Path(__file__).resolve().parent.parent / "lib" / "ballcast.h"


def version():
    """The library's version (BC_VERSION_STRING), when building from the source tree."""
    if HEADER.is_file():
        found = re.search(r'#define BC_VERSION_STRING "([^"]+)"', HEADER.read_text(encoding="utf-8"))
        if found:
            return found.group(1)
    return "0.0.0"


setup(version=version(), cffi_modules=["ballcast/_build_ffi.py:ffibuilder"])
