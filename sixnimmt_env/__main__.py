"""`python -m sixnimmt_env` is the `sixnimmt` command."""

from .cli import main

main()
