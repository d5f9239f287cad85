"""Dates, ages and durations as text: reading them in English and French, their layout, writing them back.

A library of the parts layer: it knows nothing of operators or profiles (``substitute`` builds on it).
``temporal`` reads a span into a quantity and a template (``model``) with the readers of ``parse``
(numbers, clock times) and ``phrases`` (month names, amounts) over the word tables of ``words``;
``layout`` reads spans loosely for random dates (``random_date``); ``values`` reads a document's dates
once; ``over89`` decides which dates imply an age over 89 (HIPAA Safe Harbor).
"""
