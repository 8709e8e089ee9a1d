"""One module per ``corpusbot`` subcommand: ``configure(parser)`` and ``run(args)``."""
