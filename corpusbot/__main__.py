import sys

from corpusbot.cli import main

sys.exit(main())
