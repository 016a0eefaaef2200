"""``mjarena submit``: upload a source file to a contest server and wait for its build verdict (stdlib only).

>>> body, boundary = multipart("source", "bot.py", b"print(1)")
>>> b'name="source"; filename="bot.py"' in body and boundary in body.decode()
True
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

__all__ = ["SubmitError", "multipart", "submit"]


class SubmitError(RuntimeError):
    """The server refused the upload or cannot be reached (the message says what it said)."""


def multipart(field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with one file; ``(body, boundary)``."""
    boundary = "mjarena-" + secrets.token_hex(16)
    safe = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{safe}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), boundary


def _request(url: str, token: str, *, data: bytes | None = None, headers: dict[str, str] | None = None,
             timeout: float = 30.0) -> dict[str, Any]:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET",
                                     headers={"authorization": f"Bearer {token}", "accept": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read()).get("error") or error.reason
        except (ValueError, AttributeError, OSError):
            message = error.reason
        raise SubmitError(f"{error.code}: {message}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SubmitError(f"cannot reach {url}: {reason}") from None
    except ValueError:
        raise SubmitError(f"{url}: the answer is not JSON") from None


def submit(base: str, filename: str, content: bytes, token: str, *, wait: float = 600.0,
           poll: float = 0.25) -> dict[str, Any]:
    """Upload ``content`` as ``filename`` and wait (at most ``wait`` seconds) until it is no longer pending;
    the submission as the server describes it."""
    base = base.rstrip("/")
    body, boundary = multipart("source", filename, content)
    submission = _request(f"{base}/api/submissions", token, data=body,
                          headers={"content-type": f"multipart/form-data; boundary={boundary}"})
    deadline = time.monotonic() + wait
    while submission.get("status") == "pending":
        if time.monotonic() > deadline:
            raise SubmitError(f"submission {submission.get('id')}: still building after {wait:g} s")
        time.sleep(poll)
        submission = _request(f"{base}/api/submissions/{submission['id']}", token)
    return submission
