"""The hand-written stub `_cfrkit.pyi` lists exactly what the native module exports."""

import ast
import inspect
import pathlib

import cfrkit
from cfrkit import _cfrkit

STUB = pathlib.Path(cfrkit.__file__).with_name("_cfrkit.pyi")


def stub_members():
    tree = ast.parse(STUB.read_text())
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, classes


def test_stub_matches_module():
    top, classes = stub_members()
    exported = {n for n in dir(_cfrkit) if not n.startswith("_")} | {"__version__"}
    assert top == exported
    for name, methods in classes.items():
        native = {n for n, _ in inspect.getmembers(getattr(_cfrkit, name)) if not n.startswith("_")}
        stubbed = {m for m in methods if not m.startswith("_")}
        assert stubbed == native, name


def test_package_all_is_importable():
    for name in cfrkit.__all__:
        assert hasattr(cfrkit, name), name
