"""Attachments: charsets, HTML, RTF, and what is reported instead of guessed."""

from __future__ import annotations

import base64
import hashlib

import pytest

from anonymed.document import Replacement
from anonymed.fhir.attachments import parse_content_type, process
from anonymed.labels import Label


def scrub_name(surrogate: str = "Zoë Ðurić"):  # type: ignore[no-untyped-def]
    """Replaces "Hélène Durand" with ``surrogate`` (a value latin-1 cannot hold by default)."""

    def scrub(text: str) -> tuple[str, tuple[Replacement, ...]]:
        start = text.find("Hélène Durand")
        if start < 0:
            return text, ()
        rep = Replacement(start, start + 13, Label.NAME, "Hélène Durand", surrogate, "fake")
        return text[:start] + surrogate + text[start + 13 :], (rep,)

    return scrub


def no_url(url: str) -> str | None:
    return None


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def decoded(node: dict[str, object]) -> bytes:
    return base64.b64decode(str(node["data"]))


def test_plain_utf8_with_hash_and_size_recomputed() -> None:
    raw = "Vue par Hélène Durand.".encode()
    node = {"contentType": "text/plain; charset=utf-8", "data": b64(raw), "size": len(raw), "hash": "x"}
    out, outcome = process(node, scrub_name(), no_url)
    new = decoded(out)
    assert outcome.status == "processed" and "Durand" not in new.decode()
    assert out["size"] == len(new) and out["hash"] == b64(hashlib.sha1(new).digest())


def test_latin1_stays_latin1_when_the_surrogate_fits() -> None:
    raw = "Vue par Hélène Durand.".encode("latin-1")
    node = {"contentType": "text/plain; charset=ISO-8859-1", "data": b64(raw)}
    out, _ = process(node, scrub_name("Renée Petit"), no_url)
    assert decoded(out) == "Vue par Renée Petit.".encode("latin-1")
    assert out["contentType"] == "text/plain; charset=ISO-8859-1"
    assert "size" not in out and "hash" not in out  # not recomputed when the input had none


def test_latin1_switches_to_utf8_when_the_surrogate_does_not_fit() -> None:
    raw = "Vue par Hélène Durand.".encode("latin-1")
    out, _ = process({"contentType": "text/plain; charset=latin-1", "data": b64(raw)}, scrub_name(), no_url)
    assert out["contentType"] == "text/plain; charset=utf-8"
    assert decoded(out).decode("utf-8") == "Vue par Zoë Ðurić."


def test_html_with_meta_charset_and_character_references() -> None:
    raw = '<html><head><meta charset="iso-8859-1"></head><body><p>Hélène Durand</p></body></html>'.encode(
        "latin-1"
    )
    out, outcome = process({"contentType": "text/html", "data": b64(raw)}, scrub_name(), no_url)
    text = decoded(out).decode("latin-1")
    assert outcome.status == "processed" and "Durand" not in text
    assert "<p>Zoë Ðuri&#263;</p>" in text  # latin-1 holds ë and Ð, not ć


def test_rtf_is_converted_to_plain_text() -> None:
    pytest.importorskip("striprtf")
    raw = rb"{\rtf1\ansi\deff0 {\fonttbl {\f0 Times;}} Vue par H\'e9l\'e8ne Durand.\par}"
    out, outcome = process({"contentType": "application/rtf", "data": b64(raw)}, scrub_name(), no_url)
    assert outcome.status == "processed" and out["contentType"] == "text/plain; charset=utf-8"
    assert decoded(out).decode().strip() == "Vue par Zoë Ðurić."


@pytest.mark.parametrize(
    ("node", "reason"),
    [
        (
            {"contentType": "application/pdf", "data": b64(b"%PDF-1.4 Helene Durand")},
            "application/pdf not processed",
        ),
        ({"contentType": "text/plain", "url": "https://ehr.example.org/doc/1"}, "url only"),
        ({"contentType": "text/plain", "data": "***"}, "not valid base64"),
        ({"contentType": "text/plain; charset=utf-8", "data": b64(b"\xff\xfe Durand")}, "not decodable"),
        ({"contentType": "text/plain; charset=klingon", "data": b64(b"Durand")}, "not decodable"),
    ],
)
def test_what_cannot_be_read_is_reported_and_dropped(node: dict[str, object], reason: str) -> None:
    out, outcome = process({**node, "size": 3, "hash": "x"}, scrub_name(), no_url)
    assert outcome.status == "unprocessed" and reason in outcome.reason
    assert "data" not in out and "url" not in out and "size" not in out and "hash" not in out


def test_a_url_to_a_resource_of_the_export_is_rewritten() -> None:
    out, outcome = process(
        {"contentType": "text/plain", "url": "Binary/1"}, scrub_name(), lambda u: "Binary/p"
    )
    assert out["url"] == "Binary/p" and outcome.reason == "url only"


def test_content_type_parameters() -> None:
    assert parse_content_type('text/plain; Charset="UTF-8"; format=flowed') == (
        "text/plain",
        {"charset": "UTF-8", "format": "flowed"},
    )
