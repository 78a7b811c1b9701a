#!/usr/bin/env python3
"""Every script answers --help and refuses an unknown option, and neither writes anything into the work tree.

A folder named `--help` was once committed at the repository root: a script took the option as its output folder.
This check runs every script under scripts/, Fuzz/ and TestVectors/generator/ (*.py with an
`if __name__ == "__main__":` guard, *.sh with a #! line; Python modules without the guard are imported helpers,
shell files without #! are sourced libraries such as scripts/lib/serve-lib.sh) twice, from the repository root with
the environment unchanged, each within 20 s:

  SCRIPT --help                  must exit 0 with its usage on standard output;
  SCRIPT --no-such-option-xyz    must exit non-zero with a message on standard error;

and after each run `git status --porcelain --untracked-files=all` must list nothing that it did not list before, nor
may a new folder have appeared (git does not list empty ones): no file or folder made or changed.

Python scripts run under this interpreter (sys.executable: the project's .venv when run as
`.venv/bin/python3 scripts/ci/check-script-arguments.py`), shell scripts directly when executable, else with bash.
A script must stop before doing any work (building, starting a server, using the network) when given either
argument. A Python file without the guard that reads sys.argv or uses argparse fails: it is a script that would run
on import. Files that change while this runs (another process editing the tree) can show up as changes.

Prints one line per file and ends with `N passed, N failed`; exits 1 when any script failed.

  .venv/bin/python3 scripts/ci/check-script-arguments.py
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("scripts", "Fuzz", "TestVectors/generator")
TIMEOUT_SECONDS = 20
UNKNOWN_OPTION = "--no-such-option-xyz"
MAIN_GUARD = re.compile(r"""^if\s+__name__\s*==\s*["']__main__["']\s*:""", re.M)
READS_ARGUMENTS = re.compile(r"\bsys\.argv\b|\bimport\s+argparse\b")


def candidates() -> list[Path]:
    """The *.py and *.sh files under FOLDERS that git tracks or would track (ignored ones, e.g. a .venv, left out)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *FOLDERS],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    files = {ROOT / name for name in listed if name.endswith((".py", ".sh"))}
    return sorted(path for path in files if path.is_file())


def work_tree_state() -> set[str]:
    """`git status --porcelain --untracked-files=all`, plus every folder (git does not list an empty one), each as a
    line "d  PATH/"; .git, .build*, .venv and __pycache__ are not walked."""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode(errors="replace")
    state = set(status.splitlines())
    for folder, subfolders, _ in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in (".git", ".venv", "__pycache__") and not name.startswith(".build")]
        state.update(f"d  {(Path(folder) / name).relative_to(ROOT).as_posix()}/" for name in subfolders)
    return state


def command_for(path: Path) -> tuple[list[str] | None, str]:
    """The command that runs the script, or None and why the file is not a script."""
    text = path.read_text(errors="replace")
    if path.suffix == ".py":
        if MAIN_GUARD.search(text):
            return [sys.executable, str(path)], ""
        if READS_ARGUMENTS.search(text):
            return None, "FAIL: reads its arguments but has no `if __name__ == \"__main__\":` guard"
        return None, "library (no __main__ guard)"
    if not text.startswith("#!"):
        return None, "library (sourced: no #! line)"
    return ([str(path)] if os.access(path, os.X_OK) else ["bash", str(path)]), ""


def run(command: list[str]) -> tuple[int | None, str, str]:
    """Exit status (None on timeout), standard output and standard error. The script runs in a session of its own,
    so that on timeout everything it started is killed with it."""
    process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(timeout=TIMEOUT_SECONDS)
        status: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = None
    try:  # anything the script left running in its session
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return status, out.decode(errors="replace"), err.decode(errors="replace")


def check(command: list[str]) -> list[str]:
    """The problems of one script (empty when it follows the rule)."""
    problems = []
    for argument in ("--help", UNKNOWN_OPTION):
        before = work_tree_state()
        status, out, err = run(command + [argument])
        made = sorted(work_tree_state() - before)
        if status is None:
            problems.append(f"{argument}: still running after {TIMEOUT_SECONDS} s (killed)")
        elif argument == "--help":
            if status != 0:
                problems.append(f"--help: exit {status}" + (f" ({last_line(err)})" if err.strip() else ""))
            elif not out.strip():
                problems.append("--help: nothing on standard output")
        else:
            if status == 0:
                problems.append(f"{argument}: exit 0 (accepted)")
            elif not err.strip():
                problems.append(f"{argument}: exit {status} without a message on standard error")
        if made:
            problems.append(f"{argument}: changed the work tree: " + ", ".join(line[3:] for line in made[:5])
                            + (f" and {len(made) - 5} more" if len(made) > 5 else ""))
    return problems


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:160] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_args()
    passed = failed = 0
    for path in candidates():
        name = path.relative_to(ROOT).as_posix()
        command, why = command_for(path)
        if command is None:
            if why.startswith("FAIL"):
                failed += 1
            print(f"{'FAIL' if why.startswith('FAIL') else 'skip'}  {name}: {why.removeprefix('FAIL: ')}", flush=True)
            continue
        problems = check(command)
        if problems:
            failed += 1
            print(f"FAIL  {name}: " + "; ".join(problems), flush=True)
        else:
            passed += 1
            print(f"ok    {name}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
