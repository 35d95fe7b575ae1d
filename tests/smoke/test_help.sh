#!/bin/sh
# test_help.sh - one source for help, man page and README (#24 item 6):
# the man page's OPTIONS section is what scripts/man-options.sh writes
# from the option tables (so it lists every option of every command);
# `copyscope help CMD` prints CMD's help; every command that touches the
# store takes --db and list and env do not; every option the README's
# synopsis names is one its command takes; no document is listed twice.
. "$(dirname "$0")/lib.sh"

note "man page OPTIONS: current with the option tables"
scripts/man-options.sh "$BIN" man/copyscope.1 --check ||
	fail "man/copyscope.1 is not current: run 'make man'"
"$BIN" __options | awk '$1 == "option" { print $2, $3 }' >"$TMP/opts"
[ -s "$TMP/opts" ] || fail "copyscope __options listed no option"
while read -r c o; do
	sed -n "/^\.Ss $c\$/,/^\.S[sh] /p" man/copyscope.1 |
		grep -q "^\.It Fl ${o#-}\( \|\$\)\|, Fl ${o#-}\( \|\$\)" ||
		fail "copyscope(1) OPTIONS lacks $c $o"
done <"$TMP/opts"

note "copyscope help CMD"
for c in run compare boot list; do
	cs 0 help "$c"
	"$BIN" "$c" --help >"$TMP/want" 2>&1
	cmp -s "$OUT" "$TMP/want" || fail "help $c differs from $c --help"
done
cs 2 help nosuch
contains "$ERR" "no command 'nosuch'"

note "--db: every command that touches the store, and only those"
for c in $("$BIN" __options | awk '$1 == "command" { print $2 }'); do
	case $c in
	list | env | restore)
		grep -qx "$c --db" "$TMP/opts" && fail "$c takes --db" ;;
	*)
		grep -qx "$c --db" "$TMP/opts" || fail "$c lacks --db" ;;
	esac
done
cs 2 env --db x
cs 2 list --db x
grep -q 'every command takes it' man/copyscope.1 &&
	fail "the man page says every command takes --db"

note "README synopsis: only options the commands take"
sed -n '/^## Command line/,/^A comma list/p' README.md |
	awk '/^    copyscope [a-z]/ { c = $2 }
	     /^    / { n = split($0, w, /[][ |=]+/)
		     for (i = 1; i <= n; i++)
			if (w[i] ~ /^--?[a-z][-a-z]*$/) print c, w[i] }' |
	sort -u >"$TMP/readme"
[ "$(wc -l <"$TMP/readme")" -ge 40 ] || fail "read too few README options"
while read -r c o; do
	grep -qx "$c $o" "$TMP/opts" ||
		fail "README's synopsis names $c $o, which $c does not take"
done <"$TMP/readme"
grep -qx "compare --ignore-param" "$TMP/readme" ||
	fail "README's synopsis lacks compare --ignore-param"

note "README's list of documents names each once"
sed -n '/^## Documentation/,/^## /p' README.md |
	sed -n 's/^- `\([^`]*\)`.*/\1/p' | sort | uniq -d >"$TMP/dups"
[ ! -s "$TMP/dups" ] || fail "listed twice: $(cat "$TMP/dups")"
exit 0
