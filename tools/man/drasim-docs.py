#!/usr/bin/env python3
"""drasim-docs.py DRASIM --man OUT | --completion OUT

Writes drasim(1) (roff) or drasim's bash completion from the help texts the
program itself prints: `drasim --help` for the commands, `drasim CMD --help-all`
for each command's usage, summary, options, description and examples. Run at
build time (sim/cli/meson.build), so the man page and the completion cannot
drift from the CLI. Standard library only; output depends on the help texts
alone (no date), so builds are reproducible.
"""
import re
import subprocess
import sys


def run(drasim, *args):
    out = subprocess.run([drasim, *args], capture_output=True, text=True, check=True,
                         env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    return out.stdout


def commands(drasim):
    """[(name, summary)] from the table `drasim --help` prints."""
    rows, inside = [], False
    for line in run(drasim, "--help").splitlines():
        if line.startswith("Commands:"):
            inside = True
        elif inside and line.startswith("  "):
            name, summary = line.strip().split(None, 1)
            rows.append((name, summary.strip()))
        elif inside and rows:
            break
    return rows


OPTION = re.compile(r"^  (-\w, )?(--[\w-]+)(=(\S+))?\s+(.*)$")


def parse_help(text):
    """The parts of one command's GOption help: usage lines, summary, option
    groups [(title, [(short, long, arg, help)])], description, examples."""
    lines = text.splitlines()
    parts = {"usage": [], "summary": [], "groups": [], "description": [], "examples": []}
    section = None
    for line in lines:
        if line == "Usage:":
            section = "usage"
        elif line.endswith(":") and not line.startswith(" ") and line != "Examples:":
            if line == "Help Options:":
                section = "help"
            else:
                parts["groups"].append((line[:-1], []))
                section = "options"
        elif line == "Examples:":
            section = "examples"
        elif section == "usage":
            if line.strip():
                parts["usage"].append(line.strip())
            elif parts["usage"]:
                section = "summary"
        elif section == "summary" and line.strip():
            parts["summary"].append(line.strip())
        elif section == "options":
            m = OPTION.match(line)
            if m:
                parts["groups"][-1][1].append((m.group(1) or "", m.group(2), m.group(4), m.group(5)))
            elif line.strip():
                section = "description"
                parts["description"].append(line)
        elif section == "description" and line.strip():
            parts["description"].append(line)
        elif section == "examples" and line.strip():
            parts["examples"].append(line.strip())
    return parts


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def man_page(drasim):
    version = run(drasim, "--version").strip()
    out = [f'.TH DRASIM 1 "" "{roff(version)}" "User Commands"',
           ".SH NAME", "drasim \\- discrete\\-event simulator of Kubernetes GPU clusters with DRA",
           ".SH SYNOPSIS", ".B drasim", ".I COMMAND", "[\\fIOPTION\\fR...]", ".br",
           ".B drasim \\-\\-version", ".SH DESCRIPTION",
           "drasim replays workloads on simulated GPU clusters as Kubernetes 1.34 would "
           "schedule them, with Dynamic Resource Allocation (DRA) and with the device "
           "plugin's extended resources, and reports what each world does with them.",
           ".SH COMMANDS"]
    for name, summary in commands(drasim):
        out += [f".TP", f".B {name}", roff(summary)]
    for name, summary in commands(drasim):
        parts = parse_help(run(drasim, name, "--help-all"))
        out += [f'.SH "DRASIM {name.upper()}"', ".nf"]
        out += [roff(u) for u in parts["usage"]]
        out += [".fi", ".PP", roff(" ".join(parts["summary"]) or summary)]
        for title, options in parts["groups"]:
            out += [".PP", f".I {roff(title)}"]
            for short, long, arg, help_text in options:
                head = f"\\fB{roff(short)}{roff(long)}\\fR" + (f"=\\fI{roff(arg)}\\fR" if arg else "")
                out += [".TP", head, roff(help_text)]
        if parts["description"]:
            out += [".PP", ".nf"] + [roff(d) for d in parts["description"]] + [".fi"]
        if parts["examples"]:
            out += [".PP", "Examples:", ".RS", ".nf"] + [roff(e) for e in parts["examples"]]
            out += [".fi", ".RE"]
    out += [".SH EXIT STATUS", "0 success (or only warnings), 1 an input error or a failed check, "
            "2 a usage error (an unknown command, option or name: drasim says which, suggests "
            "the closest and lists the valid ones).",
            ".SH SEE ALSO", "The docs/ folder of the drasim sources; README.md."]
    return "\n".join(out) + "\n"


def completion(drasim):
    cmds = commands(drasim)
    cases = []
    for name, _ in cmds:
        parts = parse_help(run(drasim, name, "--help-all"))
        opts = ["--help"] + [o[1] for _, group in parts["groups"] for o in group]
        dirs = [o[1] for _, group in parts["groups"] for o in group if o[2] == "DIR"]
        subs = {"experiment": "fgd", "sweep": "run-task merge"}.get(name, "")
        cases.append(f'\t{name})\n\t\topts="{" ".join(opts)}"\n\t\tdirs="{" ".join(dirs)}"\n'
                     f'\t\tsubs="{subs}"\n\t\t;;')
    names = " ".join(n for n, _ in cmds)
    return f"""# bash completion for drasim: subcommands, each command's options, files.
# Generated from drasim's help texts by tools/man/drasim-docs.py; do not edit.
_drasim()
{{
	local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
	local opts="" dirs="" subs=""

	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "{names} --help --version" -- "$cur")
		return
	fi
	case ${{COMP_WORDS[1]}} in
{chr(10).join(cases)}
	esac
	case $cur in
	-*)
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		return
		;;
	esac
	case " $dirs " in
	*" $prev "*)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return
		;;
	esac
	if [ "$COMP_CWORD" -eq 2 ] && [ -n "$subs" ]; then
		mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
	fi
	# anything else is a file (scenarios, manifests, reports): -o default completes it
}}
complete -o default -F _drasim drasim
"""


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ("--man", "--completion"):
        sys.exit(__doc__)
    drasim, what, out = sys.argv[1:]
    text = man_page(drasim) if what == "--man" else completion(drasim)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
