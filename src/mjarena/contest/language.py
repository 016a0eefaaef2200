"""The contest's pages in the visitor's language: :mod:`mjarena.web.language` (the middleware, the switch and its
links), which ``mjarena serve`` shares.
"""

from __future__ import annotations

from mjarena.web.language import LanguageMiddleware, language_links, safe_next, switch_language

__all__ = ["LanguageMiddleware", "language_links", "safe_next", "switch_language"]
