#!/usr/bin/env python3
# repl_terminal_check.py — tcpi on a terminal (a pseudo-terminal): the LineEditor prompt, Tab
# completion of a `:` command and an axis, a multi-line input, and the history file it writes.
# CTest `repl_terminal`: repl_terminal_check.py TCPI SCRATCH_DIR
import os
import pty
import select
import sys
import time

tcpi, scratch = sys.argv[1], sys.argv[2]
os.makedirs(scratch, exist_ok=True)
history = os.path.join(scratch, "tcpi-history")
if os.path.exists(history):
    os.remove(history)

pid, fd = pty.fork()
if pid == 0:
    os.environ["TCPI_HISTORY"] = history
    os.execv(tcpi, [tcpi])

seen = b""


def wait_for(text, timeout=30.0):
    """Reads the terminal until `text` has appeared since the last wait."""
    global seen
    deadline = time.time() + timeout
    while text.encode() not in seen:
        left = deadline - time.time()
        if left <= 0:
            sys.exit(f"repl_terminal: timed out waiting for {text!r}; the terminal showed:\n{seen.decode(errors='replace')}")
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    seen = seen[seen.index(text.encode()) + len(text):]


def send(keys):
    os.write(fd, keys.encode())


wait_for("tcp> ")
send("axes![Alpha = 8, Beta = 4];\r")
wait_for("tcp> ")
send(":ty\t")          # completes the command (and a space); the editor redraws the line
time.sleep(0.2)
send("Al\t\r")         # completes the axis, then runs `:type Alpha`
wait_for("m![Alpha]")
wait_for("tcp> ")
send("fn twice(x: i32) -> i32 {\r")
wait_for("...> ")      # the input continues until its brackets balance
send("    2 * x\r}\r")
wait_for("tcp> ")
send("twice(21)\r")
wait_for("42")
send(":quit\r")
_, status = os.waitpid(pid, 0)
if status != 0:
    sys.exit(f"repl_terminal: tcpi exited with status {status}")
with open(history) as f:
    saved = f.read()
for line in (":type\\040Alpha", "twice(21)"):
    if line not in saved:
        sys.exit(f"repl_terminal: the history file lacks {line!r}:\n{saved}")
print("repl_terminal: completion, continuation and history work on a terminal")
