"""The table server (``ka-tui serve``): players join the GM's campaign over
SSH or in a browser; no Unix accounts, and no player ever touches the file.

The GM's own process owns the campaign (0600) and serves it. Each player is
bound to one character (``store/table_seats.py``: a public key, a one-time
join code that enrols the key he connects with, or a browser link with a
secret token), and a connection gets that character's player view and
nothing else:

- ``ssh.py``: an SSH server on asyncssh. Public-key sign-in only; a pty and
  a shell, nothing more (no exec, no subsystem such as sftp or scp, no
  port, agent or X11 forwarding, and the client's environment is never
  passed on). Its host key is made once, in the data folder (``host_key.py``).
- ``web.py``: textual-serve's browser front end, on routes of its own that
  take the player's token (``/P/TOKEN``); nothing is served without one.
- ``seat_process.py``: each connection's view is ``ka-tui``'s player app in a
  child process of the server (on a pseudo-terminal for SSH, on Textual's
  web driver for a browser), running as the GM so it may read the file,
  while the player only ever gets its screen. A process per player keeps
  one player's fault (a crash, a flood of bytes) his own, and a player who
  leaves costs nothing: his process ends with his connection.
- ``table.py``: the server itself: it records who is connected, by which
  way, since when (``table_connection``), and watches the file for the GM's
  requests (drop a connection, revoke a player) made from his own ka-tui or
  ``ka-tui players`` in another process.
"""

import warnings

# asyncssh names DSA keys in its type hints, and cryptography 51 warns about
# DSA as soon as they are read: a library's deprecation, printed on the GM's
# terminal by ``ka-tui serve`` and ``ka-tui players`` though no DSA key is
# ever made or accepted here. Kept out of sight for asyncssh's modules only.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
