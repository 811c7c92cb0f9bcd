# tests/scratch_fail.sh: sourced (not run) by the shell tests of the drasim
# command (tests/unit/cli/allocate_claims.sh, tests/unit/dra/allocate_timeout.sh):
# a scratch folder $tmp removed at exit, and fail MESSAGE, which prints
# "$test_name: MESSAGE" with the stderr the test kept in $tmp/err, and exits 1.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "$test_name: $*" >&2
	sed 's/^/  stderr: /' "$tmp/err" >&2 2>/dev/null
	exit 1
}
