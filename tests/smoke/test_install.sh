#!/bin/sh
# test_install.sh - what `make install` puts in place: copyscope(1) renders
# with `man -l` without a warning and names every command; the bash
# completion completes commands, workloads, suites, parameter names and
# allowed values, options and tags; the installed binary writes a whole
# report away from the source tree; `make uninstall` removes it all;
# PREFIX and DESTDIR are honoured.
. "$(dirname "$0")/lib.sh"

note "man -l renders copyscope(1) without warnings"
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man --warnings -l man/copyscope.1 >"$TMP/man.out" \
		2>"$TMP/man.err" || fail "man -l failed: $(cat "$TMP/man.err")"
	[ -s "$TMP/man.err" ] && fail "man -l warned: $(cat "$TMP/man.err")"
	contains "$TMP/man.out" "COPYSCOPE(1)"
	contains "$TMP/man.out" "SYNOPSIS"
	contains "$TMP/man.out" "EXIT STATUS"
	for c in $("$BIN" --help | sed -n 's/^  \([a-z]*\)  .*/\1/p'); do
		grep -q "^\.It Cm $c" man/copyscope.1 ||
			fail "copyscope(1) does not describe '$c'"
	done
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tlint -Wwarning man/copyscope.1 >"$TMP/lint" 2>&1 ||
			fail "mandoc -Tlint: $(cat "$TMP/lint")"
	fi
else
	skip_case "man is not installed (scripts/install-deps.sh installs man-db): the man page was not rendered"
fi

note "bash completion"
cs 0 run sys.null --quick --tag before-x
cs 0 run sys.null --quick --tag after-y
if command -v bash >/dev/null 2>&1; then
	cat >"$TMP/comp.bash" <<'SH'
. completion/copyscope.bash
comp() {
	COMP_LINE="$BIN $1"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
	_copyscope
	printf '%s|' "$1" "${COMPREPLY[@]}"
	echo
}
comp "r"
comp "run pipe."
comp "run pipe.bw si"
comp "run pipe.bw mode="
comp "run pipe.bw mode=pr"
comp "run pipe.bw place=split,s"
comp "run de"
comp "run --hi"
comp "run --tag "
comp "compare "
comp "report --com"
comp "list sys.n"
comp "bo"
comp "boot --acc"
comp "boot --accel "
comp "boot --kernel k --side a sys.n"
comp "boot --side a sys.null -- --re"
comp "compare a b --allow"
SH
	BIN=$BIN bash "$TMP/comp.bash" >"$TMP/comp.out" 2>"$TMP/comp.err" ||
		fail "the completion script failed: $(cat "$TMP/comp.err")"
	[ -s "$TMP/comp.err" ] && fail "completion stderr: $(cat "$TMP/comp.err")"
	for want in "r|run|runs|report|restore|" \
		"run pipe.|pipe.bw|pipe.matrix|pipe.lat|pipe.mix|" \
		"run pipe.bw si|size=|" "run pipe.bw mode=|thread|proc|" \
		"run pipe.bw mode=pr|proc|" \
		"run pipe.bw place=split,s|split,split|split,same|" \
		"run de|default|" "run --hi|--hist|" \
		"run --tag |before-x|after-y|" "compare |last|before-x|after-y|1|2|" \
		"report --com|--compare|" "list sys.n|sys.null|" \
		"bo|boot|" "boot --acc|--accel|" "boot --accel |auto|kvm|tcg|" \
		"boot --kernel k --side a sys.n|sys.null|" \
		"boot --side a sys.null -- --re|--reps|" \
		"compare a b --allow|--allow-emulated|"; do
		grep -qxF "$want" "$TMP/comp.out" ||
			fail "completion: no line '$want' in: $(cat "$TMP/comp.out")"
	done
else
	skip_case "bash is not installed: the completion was not tried"
fi

note "make install and uninstall with DESTDIR and PREFIX"
D=$TMP/root
make -s install DESTDIR="$D" PREFIX=/opt/cs >"$TMP/make.out" 2>&1 ||
	fail "make install: $(cat "$TMP/make.out")"
for f in bin/copyscope share/man/man1/copyscope.1 \
	share/bash-completion/completions/copyscope; do
	[ -f "$D/opt/cs/$f" ] || fail "make install did not install $f"
done
[ -x "$D/opt/cs/bin/copyscope" ] || fail "the installed binary is not executable"
[ -x "$D/opt/cs/libexec/copyscope/copyscope-static" ] ||
	fail "make install did not install the static binary for boot"
# boot finds it there: --print-init needs nothing, so ask for a missing
# busybox to see how far it gets
"$D/opt/cs/bin/copyscope" boot --kernel "$TMP/out" --side a \
	--busybox "$TMP/nonexistent" sys.null >"$TMP/inst.out" 2>&1
grep -q "busybox: cannot read" "$TMP/inst.out" ||
	fail "the installed boot did not find its static binary: $(cat "$TMP/inst.out")"
note "the installed binary writes a whole report away from the source tree"
(cd / && env -i PATH=/usr/bin:/bin COPYSCOPE_DB="$COPYSCOPE_DB" \
	"$D/opt/cs/bin/copyscope" report last -o "$TMP/installed.html") \
	>"$TMP/inst.out" 2>&1 || fail "installed report: $(cat "$TMP/inst.out")"
contains "$TMP/installed.html" "Chart.js v4"
contains "$TMP/installed.html" "data-kind=\"scatter\""
make -s uninstall DESTDIR="$D" PREFIX=/opt/cs >"$TMP/make.out" 2>&1 ||
	fail "make uninstall: $(cat "$TMP/make.out")"
[ -n "$(find "$D" -type f)" ] &&
	fail "make uninstall left: $(find "$D" -type f)"
exit 0
