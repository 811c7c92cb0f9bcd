#!/bin/sh
# install.sh MESON BUILDDIR WORKDIR: `meson install` into a DESTDIR puts drasim on
# PATH (bin/drasim), drasim(1) (share/man/man1/drasim.1, generated from the help
# texts at build time: tools/man/drasim-docs.py) and the bash completion
# (share/bash-completion/completions/drasim). The man page has a section for
# every command `drasim --help` lists, and the completion completes commands and
# each command's options. TAP.
set -u
meson=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
n=0 status=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; status=1; fi
}
echo "1..6"

"$meson" install -C "$build" --destdir "$work/dest" --no-rebuild --quiet >"$work/log" 2>&1
result $? "meson install --destdir"
prefix=$("$meson" introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root=$work/dest$prefix
bin=$root/bin/drasim man=$root/share/man/man1/drasim.1 comp=$root/share/bash-completion/completions/drasim
[ -x "$bin" ] && [ -s "$man" ] && [ -s "$comp" ]
result $? "bin/drasim, share/man/man1/drasim.1 and share/bash-completion/completions/drasim"
"$bin" --version | grep -q "^drasim "
result $? "the installed drasim runs"

commands=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
missing=""
for cmd in $commands; do
	grep -q "^\.SH \"DRASIM $(echo "$cmd" | tr '[:lower:]' '[:upper:]')\"" "$man" || missing="$missing $cmd"
done
[ -n "$commands" ] && [ -z "$missing" ] && grep -q '^\.TH DRASIM 1' "$man"
result $? "the man page has a section for every command (missing:$missing)"

complete_words() { # WORD...: what the completion offers for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _drasim; echo "${COMPREPLY[*]}"' \
		_ "$comp" "$@"
}
[ "$(complete_words drasim comp)" = "compare" ] && [ "$(complete_words drasim ex)" = "experiment explain" ]
result $? "commands complete (comp: compare; ex: experiment explain)"
[ "$(complete_words drasim compare --fo)" = "--format" ] &&
	[ "$(complete_words drasim run --mo)" = "--mode" ] &&
	[ "$(complete_words drasim compare --mo)" = "" ] &&
	[ "$(complete_words drasim experiment f)" = "fgd" ]
result $? "each command's own options complete (compare has no --mode)"
exit $status
