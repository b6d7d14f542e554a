"""The table server's SSH host key: made once, kept in the data folder (0600).

Players' ``ssh`` remembers it the first time (``known_hosts``) and warns if
it ever changes, so it is made once per GM, not per run or per campaign.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from ka_tui.store.files import private_dir
from ka_tui.store.paths import data_dir

HOST_KEY_NAME = "ssh_host_ed25519_key"


def host_key_path(folder: Path | None = None) -> Path:
    return (folder or data_dir()) / HOST_KEY_NAME


def load_host_key(folder: Path | None = None) -> asyncssh.SSHKey:
    """The host key, made on first use (ed25519; the file created 0600 from
    the start, never readable by anyone else even for a moment)."""
    path = host_key_path(folder)
    if not path.exists():
        private_dir(path.parent)
        key = asyncssh.generate_private_key("ssh-ed25519", comment="ka-tui table server")
        data = key.export_private_key()
        tmp = path.with_name(f".{path.name}.new")
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
    return asyncssh.read_private_key(path)


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…``, as a player's ``ssh`` shows it the first time."""
    return str(key.get_fingerprint("sha256"))
