# tap-lib.sh: what the CLI's TAP scripts share (sourced, not run). The script sets
# drasim, work (its scratch folder, where a failing case's stderr is $work/err),
# n=0 and status=0, and for expect_error the subcommand it checks.

# result STATUS DESCRIPTION: the next TAP line; a failure shows $work/err and fails the script.
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -f "$work/err" ] && sed 's/^/# /' "$work/err"
		status=1
	fi
}

# expect_error STATUS PATTERN DESCRIPTION -- ARGS...: `drasim $subcommand ARGS` exits STATUS
# and its stderr matches PATTERN.
expect_error() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$drasim" "$subcommand" "$@" >/dev/null 2>"$work/err"
	got=$?
	[ "$got" -eq "$want" ] && grep -q -- "$pattern" "$work/err"
	result $? "$what (exit $got)"
}
