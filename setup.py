"""Builds the solver's C core (everything else is declared in pyproject.toml).

The core is optional at install time: without a C compiler the package installs and the
solver runs its Python search: the C core's exact search, slower, without the win finders and
loss proofs that only the C core has (src/reussite/solver/core.py says which), so every answer
is still right but fewer deals are decided on the same budget. The test suite requires the
core, and with REUSSITE_CORE=required in the environment (.ci/run sets it) a compile error fails
the install; `make check` refuses a built core older than its C sources.
"""

import os
from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("reussite.solver._core", ["src/reussite/solver/_core.c"],
                  depends=sorted(glob("src/reussite/solver/csrc/*.c")),
                  extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"],
                  # REUSSITE_CORE=required (the Makefile, CI): a compile error fails the
                  # install, rather than leaving an older built core in place unnoticed
                  optional=os.environ.get("REUSSITE_CORE") != "required"),
    ],
)
