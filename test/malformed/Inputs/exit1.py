"""Runs a command and succeeds only if it exits with status 1 (the tools'
status for rejected input): 0, any other status and a crash by a signal
fail. The command's output passes through for FileCheck."""
import subprocess
import sys

run = subprocess.run(sys.argv[1:])
if run.returncode != 1:
    sys.stderr.write("exit1.py: expected exit status 1, got %d from %s\n" %
                     (run.returncode, " ".join(sys.argv[1:])))
    sys.exit(1)
