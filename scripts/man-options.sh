#!/bin/sh
# man-options.sh - write the OPTIONS section of man/copyscope.1 from the
# option tables the commands parse with (`copyscope __options`, its "help"
# lines), so that the man page lists exactly the options each command
# takes, with the help its --help prints.
#
#   scripts/man-options.sh BIN MANPAGE         rewrite MANPAGE in place
#   scripts/man-options.sh BIN MANPAGE --check exit 1 if MANPAGE differs
#
# The section lies between the lines '.\" BEGIN OPTIONS' and
# '.\" END OPTIONS' of MANPAGE; everything else is kept.  `make man` runs
# it; tests/smoke/test_help.sh checks that the committed page is current.
set -eu
bin=${1:?usage: man-options.sh BIN MANPAGE [--check]}
man=${2:?MANPAGE}
mode=${3:-write}
tmp=$(mktemp)
sec=$(mktemp)
trap 'rm -f "$tmp" "$sec"' EXIT

"$bin" __options | LC_ALL=C awk -F'\t' '
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/±/, "\\(+-", s)
	gsub(/≥/, "\\(>=", s)
	gsub(/×/, "\\(mu", s)
	return s
}
function close_list() {
	if (inlist)
		print ".El"
	inlist = 0
}
BEGIN {
	print ".\\\" BEGIN OPTIONS (scripts/man-options.sh from the option " \
	    "tables: make man; do not edit)"
	print ".Sh OPTIONS"
	print "Each command'"'"'s options, from the table it reads them with"
	print "(the list its"
	print ".Fl -help"
	print "prints)."
	print "An option takes its value as the next argument or after"
	print ".Ql = ;"
	print ".Fl -"
	print "ends the options."
}
/^command / {
	split($0, f, " ")
	close_list()
	print ".Ss " f[2]
	cmd = f[2]
	nopt[cmd] = 0
	pending = cmd
	next
}
/^help / {
	split($1, h, " ")
	name = h[3]
	if (pending != "") {
		print ".Bl -tag -width Ds"
		inlist = 1
		pending = ""
	}
	line = ".It Fl " substr(name, 2)
	if ($2 != "")
		line = line " , Fl " substr($2, 2)
	if ($3 != "")
		line = line " Ar " $3
	print line
	text = esc($4)
	if (substr(text, 1, 1) == "." || substr(text, 1, 1) == "'"'"'")
		text = "\\&" text
	print text
	next
}
/^option / { next }
END {
	close_list()
	print ".\\\" END OPTIONS"
}' >"$sec"

# a command without options: say so under its heading
awk '
	/^\.Ss / { if (held != "") print held "\nNo options."; held = $0; next }
	held != "" && /^\.Bl / { print held; held = "" }
	held != "" && /^\.\\" END/ { print held "\nNo options."; held = "" }
	{ print }' "$sec" >"$tmp"
mv "$tmp" "$sec"

grep -q '^\.\\" BEGIN OPTIONS' "$man" || {
	echo "man-options.sh: $man has no '.\\\" BEGIN OPTIONS' line" >&2
	exit 1
}
awk -v secfile="$sec" '
	/^\.\\" BEGIN OPTIONS/ {
		while ((getline l < secfile) > 0)
			print l
		skip = 1
		next
	}
	skip && /^\.\\" END OPTIONS/ { skip = 0; next }
	!skip { print }' "$man" >"$tmp"

if [ "$mode" = --check ]; then
	if ! cmp -s "$tmp" "$man"; then
		echo "man-options.sh: $man's OPTIONS differ from the option" \
			"tables; run 'make man' and commit it:" >&2
		diff "$man" "$tmp" >&2 || true
		exit 1
	fi
	exit 0
fi
cat "$tmp" >"$man"
