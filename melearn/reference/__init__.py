"""Slow, literal, exact reference implementations that the book pages and the tests both use.

Each function here follows a formula as printed, one sample (or one pair, or one point) at a time, in exact
integers and :class:`fractions.Fraction`: it is the "second route" against which the fast functions of
:mod:`melearn` are checked. Nothing here is meant to be fast, and nothing here imports the fast code it checks.
"""
