"""Imported first by ``melearn.derivation``: without sympy, the error names the extra ``melearn[derivation]``."""

from ._extras import require

require("derivation", "melearn.derivation")
