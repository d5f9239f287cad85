"""Secrets out of what anonymed writes or prints: a database URL's password, a seed on a command line.

A run summary, a manifest, a report or an error message may be read by others (an ethics board, a log
collector). The seed of a run lets anyone who knows it replay its random choices (date shifts, surrogates)
and so undo them; a database URL may carry a password. These helpers give the text to record instead: the
URL without its password, the command line with the seed's value replaced by ``REDACTED``. The effective
configuration leaves its secret keys out on its own (``effective.SECRET_KEYS``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

#: what is written in place of a secret value
REDACTED: Final = "<set, not recorded>"
#: command-line options whose value is a secret
SECRET_OPTIONS: Final = ("--seed",)
#: query parameters of a database URL that carry a password (libpq's ``?password=``, ODBC's ``PWD``...)
PASSWORD_PARAMETERS: Final = frozenset({"password", "passwd", "pwd"})
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+")
_OPTION = re.compile(r"(?<!\S)(" + "|".join(re.escape(o) for o in SECRET_OPTIONS) + r")(=|\s+)(\S+)")


def url_passwords(url: str) -> list[str]:
    """The passwords ``url`` holds (in its user part and its query), as written and percent-decoded."""
    try:
        parts = urlsplit(url)
        found = [parts.password or ""]
        found += [value for name, value in parse_qsl(parts.query) if name.lower() in PASSWORD_PARAMETERS]
    except ValueError:
        return []
    # a password with an unescaped "@" may be cut at its first "@" by another parser: its pieces too
    pieces = [piece for value in found for piece in value.split("@")[:-1] if len(piece) >= 3]
    words = {
        w for value in (*found, *pieces) if value for w in (value, unquote(value), quote(value, safe=""))
    }
    return sorted(words, key=len, reverse=True)


def url_without_password(url: str) -> str:
    """``url`` with ``REDACTED`` in place of its password (``postgresql://user:<...>@host/db``)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not a URL we can read: nothing of it is shown
        return REDACTED
    netloc = parts.netloc
    if not password and not any(name.lower() in PASSWORD_PARAMETERS for name, _ in parse_qsl(parts.query)):
        return url
    if password:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}:{REDACTED}@{host}"
    query = parts.query
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(name.lower() in PASSWORD_PARAMETERS for name, _ in pairs):
        query = "&".join(
            f"{name}={REDACTED if name.lower() in PASSWORD_PARAMETERS else quote(value, safe='')}"
            for name, value in pairs
        )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def without_url_password(text: str, url: str) -> str:
    """``text`` (a driver's error message) with ``url`` and each of its passwords replaced."""
    text = text.replace(url, url_without_password(url))
    for password in url_passwords(url):
        text = text.replace(password, REDACTED)
    return text


def redacted_command(args: Sequence[str]) -> list[str]:
    """A command line to record: the value of each ``SECRET_OPTIONS`` option and URL passwords replaced."""
    found: list[str] = []
    secret_next = False
    for arg in args:
        if secret_next:
            found.append(REDACTED)
        else:
            found.append(redacted_command_line(arg))
        secret_next = arg in SECRET_OPTIONS
    return found


def redacted_command_line(line: str) -> str:
    """A command written as one line (``--command "anonymed deid ... --seed 7"``), its secrets replaced."""
    line = _OPTION.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", line)
    return _URL.sub(lambda m: url_without_password(m.group(0)), line)
