"""Kiln's end-to-end tests against TensorFlow (docs/e2e.md)."""

from .case import Case, cases_from_module, op_case, uniform

__all__ = ["Case", "cases_from_module", "op_case", "uniform"]
