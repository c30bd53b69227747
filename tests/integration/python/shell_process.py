"""Running `sibyl shell` (and `sibyl demo`) from tests: as a batch command
(-e, -f, piped input) with subprocess, or interactively under a
pseudo-terminal (ShellTerminal) that the test types into."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import time
from pathlib import Path

from sibyl_process import SibylServer, die_with_parent, sibyl_binary


def run_shell(server: SibylServer, *args: str, input: str | None = None,
              timeout: float = 60, env: dict | None = None) -> subprocess.CompletedProcess:
    """`sibyl shell host port args...`, its output captured."""
    return subprocess.run([str(sibyl_binary()), "shell", server.host, str(server.port), *args],
                          input=input, capture_output=True, text=True, timeout=timeout,
                          env=env, preexec_fn=die_with_parent)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


class ShellTerminal:
    """A process on a pseudo-terminal: `expect` waits for text in what it
    printed (escape sequences and carriage returns removed); `send` types."""

    def __init__(self, args: list[str], home: Path, extra_env: dict | None = None):
        env = dict(os.environ, TERM="xterm", HOME=str(home), COLUMNS="200", LINES="50",
                   LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.update(extra_env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            try:
                die_with_parent()
                os.execve(args[0], args, env)
            finally:
                os._exit(127)
        self.output = ""
        self.raw = ""  # the output with its escape sequences
        self.seen = 0  # what expect() has consumed

    def read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                data = b""
            text = data.decode("utf-8", errors="replace")
            self.raw += text
            self.output += ANSI.sub("", text)

    def expect(self, text: str, timeout: float = 15) -> str:
        """Waits until `text` appears after what earlier calls consumed;
        returns the output up to and including it."""
        deadline = time.monotonic() + timeout
        while True:
            at = self.output.find(text, self.seen)
            if at >= 0:
                chunk = self.output[self.seen:at + len(text)]
                self.seen = at + len(text)
                return chunk
            if time.monotonic() > deadline:
                raise AssertionError(f"did not see {text!r}; output since the last match:\n"
                                     f"{self.output[self.seen:]}")
            self.read(0.05)

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def interrupt(self) -> None:
        self.send("\x03")  # Ctrl-C, as the terminal delivers it

    def wait(self, timeout: float = 15) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.pid = 0
                return os.waitstatus_to_exitcode(status)
            self.read(0.05)
        raise AssertionError("the shell did not exit:\n" + self.output[self.seen:])

    def close(self) -> None:
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0
        os.close(self.fd)


def shell_terminal(server: SibylServer, home: Path, *args: str) -> ShellTerminal:
    return ShellTerminal([str(sibyl_binary()), "shell", server.host, str(server.port), *args],
                         home)
