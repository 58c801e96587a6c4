"""``python -m meio`` runs the command line."""

from meio.cli import main

main()
