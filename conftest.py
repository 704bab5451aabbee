"""Repository-wide pytest configuration, loaded for every run from the repository root.

``tools/nbval_figures.py`` makes nbval compare each notebook's PNG figures byte for byte (by digest), which
nbval alone skips; it lives here rather than in ``tests/conftest.py`` so that ``pytest chapters/PAGE.ipynb``
checks figures too.
"""

pytest_plugins = ["tools.nbval_figures"]
