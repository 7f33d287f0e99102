"""Builds the solver's C core (everything else is declared in pyproject.toml).

The core is optional at install time: without a C compiler the package installs and the
solver runs its Python search (slower, same answers); the test suite requires the core.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("reussite.solver._core", ["src/reussite/solver/_core.c"],
                  extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"],
                  optional=True),
    ],
)
