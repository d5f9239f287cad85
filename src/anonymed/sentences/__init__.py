"""Sentence substitution (Alves et al.): every sentence becomes a random near sentence of a scrubbed bank.

``splitter`` cuts notes into sentences, ``encoders`` embed them (Doc2Vec trained by anonymed, kept compact
by ``doc2vec_compact``, or a sentence-transformers model), ``banks`` hold the replacement sentences and
their index, ``bank_build`` builds, scrubs and packs banks, ``obfuscator`` replaces.
"""

from __future__ import annotations

from anonymed.sentences.banks import Bank, load_bank
from anonymed.sentences.obfuscator import SentenceObfuscator

__all__ = ["Bank", "SentenceObfuscator", "load_bank"]
