"""Builds the solver's C core (everything else is declared in pyproject.toml)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("reussite.solver._core", ["src/reussite/solver/_core.c"],
                  extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"]),
    ],
)
