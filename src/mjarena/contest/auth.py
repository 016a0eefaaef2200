"""Tokens, sessions and the upload rate limit.

Tokens are :func:`secrets.token_urlsafe` strings handed out once; only their SHA-256 is stored (a random
32-byte token needs no slow hash), and a presented token is checked against every stored hash with
:func:`hmac.compare_digest`, so the time taken says nothing about how close a guess was.

>>> token = new_token()
>>> token.startswith("mjc_"), matches(token, hash_token(token)), matches(token + "x", hash_token(token))
(True, True, False)
>>> limiter = RateLimiter(2, 60.0)
>>> [limiter.allow("red", now=t) for t in (0.0, 1.0, 2.0, 61.0)]
[True, True, False, True]
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import deque

__all__ = ["TOKEN_PREFIX", "RateLimiter", "hash_token", "matches", "new_token"]


TOKEN_PREFIX = "mjc_"
"""Starts every token: it never begins with ``-`` (which a command line would take for an option), and a secret
scanner can recognise one."""


def new_token() -> str:
    """A fresh secret: 32 random bytes, URL-safe, after :data:`TOKEN_PREFIX`."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (a constant-time comparison)."""
    return hmac.compare_digest(hash_token(token), stored_hash)


class RateLimiter:
    """At most ``count`` events per key in any ``seconds`` (a sliding window, kept in memory)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str, *, now: float) -> bool:
        """Count one event for ``key`` and say whether it is within the limit (a refused one is not counted)."""
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and events[0] <= now - self.seconds:
                events.popleft()
            if len(events) >= self.count:
                return False
            events.append(now)
            return True

    def retry_after(self, key: str, *, now: float) -> float:
        """Seconds until ``key`` may try again."""
        with self._lock:
            events = self._events.get(key)
            if not events or len(events) < self.count:
                return 0.0
            return max(0.0, events[0] + self.seconds - now)
