"""A decoding rule applied to a text whose words the model gave the labels a test chooses."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from anonymed.detect.tokens import TaggerToken, alnum_tokens

Rule = Callable[[Sequence[TaggerToken], list[str]], object]


def after(
    rule: Rule, text: str, tagged: Mapping[str, str] | Collection[str], label: str = "NAME"
) -> list[str]:
    """The words labelled ``label`` after ``rule``, when the model gave the words of ``tagged`` their labels
    (a collection of words: ``label``)."""
    given = tagged if isinstance(tagged, Mapping) else dict.fromkeys(tagged, label)
    tokens = alnum_tokens(text)
    labels = [given.get(token.text, "O") for token in tokens]
    rule(tokens, labels)
    return [token.text for token, tag in zip(tokens, labels, strict=True) if tag == label]
