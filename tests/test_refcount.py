"""The kernels that count no references (``njit(refcount=False)``, :mod:`triangles.jit`) call
only kernels compiled the same way: numba compiles a callee it has not compiled yet with its
caller's options, so a callee that makes an array would compile or not depending on which
caller came first."""

from __future__ import annotations

import importlib
import pkgutil
import types

import pytest
from numba.core.registry import CPUDispatcher

import triangles
from triangles import jit

pytestmark = pytest.mark.skipif(not jit.REFCOUNT_OPTION, reason="this numba always counts references")


def _kernels() -> dict[str, CPUDispatcher]:
    """Every compiled function of the package, by qualified name."""
    out: dict[str, CPUDispatcher] = {}
    for info in pkgutil.walk_packages(triangles.__path__, "triangles."):
        if info.name.startswith("triangles.ui") or info.name in ("triangles.__main__",):
            continue
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == info.name:
                out[f"{info.name}.{name}"] = obj
    return out


def _callees(fn: CPUDispatcher) -> list[CPUDispatcher]:
    """The compiled functions ``fn``'s code names: its module's globals, and the attributes of
    modules it names (``K.draw``)."""
    code = fn.py_func.__code__
    names = set(code.co_names)
    found = []
    for name in names:
        obj = fn.py_func.__globals__.get(name)
        if isinstance(obj, CPUDispatcher):
            found.append(obj)
        elif isinstance(obj, types.ModuleType):
            found += [getattr(obj, a) for a in names if isinstance(getattr(obj, a, None), CPUDispatcher)]
    return found


def _counts_no_references(fn: CPUDispatcher) -> bool:
    return fn.targetoptions.get("_nrt") is False


def _inlined(fn: CPUDispatcher) -> bool:
    return fn.targetoptions.get("inline") == "always"


def test_the_hot_kernels_count_no_references():
    kernels = _kernels()
    free = {name for name, fn in kernels.items() if _counts_no_references(fn)}
    for name in (
        "triangles.kernels.draw",
        "triangles.ai.engine.gen_moves",
        "triangles.ai.regions._sum_core",
        "triangles.ai.lazy._run",
        "triangles.ai.phase._round",
        "triangles.ai.regions._explore_run",
        "triangles.ai.expand._small_steps",
    ):
        assert name in free, name


def test_a_kernel_counting_no_references_calls_only_such_kernels():
    bad = []
    for name, fn in _kernels().items():
        if not _counts_no_references(fn):
            continue
        todo, seen = [fn], set()
        while todo:
            f = todo.pop()
            for callee in _callees(f):
                if id(callee) in seen:
                    continue
                seen.add(id(callee))
                if _inlined(callee):
                    todo.append(callee)  # compiled as part of its caller: what it calls counts too
                elif not _counts_no_references(callee):
                    bad.append(f"{name} -> {callee.py_func.__module__}.{callee.py_func.__name__}")
    assert not bad, "\n".join(sorted(set(bad)))
