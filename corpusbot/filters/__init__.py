"""Quality steps over an extracted text, and the presets that name lists of steps.

Each step is one module (``basic`` holds the three of the first release:
the language allow-list, the length floor and the non-letter ceiling) and
one line in ``registry.STEPS``; a preset is one entry of ``registry.PRESETS``.
"""
