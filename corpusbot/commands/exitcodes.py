"""Exit statuses shared by every subcommand."""

EXIT_OK = 0
"""Everything was done."""
EXIT_FAILED = 1
"""Nothing useful was done: bad arguments to the work itself, unreadable input."""
EXIT_PARTIAL = 2
"""The work finished, but some inputs were unreadable or rejected as damaged."""
EXIT_USAGE = 64
"""The command line itself was wrong (argparse's own 2 would read as partial)."""
