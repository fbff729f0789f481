"""The `sixnimmt` app, its one-line error handling and the options shared by command groups.

Apart from experiments/cli/__init__.py so that the command modules, which register on `app`,
import it without importing the package that imports them."""


from __future__ import annotations

import sys

import typer
import typer.core

from sixnimmt_env.core.errors import InvalidRecordError, SixNimmtError

EXIT_DIFFERENCES = 1
EXIT_INVALID = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's convention for a program stopped by Ctrl-C


class _OneLineErrors(typer.core.TyperGroup):
    """The top group: a typed error raised by any command (or sub-command) becomes one
    line on stderr and exit code 2, also when the app runs in process (CliRunner); so
    does a usage error (an unknown option, "abc" for a number), which click would show
    as a box of several lines."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        click = typer.core._click  # the click typer runs on (its own copy in typer >= 0.29)

        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            typer.echo(e.ctx.get_help())
            sys.exit(e.exit_code)
        except click.exceptions.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            typer.echo("error: " + " ".join(f"{where}{e.format_message()}{hint}".split()), err=True)
            sys.exit(e.exit_code)
        except typer.core.Abort:  # typer's own (Ctrl-D at a prompt)
            typer.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SixNimmtError as e:
            typer.echo(error_line(e), err=True)
            raise typer.Exit(EXIT_INVALID) from None
        except KeyboardInterrupt:  # Ctrl-C: one line (the workers ignore it, their pool ends)
            typer.echo("\ninterrupted (Ctrl-C)", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None


def error_line(e: SixNimmtError) -> str:
    """The one line a typed error is shown as."""
    text = " ".join(str(e).split())  # one line, whatever the message held
    return f"invalid record: {text}" if isinstance(e, InvalidRecordError) else f"error: {text}"


_flag_type = typer.core.TyperOption.display_type_rich


def _no_type_for_flags(self, ctx):
    """`--help` shows a type beside an option that takes a value; typer 0.29 prints `<bool>`
    beside every flag too (`--json <bool>`), as if the flag took one."""
    return None if getattr(self, "is_flag", False) else _flag_type(self, ctx)


typer.core.TyperOption.display_type_rich = _no_type_for_flags

app = typer.Typer(cls=_OneLineErrors, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="sixnimmt lab: 6 nimmt! rules engine, environments, agents and experiments.")

# Where work units run (experiments/backends/__init__.py): shared by match, tournament and sweep.
BACKEND = typer.Option("local", "--backend", help="local (this machine's processes) or ray (Ray tasks: a cluster "
                                                  "joined with --address/RAY_ADDRESS, else a local one).")
ADDRESS = typer.Option(None, "--address", help="ray: the cluster to join, e.g. auto or HOST:6379 (default: "
                                               "RAY_ADDRESS, else start a local cluster and stop it at the end).")
