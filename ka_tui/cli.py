"""Command line: ``ka-tui [--db PATH] [--demo] [--new NAME] [--where] [--force] [--ascii]
[--read-only] [--shared-group] [export FILE | import FILE | journal FILE | backups | restore BACKUP]``.

Every user error is one line on stderr and exit code 2, never a traceback.
The campaign file is checked (and migrated) here, before the app starts, with
the standard library only; Textual and SQLModel load only when needed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Future

EXIT_USER_ERROR = 2

EPILOG = """\
without a command: open the campaign (--db, or the one in the data folder; a
picker when there are several; the demo on first run).
  ka-tui export FILE     write the campaign as JSON (FILE "-" = stdout)
  ka-tui import FILE     read a JSON export into --db PATH or a new file named
                         after the campaign (refuses to overwrite without --force)
  ka-tui journal FILE    write the campaign journal as Markdown (FILE "-" = stdout);
                         --mission ID writes that mission's debrief instead
  ka-tui backups         list the campaign's backups, newest first
                         (--keep DAILY,WEEKLY sets how many rotation keeps)
  ka-tui backup          take a backup now
  ka-tui restore BACKUP  put a backup back (the current file is backed up first)
  ka-tui play --as NAME  a player's view: NAME's sheet, aircraft and fights, and
                         his own CQC card when the GM asks for cards (README:
                         Players at their own terminals)
files are private to you (0600, folders 0700); --shared-group (or
KA_TUI_SHARED_GROUP=1) makes a campaign and its backups group read-write, for
players reading it over SSH; it stays shared afterwards.
"""


class UserError(Exception):
    """A problem the user can fix; printed as one line."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ka-tui", description="King's Angels campaign manager (terminal UI).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", nargs="?",
                   choices=("export", "import", "journal", "backups", "backup", "restore",
                            "play"),
                   help=argparse.SUPPRESS)
    p.add_argument("file", nargs="?", help=argparse.SUPPRESS)
    p.add_argument("--db", type=Path, metavar="PATH", help="use this campaign file")
    p.add_argument("--demo", action="store_true",
                   help="open the demo campaign, creating it if needed")
    p.add_argument("--new", metavar="NAME", help="create an empty campaign called NAME and open it")
    p.add_argument("--where", action="store_true",
                   help="print where campaign files are kept, and exit")
    p.add_argument("--ascii", action="store_true",
                   help="draw plain ASCII only (also KA_TUI_ASCII=1), for terminals "
                        "or fonts without box-drawing characters")
    p.add_argument("--force", action="store_true",
                   help="with import/export/--demo: replace an existing file (a backup is kept)")
    p.add_argument("--read-only", action="store_true",
                   help="open the campaign read-only (also KA_TUI_READ_ONLY=1); a campaign "
                        "that cannot be written opens read-only anyway")
    p.add_argument("--shared-group", action="store_true",
                   help="make the campaign, its side files and backups group read-write "
                        "(also KA_TUI_SHARED_GROUP=1)")
    p.add_argument("--mission", type=int, metavar="ID",
                   help="with journal: write that mission's debrief (ids: the campaign "
                        "mode's missions list)")
    p.add_argument("--as", dest="player", metavar="NAME",
                   help="with play: the character you play (full or first name)")
    p.add_argument("--keep", metavar="DAILY,WEEKLY",
                   help="with backups: how many daily and weekly backups rotation keeps "
                        "(default 7,4)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # argparse itself exits 2 on bad usage
    try:
        return _dispatch(parser, args)
    except UserError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 — a StoreError or worse: one line, no traceback
        from ka_tui.store.errors import StoreError

        if isinstance(e, StoreError):
            return _fail(str(e))
        return _fail(f"unexpected error: {type(e).__name__}: {e}")


def _fail(message: str) -> int:
    print(f"ka-tui: {message}", file=sys.stderr)
    return EXIT_USER_ERROR


def _say(message: str) -> None:
    print(f"ka-tui: {message}", file=sys.stderr)


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.ascii:
        os.environ["KA_TUI_ASCII"] = "1"  # the app and every widget read it (widgets/glyphs.py)
    if args.read_only:
        os.environ["KA_TUI_READ_ONLY"] = "1"  # store/files.py read_only_reason
    if args.shared_group:
        os.environ["KA_TUI_SHARED_GROUP"] = "1"  # store/files.py share_requested
    if args.command in ("export", "import", "journal", "restore") and not args.file:
        what = "BACKUP" if args.command == "restore" else "FILE"
        example = "campaign.json" if args.command != "restore" else "BACKUP.db (see ka-tui backups)"
        raise UserError(f"{args.command} needs a {what} (try: ka-tui {args.command} {example})")
    if args.mission is not None and args.command != "journal":
        raise UserError("--mission goes with the journal command")
    if args.file and args.command not in ("export", "import", "journal", "restore"):
        raise UserError(f"unexpected argument {args.file!r} (see ka-tui --help)")
    if (args.player is not None) != (args.command == "play"):
        raise UserError("play needs --as NAME (the character you play), and --as goes "
                        "with play only")
    if args.keep is not None and args.command != "backups":
        raise UserError("--keep goes with the backups command")
    if sum(bool(x) for x in (args.command, args.demo, args.new, args.where)) > 1:
        raise UserError("use one of --where, --demo, --new, export, import, backups, "
                        "restore at a time")
    if args.db is not None and not args.db.parent.is_dir() and not (args.new or args.demo):
        raise UserError(f"no such folder: {args.db.parent}; use --new NAME or create the "
                        "folder")
    from ka_tui.store.paths import tighten_data_dir

    tighten_data_dir()
    if args.where:
        return _where()
    if args.command == "export":
        return _export(args.db, args.file, args.force)
    if args.command == "import":
        return _import(args.file, args.db, args.force)
    if args.command == "journal":
        return _journal(args.db, args.file, args.mission, args.force)
    if args.command == "backups":
        return _backups(args.db, args.keep)
    if args.command == "backup":
        return _backup_now(args.db)
    if args.command == "restore":
        return _restore(args.file, args.db)
    if args.command == "play":
        return _play(args.db, args.player)
    if args.new is not None:
        return _run_app(_new(args.new, args.db))
    if args.demo:
        return _run_app(_demo(args.db, args.force))
    return _open_default(args.db)


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


def _new(name: str, db: Path | None) -> Path:
    from ka_tui.store.db import create_campaign
    from ka_tui.store.paths import file_for

    if not name.strip():
        raise UserError("--new needs a campaign name")
    path = db or file_for(name)
    if path.exists():
        raise UserError(f"{path} already exists; choose another name or --db PATH")
    create_campaign(path, name).close()
    _say(f"created campaign {name.strip()!r} in {path}")
    return path


def _demo(db: Path | None, force: bool) -> Path:
    # The demo builder (and SQLModel with it) loads only when a demo is made:
    # opening an existing one goes the light way (tests/test_startup_imports.py).
    from ka_tui.store.file_check import check_file
    from ka_tui.store.paths import default_db_path

    path = db or default_db_path()
    if path.exists():
        check_file(path)  # refuse anything that is not a campaign, before any write
        if not force:
            return _checked(path, daily=False)
        from ka_tui.store.db import backup_file

        backup = backup_file(path, "before-demo-reset")
        for side in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            side.unlink(missing_ok=True)
        _say(f"previous file kept as {backup}")
    from ka_tui.store.demo import create_demo

    create_demo(path).close()
    _say(f"created the demo campaign in {path}")
    return path


def _open_default(db: Path | None) -> int:
    if db is not None:
        if not db.exists():
            return _run_app(_demo(db, False))
        return _run_app(_checked(db, daily=False))
    from ka_tui.store.paths import list_campaign_files

    files = list_campaign_files()
    if not files:
        _say("first run: creating the demo campaign")
        return _run_app(_demo(None, False))
    if len(files) == 1:
        return _run_app(_checked(files[0], daily=False))
    return _run_app(None)  # the app shows the campaign picker


def _checked(path: Path, *, daily: bool = True) -> Path:
    """Refuse a bad file, migrate an old one, take the day's backup (``daily``;
    else the app's startup read takes it) — before the screen is taken over.
    A campaign that cannot be written opens read-only."""
    from ka_tui.store.db import check_file, migrate
    from ka_tui.store.files import protect, read_only_reason
    from ka_tui.store.migrations import SCHEMA_VERSION

    found = check_file(path)
    reason = read_only_reason(path)
    if reason is not None:
        if found.version < SCHEMA_VERSION:
            raise UserError(f"{path} comes from an older ka-tui and must be upgraded, which "
                            f"needs write access ({reason}); it was not changed.")
        _say(f"opening {path} read-only ({reason}): nothing will be saved or logged")
        return path
    if found.version < SCHEMA_VERSION:
        backup = migrate(path, found.version)
        _say(f"upgraded {path} to schema {SCHEMA_VERSION} (backup: {backup})")
    protect(path)
    if daily:
        from ka_tui.store.backups import daily_backup

        daily_backup(path)
    return path


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


def _export(db: Path | None, file: str, force: bool) -> int:
    from ka_tui.store.db import open_campaign
    from ka_tui.store.transfer import export_campaign

    with open_campaign(_source(db)) as campaign:
        written = export_campaign(campaign, file, force=force)
    if written is not None:
        _say(f"exported {campaign.path} to {written}")
    return 0


def _journal(db: Path | None, file: str, mission: int | None, force: bool) -> int:
    """The journal (or one mission's debrief) as Markdown (issue 15)."""
    from ka_tui.store import journal, missions
    from ka_tui.store.db import open_campaign

    source = _source(db)
    out = Path(file)
    if file != "-" and out.exists() and not force:
        raise UserError(f"{out} already exists; use --force to replace it")
    with open_campaign(source) as campaign:
        if mission is None:
            text = journal.journal_markdown(campaign, f"Journal: {source.stem}")
        else:
            text = missions.debrief_markdown(campaign, mission)
    if file == "-":
        sys.stdout.write(text)
        return 0
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write {out}: {e.strerror}") from None
    _say(f"wrote the {'journal' if mission is None else f'debrief of mission {mission}'} "
         f"to {out}")
    return 0


def _import(file: str, db: Path | None, force: bool) -> int:
    from ka_tui.store.paths import file_for
    from ka_tui.store.transfer import import_campaign, read_document

    target = db
    if target is None:
        doc = read_document(file)  # validated twice on this path; cheap, and names the file
        target = file_for(doc["campaign"]["name"])
    result = import_campaign(file, target, force=force)
    result.db.close()
    if result.backup is not None:
        _say(f"previous file kept as {result.backup}")
    _say(f"imported {file} into {target}")
    return 0


def _backups(db: Path | None, keep: str | None) -> int:
    from ka_tui.store.backups import list_backups, rotate, set_keep

    source = _source(db)
    if keep is not None:
        try:
            daily, weekly = (int(x) for x in keep.split(","))
        except ValueError:
            raise UserError("--keep wants two whole numbers: DAILY,WEEKLY (e.g. 7,4)") from None
        _checked(source)
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


def _play(db: Path | None, name: str) -> int:
    """Issue 14: a player's own view. Refuses an unknown name and a campaign
    this user cannot write. The same name connected twice is allowed: every
    send is checked by the fight's rules inside its write transaction, so the
    second of two clashing sends is refused and reloads; nothing is lost."""
    from ka_tui.store.player_data import check_player

    path = _source(db)
    if not path.exists():
        raise UserError(f"no campaign at {path}")
    full = check_player(path, name)
    _need_terminal()
    from ka_tui.store.startup_read import in_child, read_player

    startup_read = in_child(lambda: read_player(path, full))  # as for the GM's roster
    from ka_tui.player_app import PlayerApp

    PlayerApp(path, full, startup_read=startup_read).run()
    return 0


def _need_terminal() -> None:
    """The app draws on a terminal and reads keys from it. Without one (stdin or
    stdout not a TTY: ``ka-tui </dev/null``, ``ssh host ka-tui`` without ``-t``)
    Textual would spin a core forever waiting for keys; say so and exit 2
    instead. Checked after the file checks (a bad file is named first) and
    before Textual loads."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        which = "input" if not sys.stdin.isatty() else "output"
        raise UserError(f"needs a terminal, but its {which} is not one; over SSH use "
                        "`ssh -t HOST ka-tui` (the commands export, import, backups, "
                        "backup, restore and --where work without one)")


def _run_app(path: Path | None) -> int:
    _need_terminal()
    _start_app(path, None if path is None else _begin_startup_read(path))
    return 0


def _begin_startup_read(path: Path) -> Future[Any]:
    """The roster's startup read, begun before Textual is imported, in a child
    process where it can (store/startup_read.py), so the roster's first frame
    waits for nothing. It takes the day's backup first (best effort, as ever)."""
    from ka_tui.store.startup_read import in_child, read_roster

    return in_child(lambda: read_roster(path, daily_backup=True))


def _start_app(path: Path | None, startup_read: Future[Any] | None) -> None:
    from ka_tui.app import KaApp

    KaApp(path, startup_read=startup_read).run()
