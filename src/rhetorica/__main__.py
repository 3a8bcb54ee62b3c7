"""``python -m rhetorica`` runs the command line."""

from rhetorica.cli.app import main

main()
