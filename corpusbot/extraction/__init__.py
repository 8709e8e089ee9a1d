"""One module per extraction algorithm, and the composition of modes."""
