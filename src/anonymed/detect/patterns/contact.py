"""Phones and faxes (US, French, international, pagers), e-mails, URLs and IP addresses."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from typing import Final

from anonymed.detect.patterns.base import Scan, opening
from anonymed.detect.tokens import word_set
from anonymed.document import Span
from anonymed.labels import Label

_SEP: Final = r"[ \u00a0.\-]"
_EXT: Final = r"(?: ?(?:ext\.?|extension|x|poste) ?\d{1,5}\b)?"
# the look-ahead opening a pattern ((?=\d), opening(...)) only speeds the scan: see patterns/base.py
#: a NANP number (ITU E.164 country code 1), perhaps after "+1", "1" or the international prefix "00"
#: ("001-541-754-3010"); the area code and the exchange start with 2-9, checked in code
_US: Final = re.compile(
    r"(?=[\d+(])(?<![\w+(])(?:(?P<intl>\+|00 ?)?1"
    + _SEP
    + r"?)?(?P<area>\((?P<area1>\d{3})\) ?|(?P<area2>\d{3})(?P<sep>"
    + _SEP
    + r"?))(?P<exchange>\d{3})"
    + _SEP
    + r"?\d{4}"
    + _EXT
    + r"(?![\w])",
    re.I,
)
#: a French number, national (0 and nine digits; a mistyped "00 ..." is read too) or after +33 / 0033; not
#: after two capitals glued to it ("MN0023381945" is an ID; "est le06.98...", "Standard01..." are phones)
_FR: Final = re.compile(
    r"(?=[\d+(])(?<![\d+(])(?<!(?-i:[A-Z]{2}))(?:(?:\+|00) ?33 ?(?:\(0\) ?)?0?[1-9]|\(33\) ?0?[1-9]|0\d)"
    r"(?P<fsep>[ \u00a0./-]?)\d{2}"
    r"(?:(?P=fsep)\d{2}){3}" + _EXT + r"(?![\w])",
    re.I,
)
#: +44 20 7946 0958, 0049 30 901820, (33) 1 42 68 53 00; a trunk prefix in parentheses may follow the
#: country code (+44 (0)20 ...)
#: NANP's international exit code before a country code ("011 44 ..."), not inside a number ("2011")
_EXIT_011: Final = re.compile(r"(?<!\d)011[ .-]?\d")
_INTL: Final = re.compile(
    r"(?=[\d+(])(?<![\d+(])(?:(?:\+|00|011[ .-]?)\d{1,3}(?: ?\(0\))?|\(\d{1,3}\))"
    + _SEP
    + r"?\d(?:"
    + _SEP
    + r"?\d){7,11}(?![\w]|[./-]\d)"
)
#: a UK national number: 0, an area code, eleven digits in all (020 7946 0958, 0161 496 0000, 07700 900123)
_UK: Final = re.compile(r"(?=\d)(?<![\w+(.-])0\d{2,4}[ -]?\d{3,4}[ -]?\d{3,4}(?![\w]|[./-]\d)")
#: digits alone in parentheses, as people write a number to call back: (240444-1243), (301 273 45166)
_PARENS: Final = re.compile(r"\((\d[\d -]{7,16}\d)\)")
#: any grouping of 7 to 13 digits right after a phone word ("Phone:\n0490 75 40 81", "call me at 450 0840")
_GROUPED: Final = re.compile(r"(?=[\d+(])(?<![\w+])\+?(?:\(\d{1,4}\) ?)?\d++(?:[ .-]\d++){0,5}(?![\w])")
_CUE_BEFORE: Final = re.compile(
    r"(?:\b(?:phone|telephone|téléphone|tel|tél|mobile|cell|portable|fax|call (?:me )?(?:at|on)|"
    r"reach(?:ed)? (?:me )?at|joignable au|appeler le|au numéro)\b)[\s:#.]*$",
    re.I,
)
#: the words of _CUE_BEFORE anywhere in a note: without one, no grouped number is looked at
_CUE_WORDS: Final = (
    r"phone|telephone|téléphone|tel|tél|mobile|cell|portable|fax|call|reach|reached|joignable|appeler|numéro"
)
_CUE_ANYWHERE: Final = re.compile(opening(_CUE_WORDS) + rf"\b(?:{_CUE_WORDS})\b", re.I)
_LOCAL: Final = re.compile(r"(?=\d)(?<![\w-])\d{3}-\d{4}(?![\w-])")
_PAGER_WORDS: Final = r"pager|beeper|bpr|pg|bip|bipper|beep|poste"
_PAGER: Final = re.compile(
    opening(_PAGER_WORDS) + rf"\b(?:{_PAGER_WORDS})\b\.? ?(?:#|no\.?|number|num[ée]ro|n°)? ?:? ?"
    r"#? ?(\d{3,6})(?![\w]|[.,/-]\d)",
    re.I,
)
#: an internal extension: "4-7731" after a pager, extension or page word or glued to "x"; three to five
#: digits after an extension word ("ext. 5532")
_EXTENSION_WORDS: Final = r"ext|extension|pager|beeper|page|paged|x"
_EXTENSION: Final = re.compile(
    opening(_EXTENSION_WORDS) + rf"(?<![\w-])(?:(?:{_EXTENSION_WORDS})\.? ?#? ?(\d-\d{{4}})"
    r"|(?:ext|extension)\.? ?#? ?(\d{3,5}))(?![\w]|[.,/-]\d)",
    re.I,
)
_EMAIL: Final = re.compile(
    r"(?<![\w.%+-])[\w.%+-]{1,64} ?@ ?[A-Za-z0-9-]{1,63}(?:(?:\.| \. )[A-Za-z0-9-]{1,63}){1,6}(?![\w@])"
)
_URL: Final = re.compile(r"(?=[hw])(?<![\w@/])(?:https?://|www\.)[^\s<>\"'()\[\]{}]{2,200}", re.I)
#: the end of a domain name: a top-level domain of the list
_TLD_END: Final = r"\.(?:com|org|net|edu|gov|fr|uk|eu|info|biz)(?![\w@-]|\.\w)"
_DOMAIN: Final = re.compile(r"(?<![\w@./-])[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,4}" + _TLD_END, re.I)
#: without one, no domain is looked for (a quick scan: most notes name none)
_TLD: Final = re.compile(_TLD_END, re.I)
_IPV4: Final = re.compile(r"(?=\d)(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
#: full or compressed (RFC 5952) IPv6 addresses, with an optional prefix length: fe80::1, 2001:db8::/32
_IPV6: Final = re.compile(r"(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:/\d{1,3})?(?![\w:]|/\d)")

PATTERNS: Final = (
    _US,
    _FR,
    _INTL,
    _UK,
    _PARENS,
    _EXIT_011,
    _GROUPED,
    _CUE_BEFORE,
    _CUE_ANYWHERE,
    _LOCAL,
    _PAGER,
    _EXTENSION,
    _EMAIL,
    _URL,
    _DOMAIN,
    _TLD,
    _IPV4,
    _IPV6,
)

_FAX: Final = re.compile(r"\b(?:fax|faxer|télécopie|telecopie|télécop|telecop)\b", re.I)
_PHONE_CUE: Final = re.compile(
    r"\b(?:tel|tél|tele|phone|telephone|téléphone|cell|mobile|portable|home|work|office|call|contact|"
    r"ph|fax|pager|joignable|numéro|number)\b",
    re.I,
)


def _phone(scan: Scan, start: int, end: int, score: float) -> Span:
    """A phone span, typed as a fax when a fax word is close before it."""
    fax = _FAX.search(scan.line_before(start, 25)) is not None
    return scan.span(start, end, Label.CONTACT, "fax" if fax else "phone", score)


def _phones(scan: Scan) -> Iterator[Span]:
    for match in _US.finditer(scan.text):
        area = match.group("area1") or match.group("area2")
        separated = match.group("area1") is not None or match.group("sep") != "" or "-" in match.group(0)
        cued = _PHONE_CUE.search(scan.line_before(match.start(), 30)) is not None
        if area[0] in "01" or not (separated or cued):
            continue
        start = match.start()
        if (match.group("intl") or "").startswith("0") and match.group("exchange")[0] in "01":
            start = match.start("area")  # no NANP number after "001": the prefix is not its country code
        yield _phone(scan, start, match.end(), 0.95 if cued else 0.85)
    for match in _FR.finditer(scan.text):  # a national French number abroad yields to a cued identifier
        national = match.group(0)[0] == "0" and not match.group(0).startswith("0033")
        yield _phone(scan, match.start(), match.end(), 0.7 if national and scan.lang != "fr" else 0.9)
    text = scan.text
    international = "+" in text or "00" in text or "(" in text or _EXIT_011.search(text) is not None
    for match in _INTL.finditer(text) if international else ():
        yield _phone(scan, match.start(), match.end(), 0.9)
    for match in _UK.finditer(text):
        if sum(char.isdigit() for char in match.group(0)) == 11:
            yield _phone(scan, match.start(), match.end(), 0.8)
    for match in _PARENS.finditer(text) if "(" in text else ():
        if 9 <= sum(char.isdigit() for char in match.group(1)) <= 12:
            yield _phone(scan, match.start(1), match.end(1), 0.6)
    for match in _GROUPED.finditer(text) if _CUE_ANYWHERE.search(text) else ():
        digits = sum(char.isdigit() for char in match.group(0))
        if 7 <= digits <= 13 and _CUE_BEFORE.search(scan.text[max(0, match.start() - 40) : match.start()]):
            yield _phone(scan, match.start(), match.end(), 0.75)
    for match in _LOCAL.finditer(scan.text):
        if _PHONE_CUE.search(scan.line_before(match.start(), 25)):
            yield _phone(scan, match.start(), match.end(), 0.7)
    for match in _PAGER.finditer(scan.text):
        yield _phone(scan, match.start(1), match.end(1), 0.85)
    for match in _EXTENSION.finditer(scan.text):
        group = 1 if match.group(1) is not None else 2
        yield _phone(scan, match.start(group), match.end(group), 0.8)


#: top-level domains common enough to vouch for an address whose host name has no letter (163.com)
_COMMON_TLDS: Final = word_set("com org net edu gov mil int io info biz fr uk de eu us ca au be ch es it nl")


def email_ok(address: str) -> bool:
    """Whether an e-mail-shaped match is an address, not a reading ("HR 88 @ 60.Pt", "drip@5.ML").

    The top-level domain is alphabetic; the host name has a letter unless the domain is a common one; an
    address written with spaces around "@" needs letters in its local part and a common domain.
    """
    local, _, domain = address.partition("@")
    labels = [label.strip() for label in domain.split(".")]
    tld = labels[-1]
    if not (tld.isalpha() and 2 <= len(tld) <= 24):
        return False
    common = tld.lower() in _COMMON_TLDS
    host_has_letter = any(char.isalpha() for char in labels[0])
    if local.endswith(" ") or domain.startswith(" "):
        return common and host_has_letter and sum(char.isalpha() for char in local) >= 2
    return host_has_letter or common


def _addresses(scan: Scan) -> Iterator[Span]:
    for match in _EMAIL.finditer(scan.text) if "@" in scan.text else ():
        if email_ok(match.group(0)):
            yield scan.span(match.start(), match.end(), Label.CONTACT, "email", 0.95)
    for match in _URL.finditer(scan.text):
        end = match.end()
        while end > match.start() + 4 and scan.text[end - 1] in ".,;:!?":
            end -= 1
        yield scan.span(match.start(), end, Label.CONTACT, "url", 0.9)
    for match in _DOMAIN.finditer(scan.text) if _TLD.search(scan.text) else ():
        yield scan.span(match.start(), match.end(), Label.CONTACT, "url", 0.7)


def _ips(scan: Scan) -> Iterator[Span]:
    for match in _IPV4.finditer(scan.text):
        if all(int(part) <= 255 for part in match.group(0).split(".")):
            yield scan.span(match.start(), match.end(), Label.LOCATION, "ip", 0.95)
    for match in _IPV6.finditer(scan.text) if "::" in scan.text or scan.text.count(":") > 2 else ():
        candidate = match.group(0)
        groups = [g for g in candidate.split("/")[0].split(":") if g]
        enough = len(groups) >= 3 or ("::" in candidate and len(groups) == 2)
        if not enough or not any(len(g) >= 3 or g.isalpha() for g in groups):
            continue  # 10:30:45 is a time and 12::30 a typo; fe80::1 names a host
        try:
            ipaddress.IPv6Network(candidate, strict=False)
        except ValueError:
            continue
        yield scan.span(match.start(), match.end(), Label.LOCATION, "ip", 0.9)


def find_contacts(scan: Scan) -> Iterator[Span]:
    """Phones, faxes, pagers, e-mails, URLs and IP addresses."""
    yield from _phones(scan)
    yield from _addresses(scan)
    yield from _ips(scan)
