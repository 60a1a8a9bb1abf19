"""The access token of ``cardforge serve --host …``: one per user, kept across restarts.

A server restarted (for another ``--host``, after a crash, the next game night) keeps its token,
so the phones at the table, which hold it in a cookie, go on without scanning again and what they
had typed is still theirs to save. It lives in the user's config folder (``CARDFORGE_CONFIG``,
else platformdirs'), in ``serve-token``, mode 0600, made atomically on first use, and changes
only on request (``cardforge serve --new-token``). A file that another user could read or
replace, or that is not a regular file, is not used: the server then makes a token for this run
only, and says why.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

from cardforge.cache import config_dir  # the cache's key lives there too

TOKEN_FILE = "serve-token"
_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def serve_token(*, rotate: bool = False) -> tuple[str, str]:
    """The token, and a line saying where it is kept (or why it is for this run only).
    ``rotate``: a new token replaces the kept one (every phone must scan again)."""
    path = config_dir() / TOKEN_FILE
    if not rotate:
        token, why = _read(path)
        if token is not None:
            return token, f"access token kept in {path} (cardforge serve --new-token makes a new one)"
        if why is not None:
            return secrets.token_urlsafe(16), f"{path}: {why}; a token for this run only"
    token = secrets.token_urlsafe(16)
    why = _write(path, token)
    if why is not None:
        return token, f"{path}: {why}; a token for this run only"
    return token, f"new access token kept in {path} (phones with an older link must scan again)"


def _read(path: Path) -> tuple[str | None, str | None]:
    """(token, None); (None, None) when there is none yet; (None, why it is not used)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read the access token ({exc.strerror or exc}; a symbolic link is refused)"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "the access token's file is not a regular file"
        if os.name == "posix" and (st.st_uid != os.geteuid() or st.st_mode & 0o077):
            return None, "the access token's file is another user's, or others can read it (remove it)"
        text = os.read(fd, 200).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    if not 16 <= len(text) <= 100 or not set(text) <= _ALPHABET:
        return None, "the access token's file does not hold a token (remove it)"
    return text, None


def _write(path: Path, token: str) -> str | None:
    try:
        os.makedirs(path.parent, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")  # mode 0600
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        return f"cannot keep the access token ({exc.strerror or exc})"
    return None
