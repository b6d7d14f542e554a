"""Command line: ``ka-tui [--version] [--db PATH] [--ascii] [--read-only]
[--shared-group] [--demo [--force] | --new NAME | --where | COMMAND …]``, the
commands in ``COMMANDS`` (export, import, journal, backups, backup, restore,
play, serve, players), each with its own arguments (``ka-tui COMMAND --help``).

Every user error is one line on stderr and exit code 2, never a traceback.
The campaign file is checked (and migrated) here, before the app starts, with
the standard library only; Textual and SQLModel load only when needed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ka_tui.app import KaApp

EXIT_USER_ERROR = 2

EPILOG = """\
without a command: open the campaign (--db, or the one in the data folder; a
picker when there are several; the demo on first run). The options above also
go after a command (ka-tui export FILE --db PATH); `ka-tui COMMAND --help`
tells a command's own.
files are private to you (0600, folders 0700); --shared-group (or
KA_TUI_SHARED_GROUP=1) makes a campaign and its backups group read-write, for
players reading it over SSH; it stays shared afterwards.
"""

# An option given to a command it does not belong to is named with its command
# (one line, as every other usage error), not argparse's "unrecognized".
OPTION_HOME = {"--mission": "journal", "--keep": "backups", "--as": "play",
               **{o: "serve" for o in ("--listen", "--web-listen", "--ssh-port", "--web-port",
                                       "--no-ssh", "--no-web", "--public-url")}}


class UserError(Exception):
    """A problem the user can fix; printed as one line."""


@dataclass(frozen=True)
class Flags:
    """The options that shape how a campaign is opened and drawn, from the
    command line or its environment variables (read here, nowhere else) and
    passed on as arguments."""

    ascii: bool = False       # --ascii, KA_TUI_ASCII=1: plain ASCII glyphs
    read_only: bool = False   # --read-only, KA_TUI_READ_ONLY=1
    shared: bool = False      # --shared-group, KA_TUI_SHARED_GROUP=1

    @classmethod
    def of(cls, args: argparse.Namespace, environ: Mapping[str, str]) -> Flags:
        return cls(ascii=args.ascii or env_on(environ, "KA_TUI_ASCII"),
                   read_only=args.read_only or env_on(environ, "KA_TUI_READ_ONLY"),
                   shared=args.shared_group or env_on(environ, "KA_TUI_SHARED_GROUP"))


def env_on(environ: Mapping[str, str], name: str) -> bool:
    """An environment switch: set to anything but empty or 0."""
    return environ.get(name, "").strip() not in ("", "0")


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors as the app's one line (exit 2) and a
    missing FILE said with an example to type."""

    example: str = ""

    def error(self, message: str) -> NoReturn:
        if "invalid choice" in message and message.startswith("argument COMMAND"):
            word = message.split("'")[1]
            message = (f"unknown command {word!r} (commands: "
                       f"{', '.join(c.name for c in COMMANDS)}; see ka-tui --help)")
        elif "unrecognized arguments" in message:
            message = f"{message} (see ka-tui --help)"
        elif "the following arguments are required" in message and self.example:
            what = message.rsplit(":", 1)[1].strip()
            message = f"{self.prog.split()[-1]} needs a {what} (try: {self.example})"
        elif "not allowed with argument" in message:
            message = f"use one of {', '.join(_ONE_OF)} at a time"
        raise SystemExit(_fail(message))


_ONE_OF = ("--where", "--demo", "--new", "a command")


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, help line, arguments and what runs it."""

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    file: str = ""         # the positional argument's name, when it takes one
    file_help: str = ""
    example: str = ""
    force: bool = False    # takes --force
    extra: Callable[[argparse.ArgumentParser], None] | None = None


def _global_options(p: argparse.ArgumentParser, *, sub: bool) -> None:
    """The options every command takes, before or after the command's name
    (after it, they default to nothing, so they never undo one given before)."""
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if sub else {}
    p.add_argument("--db", type=Path, metavar="PATH", help="use this campaign file",
                   **default)
    p.add_argument("--ascii", action="store_true",
                   help="draw plain ASCII only (also KA_TUI_ASCII=1), for terminals "
                        "or fonts without box-drawing characters", **default)
    p.add_argument("--read-only", action="store_true",
                   help="open the campaign read-only (also KA_TUI_READ_ONLY=1); a campaign "
                        "that cannot be written opens read-only anyway", **default)
    p.add_argument("--shared-group", action="store_true",
                   help="make the campaign, its side files and backups group read-write "
                        "(also KA_TUI_SHARED_GROUP=1)", **default)


def _journal_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mission", type=int, metavar="ID",
                   help="write that mission's debrief (ids: the campaign mode's "
                        "missions list)")


def _backups_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep", metavar="DAILY,WEEKLY",
                   help="how many daily and weekly backups rotation keeps (default 7,4)")


def _play_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--as", dest="player", metavar="NAME",
                   help="the character you play (full or first name)")


def _serve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--listen", metavar="ADDR", default="",
                   help="listen on this address only (default: every address of this "
                        "machine)")
    p.add_argument("--web-listen", metavar="ADDR",
                   help="the browser side on this address only (default: as --listen); "
                        "127.0.0.1 behind a TLS proxy on this machine")
    p.add_argument("--ssh-port", type=int, metavar="PORT", default=2222,
                   help="the SSH port (default 2222)")
    p.add_argument("--web-port", type=int, metavar="PORT", default=8022,
                   help="the browser port (default 8022)")
    p.add_argument("--no-ssh", action="store_true", help="no SSH, browsers only")
    p.add_argument("--no-web", action="store_true", help="no browsers, SSH only")
    p.add_argument("--public-url", metavar="URL",
                   help="the address players' browsers use, when it is not this machine's "
                        "(a TLS proxy: https://table.example.org)")


PLAYER_ACTIONS = ("list", "add-key", "code", "link", "unlink", "revoke", "drop")


def _players_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", default="list", choices=PLAYER_ACTIONS,
                   metavar="ACTION",
                   help="list (the default): who is seated and connected; add-key NAME FILE: "
                        "bind a public key (a .pub file, - for standard input, or the key "
                        "itself in quotes); code NAME: a one-time join code; link NAME: a new "
                        "browser link and its QR code (the old one stops working); unlink "
                        "NAME: no browser link; revoke NAME: every way in revoked and his "
                        "connections dropped; drop NAME: his connections dropped")
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="the character (full or first name)")
    p.add_argument("key", nargs="?", metavar="FILE", help="add-key: the public key")


COMMANDS: tuple[Command, ...] = (
    Command("export", "write the campaign as JSON", lambda a: _export(a.db, a.file, a.force, a.flags),
            file="FILE", file_help='the JSON file ("-" = standard output)',
            example="ka-tui export campaign.json", force=True),
    Command("import", "read a JSON export into --db PATH or a new file named after the "
            "campaign (never overwrites without --force)",
            lambda a: _import(a.file, a.db, a.force, a.flags),
            file="FILE", file_help="the JSON export", example="ka-tui import campaign.json",
            force=True),
    Command("journal", "write the campaign journal as Markdown (--mission ID: that "
            "mission's debrief)", lambda a: _journal(a.db, a.file, a.mission, a.force, a.flags),
            file="FILE", file_help='the Markdown file ("-" = standard output)',
            example="ka-tui journal journal.md", force=True, extra=_journal_options),
    Command("backups", "list the campaign's backups, newest first",
            lambda a: _backups(a.db, a.keep, a.flags), extra=_backups_options),
    Command("backup", "take a backup now", lambda a: _backup_now(a.db)),
    Command("restore", "put a backup back (the current file is backed up first)",
            lambda a: _restore(a.file, a.db), file="BACKUP",
            file_help="the backup file (see ka-tui backups)",
            example="ka-tui restore BACKUP.db (see ka-tui backups)"),
    Command("play", "a player's view: his sheet, aircraft, fights and his own CQC card "
            "(README: Players at their own terminals)",
            lambda a: _play(a.db, a.player, a.flags), extra=_play_options),
    Command("serve", "the table server: players join over SSH or in a browser, each as his "
            "character, and never touch the file (README: The table server)",
            lambda a: _serve(a), extra=_serve_options),
    Command("players", "the players at the table server: list, add-key NAME FILE, code NAME, "
            "link NAME, unlink NAME, revoke NAME, drop NAME",
            lambda a: _players(a), extra=_players_options),
)


def build_parser() -> argparse.ArgumentParser:
    from ka_tui import __version__

    p = _Parser(
        prog="ka-tui", description="King's Angels campaign manager (terminal UI).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"ka-tui {__version__}")
    _global_options(p, sub=False)
    alone = p.add_mutually_exclusive_group()
    alone.add_argument("--demo", action="store_true",
                       help="open the demo campaign, creating it if needed")
    alone.add_argument("--new", metavar="NAME",
                       help="create an empty campaign called NAME and open it")
    alone.add_argument("--where", action="store_true",
                       help="print where campaign files are kept, and exit")
    p.add_argument("--force", action="store_true",
                   help="with --demo: recreate it (the old file is backed up first)")
    commands = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                                title="commands")
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help,
                                  description=command.help)
        sub.example = command.example
        _global_options(sub, sub=True)
        if command.file:
            sub.add_argument("file", metavar=command.file, help=command.file_help)
        if command.force:
            sub.add_argument("--force", action="store_true", default=argparse.SUPPRESS,
                             help="replace an existing file (a backup is kept)")
        if command.extra is not None:
            command.extra(sub)
        sub.set_defaults(run=command.run)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    command = next((w for w in words if w in {c.name for c in COMMANDS}), None)
    for option, home in OPTION_HOME.items():
        if command != home and any(w == option or w.startswith(f"{option}=") for w in words):
            return _fail(f"{option} goes with the {home} command")
    try:
        args = parser.parse_args(argv)  # a usage error: one line, exit 2 (_Parser)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else EXIT_USER_ERROR
    try:
        return _dispatch(args)
    except UserError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    except Exception as e:  # noqa: BLE001 — a StoreError or worse: one line, no traceback
        from ka_tui.store.errors import StoreError

        if isinstance(e, StoreError):
            return _fail(str(e))
        return _fail(f"unexpected error: {type(e).__name__}: {e}")


def _closed_pipe() -> int:
    """The reader of our output left (``ka-tui export - | head``): a normal
    end. Standard output goes to /dev/null, so the interpreter's last flush at
    exit meets no closed pipe either (the Python docs' recipe for SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def _fail(message: str) -> int:
    print(f"ka-tui: {message}", file=sys.stderr)
    return EXIT_USER_ERROR


def _say(message: str) -> None:
    print(f"ka-tui: {message}", file=sys.stderr)


def _dispatch(args: argparse.Namespace) -> int:
    args.flags = flags = Flags.of(args, os.environ)
    if args.command and (args.demo or args.new is not None or args.where):
        raise UserError(f"use one of {', '.join(_ONE_OF)} at a time")
    if args.db is not None and not args.db.parent.is_dir() and not (args.new or args.demo):
        raise UserError(f"no such folder: {args.db.parent}; use --new NAME or create the "
                        "folder")
    from ka_tui.store.paths import tighten_data_dir

    tighten_data_dir()
    if args.where:
        return _where()
    if args.command:
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    if args.new is not None:
        return _run_app(_new(args.new, args.db, flags), flags)
    if args.demo:
        return _run_app(_demo(args.db, args.force, flags), flags)
    return _open_default(args.db, flags)


# --------------------------------------------------------------- commands

def _where() -> int:
    from ka_tui.store.paths import data_dir, default_db_path, list_campaign_files

    print(f"data folder:      {data_dir()}")
    print(f"backups:          {data_dir() / 'backups'}/<campaign>/")
    print(f"demo campaign:    {default_db_path()}")
    files = list_campaign_files()
    for f in files:
        print(f"campaign:         {f}")
    if not files:
        print("campaigns:        none yet (the first run creates the demo)")
    return 0


def _new(name: str, db: Path | None, flags: Flags) -> Path:
    from ka_tui.store.db import create_campaign
    from ka_tui.store.paths import file_for

    if not name.strip():
        raise UserError("--new needs a campaign name")
    path = db or file_for(name)
    if path.exists():
        raise UserError(f"{path} already exists; choose another name or --db PATH")
    create_campaign(path, name, shared=flags.shared).close()
    _say(f"created campaign {name.strip()!r} in {path}")
    return path


def _demo(db: Path | None, force: bool, flags: Flags) -> Path:
    # The demo builder (and SQLModel with it) loads only when a demo is made:
    # opening an existing one goes the light way (tests/test_startup_imports.py).
    from ka_tui.store.file_check import check_file
    from ka_tui.store.paths import default_db_path

    path = db or default_db_path()
    if path.exists():
        check_file(path)  # refuse anything that is not a campaign, before any write
        if not force:
            return _checked(path, flags, daily=False)
        from ka_tui.store.db import backup_file

        backup = backup_file(path, "before-demo-reset")
        for side in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            side.unlink(missing_ok=True)
        _say(f"previous file kept as {backup}")
    from ka_tui.store.demo import create_demo

    create_demo(path, shared=flags.shared).close()
    _say(f"created the demo campaign in {path}")
    return path


def _open_default(db: Path | None, flags: Flags) -> int:
    if db is not None:
        if not db.exists():
            return _run_app(_demo(db, False, flags), flags)
        return _run_app(_checked(db, flags, daily=False), flags)
    from ka_tui.store.paths import list_campaign_files

    files = list_campaign_files()
    if not files:
        _say("first run: creating the demo campaign")
        return _run_app(_demo(None, False, flags), flags)
    if len(files) == 1:
        return _run_app(_checked(files[0], flags, daily=False), flags)
    return _run_app(None, flags)  # the app shows the campaign picker


def _checked(path: Path, flags: Flags, *, daily: bool = True) -> Path:
    """Refuse a bad file, migrate an old one, take the day's backup (``daily``;
    else the app's startup read takes it) — before the screen is taken over.
    A campaign that cannot be written opens read-only."""
    from ka_tui.store.db import check_file, migrate
    from ka_tui.store.files import protect, read_only_reason
    from ka_tui.store.migrations import SCHEMA_VERSION

    found = check_file(path)
    damaged = None if flags.read_only else _pages_damaged(path)
    reason = read_only_reason(path, asked=flags.read_only)
    if reason is not None:
        if found.version < SCHEMA_VERSION:
            raise UserError(f"{path} comes from an older ka-tui and must be upgraded, which "
                            f"needs write access ({reason}); it was not changed.")
        if damaged is not None:
            _say(damaged)
        else:
            _say(f"opening {path} read-only ({reason}): nothing will be saved or logged")
        return path
    if found.version < SCHEMA_VERSION:
        backup = migrate(path, found.version)
        _say(f"upgraded {path} to schema {SCHEMA_VERSION} (backup: {backup})")
    protect(path, shared=True if flags.shared else None)
    if daily:
        from ka_tui.store.backups import daily_backup

        daily_backup(path)
    return path


def _pages_damaged(path: Path, done: str = "opening it read-only: nothing will be saved "
                                             "or logged") -> str | None:
    """The integrity check due on opening (once a day; ``backups.check_pages_if_due``):
    the one line saying the file is damaged and what to do, or None."""
    from ka_tui.store.backups import check_pages_if_due, damage_text

    problem = check_pages_if_due(path)
    return None if problem is None else damage_text(path, problem, done)


def _source(db: Path | None) -> Path:
    if db is not None:
        return db
    from ka_tui.store.paths import list_campaign_files

    files = list_campaign_files()
    if len(files) == 1:
        return files[0]
    if not files:
        raise UserError("no campaign yet; name one with --db PATH")
    names = ", ".join(f.name for f in files)
    raise UserError(f"several campaigns ({names}); choose one with --db PATH")


def _export(db: Path | None, file: str, force: bool, flags: Flags) -> int:
    from ka_tui.store.db import open_campaign
    from ka_tui.store.transfer import export_campaign

    with open_campaign(_source(db), read_only=flags.read_only) as campaign:
        written = export_campaign(campaign, file, force=force)
    if written is not None:
        _say(f"exported {campaign.path} to {written}")
    _damage_note(campaign.path, "exported what it holds (unreadable text as \ufffd)")
    return 0


def _damage_note(path: Path, done: str) -> None:
    """After a command that read a campaign found damaged inside: one line."""
    from ka_tui.store.backups import damage_text
    from ka_tui.store.files import page_damage

    problem = page_damage(path)
    if problem is not None:
        _say(damage_text(path, problem, done))


def _journal(db: Path | None, file: str, mission: int | None, force: bool,
             flags: Flags) -> int:
    """The journal (or one mission's debrief) as Markdown."""
    from ka_tui.store import journal, missions
    from ka_tui.store.db import open_campaign

    source = _source(db)
    out = Path(file)
    if file != "-" and out.exists() and not force:
        raise UserError(f"{out} already exists; use --force to replace it")
    with open_campaign(source, read_only=flags.read_only) as campaign:
        if mission is None:
            text = journal.journal_markdown(campaign, f"Journal: {source.stem}")
        else:
            text = missions.debrief_markdown(campaign, mission)
    if file == "-":
        sys.stdout.write(text)
        return 0
    from ka_tui.store.files import write_text_atomic

    try:
        write_text_atomic(out, text)  # 0600 like an export; never a half-written file
    except OSError as e:
        raise UserError(f"cannot write {out}: {e.strerror}") from None
    _say(f"wrote the {'journal' if mission is None else f'debrief of mission {mission}'} "
         f"to {out}")
    return 0


def _import(file: str, db: Path | None, force: bool, flags: Flags) -> int:
    from ka_tui.store.errors import ValidationError
    from ka_tui.store.paths import file_for
    from ka_tui.store.transfer import import_campaign, read_document

    target = db
    try:
        if target is None:
            doc = read_document(file)  # validated twice on this path; cheap, and names the file
            target = file_for(doc["campaign"]["name"])
        result = import_campaign(file, target, force=force)
    except ValidationError as e:
        where = "standard input" if file == "-" else file
        raise UserError(f"{e} (in {where}; nothing was imported)") from None
    result.db.close()
    if flags.shared:
        from ka_tui.store.files import protect

        protect(target, shared=True)
    if result.backup is not None:
        _say(f"previous file kept as {result.backup}")
    _say(f"imported {file} into {target}")
    return 0


def _backups(db: Path | None, keep: str | None, flags: Flags) -> int:
    from ka_tui.store.backups import list_backups, rotate, set_keep

    source = _source(db)
    if keep is not None:
        try:
            daily, weekly = (int(x) for x in keep.split(","))
        except ValueError:
            raise UserError("--keep wants two whole numbers: DAILY,WEEKLY (e.g. 7,4)") from None
        _checked(source, flags)
        set_keep(source, daily, weekly)
        gone = rotate(source)
        _say(f"rotation keeps {daily} daily and {weekly} weekly backups"
             + (f"; removed {len(gone)}" if gone else ""))
    found = list_backups(source)
    if not found:
        print(f"no backups of {source} yet (one is taken when it is opened each day)")
        return 0
    print(f"backups of {source}, newest first (restore with: ka-tui restore FILE):")
    for b in found:
        print(b.line())
    return 0


def _backup_now(db: Path | None) -> int:
    from ka_tui.store.backups import take_backup
    from ka_tui.store.db import check_file

    source = _source(db)
    check_file(source)
    backup = take_backup(source, "manual")
    _say(f"backed up {source} to {backup.path}")
    return 0


def _restore(file: str, db: Path | None) -> int:
    from ka_tui.store.backups import restore

    done = restore(Path(file), db)
    if done.previous is not None:
        _say(f"the file as it was is kept as {done.previous.path}")
    _say(f"restored {done.campaign} from {done.backup}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Run the table server for the campaign until stopped (ka_tui/server)."""
    from ka_tui.server.run import serve
    from ka_tui.server.table import TableError

    path = _source(args.db)
    if not path.exists():
        raise UserError(f"no campaign at {path}")
    from ka_tui.store.db import check_file
    from ka_tui.store.files import read_only_reason

    check_file(path)  # a file that is not a campaign is named first
    damaged = _pages_damaged(path, "the table server cannot run on it")
    if damaged is not None:
        raise UserError(damaged)
    reason = read_only_reason(path, asked=args.flags.read_only)
    if reason is not None:
        raise UserError(f"the table server writes to {path} (players' cards and plans, who "
                        f"is connected), but it cannot be written ({reason})")
    _checked(path, args.flags)
    for port in (args.ssh_port, args.web_port):
        if not 0 <= port <= 65535:
            raise UserError(f"no such port: {port} (ports are 1 to 65535)")
    if args.no_ssh and args.no_web:
        raise UserError("with --no-ssh and --no-web nobody could join; drop one of them")
    try:
        return serve(path, listen=args.listen, web_listen=args.web_listen,
                     ssh_port=None if args.no_ssh else args.ssh_port,
                     web_port=None if args.no_web else args.web_port,
                     public_url=args.public_url)
    except TableError as error:
        raise UserError(str(error)) from None


def _players(args: argparse.Namespace) -> int:
    """The GM's seats at the table, from the command line (ka_tui/server/run.py)."""
    from ka_tui.server.run import players
    from ka_tui.server.table import TableError

    path = _source(args.db)
    if not path.exists():
        raise UserError(f"no campaign at {path}")
    if args.action != "list" and not args.name:
        raise UserError(f"players {args.action} needs a NAME (the character: "
                        f"ka-tui players {args.action} Kasia)")
    if args.action == "add-key" and not args.key:
        raise UserError("players add-key needs the public key: ka-tui players add-key Kasia "
                        "kasia.pub (or - to paste it)")
    if args.key and args.action != "add-key":
        raise UserError(f"players {args.action} takes only a NAME")
    _checked(path, args.flags)
    try:
        return players(path, args.action, args.name, args.key)
    except TableError as error:
        raise UserError(str(error)) from None


def _play(db: Path | None, name: str | None, flags: Flags) -> int:
    """A player's own view. Refuses an unknown name and a campaign
    this user cannot write. The same name connected twice is allowed: every
    send is checked by the fight's rules inside its write transaction, so the
    second of two clashing sends is refused and reloads; nothing is lost."""
    from ka_tui.store.player_data import check_player

    if not name:
        raise UserError("play needs --as NAME (the character you play)")
    path = _source(db)
    if not path.exists():
        raise UserError(f"no campaign at {path}")
    try:
        full = check_player(path, name, read_only=flags.read_only)
    except PermissionError:
        raise UserError(f"you cannot open {path} (no read access for this account); ask "
                        "the GM to put you in the campaign's group (README: Players "
                        "at their own terminals), or to seat you at his table server "
                        "(ka-tui serve)") from None
    from ka_tui.store.backups import damage_text
    from ka_tui.store.files import page_damage

    problem = page_damage(path)
    if problem is not None:
        _say(damage_text(path, problem, "opening it read-only: your cards cannot be sent"))
    _need_terminal(player=True)
    from ka_tui.store.startup_read import begin_player_read, pause_collector

    pause_collector()

    startup_read = begin_player_read(path, full)  # as for the GM's roster
    from ka_tui.player_app import PlayerApp

    PlayerApp(path, full, ascii_glyphs=flags.ascii, startup_read=startup_read).run()
    return 0


def _need_terminal(*, player: bool = False) -> None:
    """The app draws on a terminal and reads keys from it. Without one (stdin or
    stdout not a TTY: ``ka-tui </dev/null``, ``ssh host ka-tui`` without ``-t``)
    Textual would spin a core forever waiting for keys; say so and exit 2
    instead. Checked after the file checks (a bad file is named first) and
    before Textual loads. A player (``play``, often a forced command over SSH)
    is told the one thing he can type: his ssh command with ``-t``."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return
    which = "input" if not sys.stdin.isatty() else "output"
    if player:
        raise UserError(f"the player's view needs a terminal, but its {which} is not one; "
                        f"connect with: {_player_ssh_command()}")
    raise UserError(f"needs a terminal, but its {which} is not one; over SSH use "
                    "`ssh -t HOST ka-tui` (the commands export, import, backups, "
                    "backup, restore and --where work without one)")


def _player_ssh_command() -> str:
    """``ssh -t [-p PORT] USER@HOST`` as this connection came in (SSH sets
    ``SSH_CONNECTION`` = client ip, client port, server ip, server port)."""
    import getpass

    parts = os.environ.get("SSH_CONNECTION", "").split()
    host = parts[2] if len(parts) == 4 else "HOST"
    port = f" -p {parts[3]}" if len(parts) == 4 and parts[3] != "22" else ""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "USER"
    return f"ssh -t{port} {user}@{host}"


def _run_app(path: Path | None, flags: Flags) -> int:
    _need_terminal()
    from ka_tui.store.startup_read import pause_collector

    pause_collector()
    startup_read = None if path is None else _begin_startup_read(path, flags)
    gm_app(path, flags, startup_read).run()
    return 0


def _begin_startup_read(path: Path, flags: Flags) -> Future[Any]:
    """The roster's startup read, begun before Textual is imported, in a child
    process where it can (store/startup_read.py), so the roster's first frame
    waits for nothing. It takes the day's backup first (best effort, as ever)."""
    from ka_tui.store.startup_read import in_child, read_roster

    return in_child(lambda: read_roster(path, daily_backup=True,
                                        read_only=flags.read_only))


def gm_app(path: Path | None, flags: Flags,
           startup_read: Future[Any] | None = None) -> KaApp:
    """The GM's app on ``path`` (None: the picker) with the command line's flags."""
    from ka_tui.app import KaApp

    return KaApp(path, ascii_glyphs=flags.ascii, read_only=flags.read_only,
                 startup_read=startup_read)
