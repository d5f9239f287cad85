"""The ``fake`` operator (``operator``) and its generators: names (``names``), numbers (``numbers``)."""
