"""Document-quality steps (Gopher, C4, FineWeb, language confidence, URL lists, PII) and the
presets that name lists of steps; each module holds one step, its options and its reasons."""
