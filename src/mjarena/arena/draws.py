"""Where a run's random numbers come from: the walls, the seats and the Swiss draws of a contest, a tournament or
a comparison, each a number derived from the run's randomness and a path of names (``"wall", round, table,
game``).

Two kinds of randomness:

* a **secret** (:meth:`Draws.secret`): numbers are HMAC-SHA-256 of the path keyed with at least 128 secret bits,
  63 bits each.  Without the key nobody can compute one number from the others, or guess a wall from the path:
  a bot that reads this code and knows its round and table still has 2**63 walls to try.  A contest publishes
  :func:`commitment` (SHA-256 of the key) at its start and the key itself at its end, so that anyone can check
  every wall afterwards (``mjarena contest verify``).
* a **public seed** (:meth:`Draws.public`): numbers are :func:`derive_seed` of the seed and the path, 31 bits
  each, as ``--seed N`` has always given them (a run with the same seed is the same run).  Anyone who knows or
  guesses the seed knows every wall: fine for built-in bots and for one's own, not for bots one does not trust.

>>> key = bytes(range(32))
>>> Draws.secret(key)("wall", 1, 1, 0) == Draws.secret(key)("wall", 1, 1, 0) != Draws.secret(key)("wall", 1, 1, 1)
True
>>> Draws.public(2014)("wall", 1, 1, 0) == derive_seed(2014, "wall", 1, 1, 0)
True
>>> parse_secret("2014")
Traceback (most recent call last):
...
ValueError: '2014' is 16 bits; a secret needs at least 128: give 32 or more hex digits (or none: 256 random bits)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass, field

__all__ = ["MIN_SECRET_BITS", "SECRET_BYTES", "Draws", "as_draws", "commitment", "derive_seed", "new_secret",
           "parse_secret", "read_secret_file", "write_secret_file"]

SECRET_BYTES = 32
"""A new secret's size: 256 bits."""
MIN_SECRET_BITS = 128
"""The least a given secret may have."""
_HEX = re.compile(r"[0-9a-fA-F]+")


def derive_seed(*parts: object) -> int:
    """A seed in ``[0, 2**31)`` from a public seed and a path of names, stable across runs and machines.

    >>> derive_seed(7, "wall", 1, 2, 0) == derive_seed(7, "wall", 1, 2, 0) != derive_seed(7, "wall", 1, 2, 1)
    True
    """
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") % (2**31)


def new_secret() -> bytes:
    """A fresh secret of :data:`SECRET_BYTES` bytes from :mod:`secrets`."""
    return secrets.token_bytes(SECRET_BYTES)


def parse_secret(text: str) -> bytes:
    """The secret written as hex digits ``text``; :class:`ValueError` with the reason when it is not hex or
    has fewer than :data:`MIN_SECRET_BITS` bits.

    >>> parse_secret("00" * 16).hex() == "00" * 16
    True
    """
    digits = text.strip()
    if not _HEX.fullmatch(digits):
        raise ValueError(f"{text!r} is not a secret: write it as hex digits (0-9, a-f), 32 or more")
    if len(digits) * 4 < MIN_SECRET_BITS:
        raise ValueError(f"{text!r} is {len(digits) * 4} bits; a secret needs at least {MIN_SECRET_BITS}: "
                         f"give {MIN_SECRET_BITS // 4} or more hex digits (or none: 256 random bits)")
    return bytes.fromhex(digits if len(digits) % 2 == 0 else "0" + digits)


def write_secret_file(path: str | os.PathLike[str], secret: bytes) -> None:
    """Keep ``secret`` (hex digits and a newline) in a new file ``path`` that only its owner may read, on disk
    before this returns; :class:`FileExistsError` if ``path`` is there already."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secret.hex() + "\n")
        file.flush()
        os.fsync(file.fileno())


def read_secret_file(path: str | os.PathLike[str], whose: str) -> bytes:
    """The secret kept in ``path`` (:func:`write_secret_file`); :class:`ValueError` naming the file when it is
    missing (``whose`` walls come from it: ``"this tournament's"``) or cannot be read as one."""
    try:
        with open(path, encoding="ascii") as file:
            return parse_secret(file.read())
    except FileNotFoundError:
        raise ValueError(f"{path}: missing: {whose} walls come from the secret kept there") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path}: cannot read the secret: {error}") from None


def commitment(secret: bytes) -> str:
    """What a contest publishes before it reveals ``secret``: its SHA-256, in hex.

    >>> commitment(b"") == hashlib.sha256(b"").hexdigest()
    True
    """
    return hashlib.sha256(secret).hexdigest()


@dataclass(frozen=True)
class Draws:
    """A run's randomness: call it with a path of names for that path's number (see the module docstring)."""

    key: bytes | None = field(default=None, repr=False)
    seed: int | None = None

    @classmethod
    def secret(cls, key: bytes) -> Draws:
        """Numbers keyed with ``key`` (HMAC-SHA-256): nobody without the key can compute them."""
        if len(key) * 8 < MIN_SECRET_BITS:
            raise ValueError(f"a secret needs at least {MIN_SECRET_BITS} bits, got {len(key) * 8}")
        return cls(key=key)

    @classmethod
    def public(cls, seed: int) -> Draws:
        """Numbers from the public ``seed`` (:func:`derive_seed`): anyone who knows the seed can compute them."""
        return cls(seed=seed)

    @property
    def is_secret(self) -> bool:
        return self.key is not None

    def __call__(self, *path: object) -> int:
        """The number of ``path``: in ``[0, 2**63)`` for a secret, ``[0, 2**31)`` for a public seed."""
        if self.key is None:
            return derive_seed(self.seed, *path)
        digest = hmac.new(self.key, ":".join(map(str, path)).encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1


def as_draws(seed: int | Draws) -> Draws:
    """``seed`` as :class:`Draws` (an int is a public seed).

    >>> as_draws(3) == Draws.public(3)
    True
    """
    return seed if isinstance(seed, Draws) else Draws.public(seed)
