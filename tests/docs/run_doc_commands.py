#!/usr/bin/env python3
"""run_doc_commands.py SOURCE_DIR BUILD_DIR [PYTHON]: runs every command of the
documents a newcomer follows (README.md, python/README.md, docs/MPI.md,
examples/README.md, in that order) exactly as written, and reports each.

A command is a line of a fenced block whose info string starts with `sh`
(a trailing backslash continues it; blank lines and comment lines are not
commands).  The block's tag, the word after `sh`, decides where it runs:

  (none)  here, always;
  gpu     only where `nvidia-smi -L` lists a GPU, else SKIPPED;
  long    never here, SKIPPED: the main job and the whole test suite
          (scripts/run.sh, scripts/test.sh: CI runs the latter itself) and
          the by-hand pytest run (ctest's `python` test runs it).

Each command runs in a fresh `bash -e` from SOURCE_DIR, in order, so that
later commands see what earlier ones made (build/, the install).  The
documents install into /usr/local and run `ldconfig`; here the install goes
to a temporary prefix instead: the one substitution made in the commands'
text is /usr/local (not /usr/local/cuda) -> that prefix, and the prefix's
bin/, lib/ and lib/pkgconfig are put on PATH, LD_LIBRARY_PATH and
PKG_CONFIG_PATH, which is what /usr/local and ldconfig give on Debian (so
`ldconfig` itself is run as written only as root, where it is harmless).
The documents use `build` as the build directory: BUILD_DIR must be
SOURCE_DIR/build (the test is registered only there), so that the
documented configure and build commands find everything built already.

PYTHON, where given, is the documents' `python3` (first on PATH): CI's
Debian interpreter, which has numpy, where PATH may find another.

A command's exit status 77 is SKIPPED (a GPU program without a GPU).
Prints one line per command and a summary; exits 1 if any failed, 0
otherwise.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DOCS = ["README.md", "python/README.md", "docs/MPI.md", "examples/README.md"]
FENCE = re.compile(r"^(\s*)```(\S*)\s*(\S*)\s*$")
PREFIX_RE = re.compile(r"/usr/local(?!/cuda)")
TIMEOUT = 300


def commands(path):
    """(line number, tag, command) for each command of the document."""
    out = []
    block = None  # inside a fence: (tag,), tag None for a block that is not sh
    pending, start = "", 0
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if block is None:
            if m:
                block = (m.group(3) if m.group(2) == "sh" else None,)
            continue
        if m and not m.group(2):
            block, pending = None, ""
            continue
        if block[0] is None:
            continue
        text = line.strip()
        if not pending:
            if not text or text.startswith("#"):
                continue
            start = no
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        out.append((start, block[0], pending + text))
        pending = ""
    return out


def run_command(cmd, cwd, env):
    """(exit status, output) of cmd in a fresh `bash -e`, in a process group
    of its own, so that a command that runs out of time is ended with
    everything it started (a build's compilers)."""
    p = subprocess.Popen(["bash", "-e", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -1, f"timed out after {TIMEOUT} s\n{out}"


def has_gpu():
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and "GPU" in r.stdout


def main():
    src, build = (os.path.realpath(a) for a in sys.argv[1:3])
    if build != os.path.join(src, "build"):
        print(f"SKIPPED: the documents use build/; this build is {build}")
        return 77
    gpu = has_gpu()
    work = tempfile.mkdtemp(prefix="ntt-docs-")
    prefix = os.path.join(work, "prefix")
    env = dict(os.environ)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        filter(None, [os.path.join(prefix, "lib"), env.get("LD_LIBRARY_PATH")]))
    env["PKG_CONFIG_PATH"] = os.pathsep.join(
        filter(None, [os.path.join(prefix, "lib", "pkgconfig"), env.get("PKG_CONFIG_PATH")]))
    env.pop("NTT_LIBRARY", None)
    env.pop("PYTHONPATH", None)
    if len(sys.argv) > 3:
        # The documents' `python3` is Debian's (scripts/deps.sh gives it numpy):
        # the interpreter the Python tests use, put first on PATH.
        os.mkdir(os.path.join(work, "bin"))
        py = shutil.which(sys.argv[3]) or sys.argv[3]
        os.symlink(py, os.path.join(work, "bin", "python3"))
        env["PATH"] = os.path.join(work, "bin") + os.pathsep + env["PATH"]
    # What the documents make, removed first so that every run starts fresh.
    for scratch in ("build/venv", "build/pyntt", "build-examples", "python/build"):
        shutil.rmtree(os.path.join(src, scratch), ignore_errors=True)
    counts = {"PASSED": 0, "FAILED": 0, "SKIPPED": 0}
    failed = []
    t0 = time.monotonic()
    try:
        for doc in DOCS:
            for no, tag, cmd in commands(os.path.join(src, doc)):
                where = f"{doc}:{no}"
                run = PREFIX_RE.sub(prefix, cmd)
                if tag == "long":
                    verdict, why = "SKIPPED", "long: the main job or a whole test suite"
                elif tag == "gpu" and not gpu:
                    verdict, why = "SKIPPED", "gpu: no GPU here"
                elif tag not in ("", "gpu"):
                    verdict, why = "FAILED", f"unknown block tag {tag!r}"
                elif cmd.strip() == "ldconfig" and os.geteuid() != 0:
                    verdict, why = "SKIPPED", "ldconfig needs root (LD_LIBRARY_PATH stands in)"
                else:
                    t = time.monotonic()
                    code, output = run_command(run, src, env)
                    dt = time.monotonic() - t
                    if code == 0:
                        verdict, why = "PASSED", f"{dt:.1f} s"
                    elif code == 77:
                        verdict, why = "SKIPPED", "exit 77: " + output.strip()[-200:]
                    else:
                        verdict, why = "FAILED", f"exit {code}"
                        failed.append((where, run, output))
                if verdict == "FAILED" and (not failed or failed[-1][0] != where):
                    failed.append((where, run, why))
                counts[verdict] += 1
                print(f"{verdict:8} {where}: {cmd}" + (f"  ({why})" if why else ""),
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for where, run, output in failed:
        print(f"\n---- {where}: {run}\n{output.rstrip()[-4000:]}")
    print(f"\ndocs: {counts['PASSED']} passed, {counts['FAILED']} failed, "
          f"{counts['SKIPPED']} skipped, {time.monotonic() - t0:.0f} s")
    return 1 if counts["FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())
