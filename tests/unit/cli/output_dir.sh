#!/bin/sh
# output_dir.sh DRASIM ROOT WORKDIR: `-o DIR` never leaves output that looks
# current but is not (issue 12, item 7; docs/reports.md "Output directories").
#  - a previous drasim output is replaced as a whole: json+html, then json
#    only, leaves no report.html, and the marker lists report.json alone;
#  - a non-empty directory drasim did not write is refused before the run
#    (exit 1, a message naming it, what it holds and what to do), untouched;
#  - so is a drasim output holding a file drasim did not write;
#  - a write that fails mid-way (ENOSPC) or a run killed mid-write
#    (DRASIM_TEST_WRITE_FAIL, rpt_output.c's test seam) leaves the previous
#    report byte for byte, and no DIR.tmp-* behind after the failure.
# Two seeds give two different reports (the seed is in the report), so
# "intact" can be told from "rewritten with the same bytes". TAP output.
set -u
drasim=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
scenario=$root/scenarios/seed-tutorial/scenario.yaml
n=0 status=0

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

echo "1..9"

# 1-2. Stale files: the second run asks for json only; report.html must go.
out=$work/stale
"$drasim" run "$scenario" --format json,html -o "$out" >/dev/null 2>"$work/err" &&
	"$drasim" run "$scenario" --seed 2 --format json -o "$out" >/dev/null 2>"$work/err" &&
	[ ! -e "$out/report.html" ] && grep -q '"seed":[[:space:]]*2,' "$out/report.json"
result $? "a previous output's report.html is gone after a json-only run into the same directory"
[ "$(grep -v '^#' "$out/.drasim-output")" = "report.json" ] &&
	[ "$(ls -A "$out" | tr '\n' ' ')" = ".drasim-output report.json " ]
result $? "the directory holds exactly report.json and the marker listing it (drasim's own output)"

# 3-4. A foreign non-empty directory: refused before the run, left as it was.
out=$work/foreign
mkdir -p "$out" && echo "my notes" >"$out/notes.txt"
"$drasim" run "$scenario" --format json -o "$out" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "^drasim: $out: not empty and not a drasim output directory (it holds notes.txt, and no .drasim-output): .*choose another -o directory, or empty this one" "$work/err"
result $? "a foreign non-empty directory is refused: exit $got, the directory, what it holds, how to proceed"
[ "$(ls -A "$out")" = "notes.txt" ] && [ "$(cat "$out/notes.txt")" = "my notes" ] &&
	[ -z "$(ls -d "$out".* 2>/dev/null)" ]
result $? "the foreign directory is untouched and no sibling was created"

# 5. A drasim output with a file drasim did not write in it: refused, nothing deleted.
out=$work/mixed
"$drasim" run "$scenario" --format json -o "$out" >/dev/null 2>"$work/err" && touch "$out/mine.txt"
"$drasim" run "$scenario" --format json -o "$out" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "^drasim: $out: a drasim output directory, but it also holds mine.txt, which drasim did not write" "$work/err" &&
	[ -e "$out/mine.txt" ]
result $? "a drasim output holding a stranger is refused (exit $got) and the stranger kept"

# 6-7. A write that fails mid-way with ENOSPC: the previous report stays, no staging left.
out=$work/enospc
"$drasim" run "$scenario" --format json,html -o "$out" >/dev/null 2>"$work/err"
cp -r "$out" "$work/before-enospc"
DRASIM_TEST_WRITE_FAIL=report.html:1000 "$drasim" run "$scenario" --seed 2 --format json,html \
	-o "$out" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "^drasim: $out/report.html: cannot write: No space left on device\$" "$work/err"
result $? "a write failing mid-way is an error naming the file: exit $got"
diff -r "$work/before-enospc" "$out" >/dev/null && [ -z "$(ls -d "$out".* 2>/dev/null)" ]
result $? "after it, the previous output is intact byte for byte and no DIR.tmp-* is left"

# 8-9. A run killed while writing: the previous report stays; the next run succeeds.
out=$work/killed
"$drasim" run "$scenario" --format json,html -o "$out" >/dev/null 2>"$work/err"
cp -r "$out" "$work/before-killed"
DRASIM_TEST_WRITE_FAIL=report.html:1000:kill "$drasim" run "$scenario" --seed 2 \
	--format json,html -o "$out" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 137 ] && diff -r "$work/before-killed" "$out" >/dev/null
result $? "a run killed mid-write (status $got) leaves the previous output intact"
"$drasim" run "$scenario" --seed 2 --format json -o "$out" >/dev/null 2>"$work/err" &&
	grep -q '"seed":[[:space:]]*2,' "$out/report.json" && [ ! -e "$out/report.html" ]
result $? "the next run replaces it as a whole"
exit $status
