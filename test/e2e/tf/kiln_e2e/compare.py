"""Comparing a backend's outputs with TensorFlow's, as kiln-run does: an
element passes when |actual - expected| <= atol + rtol * scale, where scale is
the output's largest finite |expected|; NaN matches only NaN and an infinity
only the same infinity. Booleans and integers must be equal."""

import dataclasses
from typing import Optional

import numpy as np


@dataclasses.dataclass
class Comparison:
    """The outcome of comparing one output."""

    passed: bool
    max_abs_error: float = 0.0
    # max_abs_error / scale (0 when the scale is 0).
    max_rel_error: float = 0.0
    scale: float = 0.0
    mismatches: int = 0
    # The first mismatching element (C order) as an index tuple.
    first_mismatch: Optional[tuple] = None
    actual_value: object = None
    expected_value: object = None
    # Set when dtype or shape differ (no element comparison then).
    problem: str = ""

    def describe(self) -> str:
        if self.problem:
            return self.problem
        text = (f"max abs error {self.max_abs_error:.3g}, max rel error "
                f"{self.max_rel_error:.3g} (scale {self.scale:.3g})")
        if self.mismatches:
            text += (f"; {self.mismatches} elements differ, the first at "
                     f"{list(self.first_mismatch)}: {self.actual_value!r}, "
                     f"expected {self.expected_value!r}")
        return text


def compare(actual: np.ndarray, expected: np.ndarray, rtol: float,
            atol: float) -> Comparison:
    """Compares one output of a backend with TensorFlow's."""
    if actual.dtype != expected.dtype:
        return Comparison(False, problem=f"dtype {actual.dtype}, expected "
                          f"{expected.dtype}")
    if actual.shape != expected.shape:
        return Comparison(False, problem=f"shape {actual.shape}, expected "
                          f"{expected.shape}")
    if actual.size == 0:
        return Comparison(True)
    exact = not np.issubdtype(expected.dtype, np.floating)
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    finite = np.isfinite(e)
    scale = float(np.max(np.abs(e[finite]))) if finite.any() else 0.0
    with np.errstate(invalid="ignore"):
        error = np.abs(a - e)
    same_special = (np.isnan(a) & np.isnan(e)) | (
        np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e)))
    error = np.where(same_special, 0.0, error)
    error = np.where(np.isnan(error), np.inf, error)
    bound = 0.0 if exact else atol + rtol * scale
    bad = error > bound
    result = Comparison(
        passed=not bad.any(),
        max_abs_error=float(error.max()),
        max_rel_error=float(error.max() / scale) if scale else 0.0,
        scale=scale,
        mismatches=int(bad.sum()))
    if bad.any():
        first = np.unravel_index(int(np.argmax(bad)), bad.shape)
        result.first_mismatch = tuple(int(i) for i in first)
        result.actual_value = actual[first].item()
        result.expected_value = expected[first].item()
    return result
