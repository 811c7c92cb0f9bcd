#!/bin/sh
# expect_exit.sh STATUS COMMAND [ARG...]: runs COMMAND and passes only when it
# exits with exactly STATUS. meson's should_fail accepts any non-zero status
# (a crash included); drasim's statuses mean different things (1: bad input or
# a failed check, 2: a usage error), so tests that expect a failure use this.
set -u
want=$1
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
	echo "expect_exit: $1 exited with status $got, expected $want" >&2
	exit 1
fi
exit 0
