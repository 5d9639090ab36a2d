#!/bin/sh
# man.sh GPUSITE OUTDIR VERSION DATE: write gpusite.1 and gpusite-CMD.1
# for every command into OUTDIR, from the --help texts, so the pages never
# say other than the binary.  A help text is: the usage line(s), the
# description paragraphs, "options:" with one option per line, and the exit
# codes line; each becomes its section.  DATE (YYYY-MM-DD) comes from the
# caller (the release's SOURCE_DATE_EPOCH), never from the clock, so two
# builds write the same pages.
set -eu
gpusite=$1 out=$2 version=$3 date=$4
mkdir -p "$out"

# troff: escape backslashes and every hyphen (a minus in an option name),
# and keep a line from starting with a control character (. or ').
# to_man TITLE WHAT: the help text on stdin, the page on stdout.
to_man() {
	awk -v title="$1" -v what="$2" -v version="$version" -v date="$date" '
	function esc(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		if (s ~ /^[.\047]/)
			s = "\\&" s
		return s
	}
	BEGIN {
		printf ".TH %s 1 \"%s\" \"gpusite %s\" \"gpusite manual\"\n", toupper(title), date, version
		print ".SH NAME"
		print esc(title) " \\- " esc(what)
		print ".SH SYNOPSIS"
		state = "usage"
	}
	state == "usage" && /^(usage: |       )/ {
		sub(/^usage: /, ""); sub(/^ +/, "")
		print ".nf"; print esc($0); print ".fi"
		next
	}
	state == "usage" { state = "desc"; print ".SH DESCRIPTION" }
	/^(options|commands):$/ {
		if (nf) { print ".fi"; nf = 0 }
		state = $0 == "options:" ? "opts" : "cmds"
		print ".SH " (state == "opts" ? "OPTIONS" : "COMMANDS")
		next
	}
	/^[Ee]xit codes: / {
		if (nf) { print ".fi"; nf = 0 }
		print ".SH EXIT STATUS"; print esc($0); state = "tail"; next
	}
	/^$/ {
		if (nf) { print ".fi"; nf = 0 }
		if (state != "opts" && state != "cmds") print ".PP"
		next
	}
	(state == "opts" || state == "cmds") && /^  +[^ ]/ {
		line = $0
		sub(/^ +/, "", line)
		# the option (or command) and its text are split by two spaces
		if (match(line, /  +/)) {
			print ".TP"
			print "\\fB" esc(substr(line, 1, RSTART - 1)) "\\fR"
			print esc(substr(line, RSTART + RLENGTH))
		} else {
			print ".TP"; print "\\fB" esc(line) "\\fR"
		}
		next
	}
	(state == "opts" || state == "cmds") && /^ / {
		sub(/^ +/, ""); print esc($0); next
	}
	(state == "opts" || state == "cmds") { state = "desc"; print ".PP" }
	# an indented block of the description (a table) keeps its lines
	/^ / && !nf { print ".nf"; nf = 1 }
	!/^ / && nf { print ".fi"; nf = 0 }
	{ print esc($0) }
	END {
		print ".SH SEE ALSO"
		if (title == "gpusite")
			print "gpusite\\-<command>(1) for each command below; /usr/share/doc/gpusite/"
		else
			print ".BR gpusite (1)"
	}'
}

# the command names: the "commands:" block of gpusite --help
cmds=$("$gpusite" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ -n "$cmds" ] || { echo "man.sh: no command found in '$gpusite --help'" >&2; exit 1; }
"$gpusite" --help | to_man gpusite "validate and render GPUSite specs for EKS Hybrid Nodes" >"$out/gpusite.1"
for c in $cmds; do
	what=$("$gpusite" --help | awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
	"$gpusite" "$c" --help | to_man "gpusite-$c" "$what" >"$out/gpusite-$c.1"
done
