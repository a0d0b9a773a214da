"""The ``>>>`` examples in every ttrlib module's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import ttrlib

MODULES = sorted(m.name for m in pkgutil.walk_packages(ttrlib.__path__, "ttrlib."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_there_are_examples_to_run():
    counted = sum(
        len(t.examples) for name in MODULES
        for t in doctest.DocTestFinder().find(importlib.import_module(name))
    )
    assert counted >= 20


def test_import_ttrlib_stays_light():
    import subprocess
    import sys

    code = ("import sys, ttrlib, ttrlib.game, ttrlib.odds, ttrlib.simulate, ttrlib.bots;"
            "heavy = [m for m in ('scipy', 'sympy', 'matplotlib', 'ipywidgets') if m in sys.modules];"
            "print(heavy); sys.exit(1 if heavy else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"import ttrlib pulled in {done.stdout.strip()}"
