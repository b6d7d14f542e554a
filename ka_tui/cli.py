"""Command line: ``ka-tui [--db PATH] [--demo] [--where] [--new NAME] [export|import FILE]``."""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ka-tui")
    parser.add_argument("--db", type=Path)
    args = parser.parse_args(argv)
    from ka_tui.app import KaApp

    KaApp(args.db or Path("campaign.db")).run()
    return 0
