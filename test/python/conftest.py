"""Fixtures of the kiln package's tests: the tree's sample models, and
TensorFlow (skipped with a reason when it is not installed)."""

import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CPU_INPUTS = os.path.join(ROOT, "unittests", "target", "cpu", "Inputs")


@pytest.fixture
def inputs_dir():
    """unittests/target/cpu/Inputs: small GraphDef and MLIR models."""
    return CPU_INPUTS


@pytest.fixture
def tf():
    """TensorFlow, or a skip naming why it is missing."""
    try:
        import tensorflow
    except ImportError as e:
        pytest.skip(f"TensorFlow is not installed ({e})")
    return tensorflow
