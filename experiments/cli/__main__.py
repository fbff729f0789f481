"""`python -m experiments.cli`: the `sixnimmt` command."""

from experiments.cli import main

main()
