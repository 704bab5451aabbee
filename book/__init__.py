"""The machine that builds, translates, prints and times the book: scripts run as modules from the repository's top.

``python -m book.build_edition en`` builds the English site, ``python -m book.build_pdf en`` its PDF, and so on
(the Makefile's targets call them); ``book/ext/`` holds the Sphinx extensions that ``_config.yml`` loads,
``book/static/`` and ``book/templates/`` the site's styles, script and theme templates, ``book/vendor/mathjax/`` the
pinned offline MathJax. See ARCHITECTURE.md for what this part may import.
"""
