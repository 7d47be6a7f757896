"""The ``llm`` and ``cegis.llm`` packages export their names lazily: a command that never talks to
a model does not import the client (``aiohttp``), and every exported name still resolves."""

from __future__ import annotations

import importlib
import subprocess
import sys
from types import ModuleType

import pytest

import cegis.llm
import llm

PACKAGES = [llm, cegis.llm]


def test_the_learn_command_and_the_light_modules_start_without_the_model_client() -> None:
    code = "import sys, cli.main, cli.learn, cegis.llm.settings, llm.chat; print('aiohttp' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_export_is_the_object_its_module_defines(package: ModuleType) -> None:
    where = vars(package)["_WHERE"]
    assert set(where) == set(package.__all__)
    for name, module in where.items():
        assert getattr(package, name) is getattr(importlib.import_module(module), name)
    assert set(package.__all__) <= set(dir(package))


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_an_unknown_name_is_an_attribute_error(package: ModuleType) -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = package.Nope
