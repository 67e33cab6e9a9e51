"""The client scripts' checks: one line per check on stdout ("ok  what"),
and at the first mismatch a FAIL line and exit status 1, which the Go test
(runClient) reports with the script's output."""

import sys


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def check(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    print("ok  " + what, flush=True)
