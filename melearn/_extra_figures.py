"""Imported first by ``melearn.plotting``: without matplotlib, the error names the extra ``melearn[figures]``."""

from ._extras import require

require("figures", "melearn.plotting")
