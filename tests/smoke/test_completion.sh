#!/bin/sh
# test_completion.sh - bash completion (completion/copyscope.bash) for every
# command: the commands, each command's options (exactly those its --help
# lists: both come from the same table), option values where they are
# known (run --kernel's views, boot --accel's accelerators, files for --db
# and boot --kernel, tags for --tag) and positional arguments; once with
# COMP_LINE/COMP_POINT as readline sets them, once with only COMP_WORDS
# and COMP_CWORD (split at '=' and ':' as bash splits them).
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null 2>&1 || skip "bash is not installed"

cs 0 run sys.null --quick --tag before-x
cs 0 run sys.null --quick --tag after-y
mkdir "$TMP/files" && : >"$TMP/files/kernel.img" && : >"$TMP/files/other.db"

# the commands `copyscope --help` lists
cmds=$("$BIN" --help | sed -n 's/^  \([a-z]*\)  .*/\1/p')
[ -n "$cmds" ] || fail "copyscope --help lists no command"

cat >"$TMP/comp.bash" <<'SH'
. completion/copyscope.bash
# comp MODE TEXT: complete TEXT (after the binary) as bash would, MODE
# line (COMP_LINE/COMP_POINT) or words (COMP_WORDS/COMP_CWORD only).
comp() {
	local mode=$1 text="$BIN $2" w
	COMPREPLY=()
	if [[ $mode == line ]]; then
		COMP_LINE=$text COMP_POINT=${#text} _copyscope
	else
		# bash's split: blanks, and '=' or ':' as words of their own
		local -a ws=()
		read -r -a ws <<<"$(sed 's/\([=:][=:]*\)/ \1 /g' <<<"$text")"
		[[ $text == *[[:space:]] || $text == *[=:] ]] && ws+=("")
		unset COMP_LINE COMP_POINT
		COMP_WORDS=("${ws[@]}")
		COMP_CWORD=$((${#ws[@]} - 1))
		_copyscope
	fi
	printf '%s|' "$2" "${COMPREPLY[@]}"
	echo
}
while IFS= read -r line; do
	comp line "$line"
	comp words "$line"
done
SH

# the cases: what is typed after `copyscope`
{
	echo ""
	echo "r"
	for c in $cmds; do
		echo "$c -"
	done
	echo "run pipe."
	echo "run pipe.bw si"
	echo "run pipe.bw mode=pr"
	echo "run pipe.bw place=split,s"
	echo "run --kernel "
	echo "run --kernel lock,s"
	echo "run --kernel=sy"
	echo "run --tag "
	echo "run --reps "
	echo "run --db $TMP/files/o"
	echo "check keep --new "
	echo "check keep sys.n"
	echo "boot --kernel $TMP/files/k"
	echo "boot --accel "
	echo "boot --accel=t"
	echo "boot --side a sys.null -- --re"
	echo "boot --side a sys.null -- --kernel "
	echo "compare "
	echo "compare a b --ig"
	echo "show "
	echo "export -o $TMP/files/k"
	echo "import $TMP/files/o"
	echo "report --compare "
	echo "push --to $TMP/files/o"
	echo "list sys.n"
	echo "env "
	echo "runs --b"
} >"$TMP/cases"
BIN=$BIN bash "$TMP/comp.bash" <"$TMP/cases" >"$TMP/comp.out" \
	2>"$TMP/comp.err" ||
	fail "the completion script failed: $(cat "$TMP/comp.err")"
[ -s "$TMP/comp.err" ] && fail "completion stderr: $(cat "$TMP/comp.err")"

# want TEXT REPLY...: both modes offered exactly REPLY for TEXT
want() {
	_text=$1
	shift
	_line=$(printf '%s|' "$_text" "$@")
	[ "$(grep -cxF "$_line" "$TMP/comp.out")" -eq 2 ] ||
		fail "completion of '$_text': want '$_line' (both modes), got:
$(grep -F "$_text|" "$TMP/comp.out")"
}

note "the commands"
# shellcheck disable=SC2086
want "" $cmds --help --version
want "r" run runs report restore
for c in list run runs show compare check export import report push env \
	restore boot; do
	echo "$cmds" | grep -qx "$c" || fail "copyscope --help lacks $c"
done

note "each command's options are those its --help lists"
for c in $cmds; do
	# shellcheck disable=SC2046
	want "$c -" $("$BIN" "$c" --help |
		sed -n 's/^  \(-[-a-z]*\), \(-[a-z]\)\( .*\)*$/\1 \2/p; t
			s/^  \(-[-a-z]*\)[ ,].*$/\1/p; s/^  \(-[-a-z]*\)$/\1/p' |
		grep -vx -- '--') --help $([ "$c" = boot ] && echo --)
done

note "values: workloads, parameters, views, accelerators, files, tags"
want "run pipe.bw si" size=
want "run pipe.bw mode=pr" proc
want "run pipe.bw place=split,s" split,split split,same
want "run --kernel " lock sched syscall
want "run --kernel lock,s" lock,sched lock,syscall
want "run --kernel=sy" syscall
want "run --tag " before-x after-y
want "run --reps "
want "run --db $TMP/files/o" "$TMP/files/other.db"
want "check keep --new " last before-x after-y
want "check keep sys.n" sys.null
want "boot --kernel $TMP/files/k" "$TMP/files/kernel.img"
want "boot --accel " auto kvm tcg
want "boot --accel=t" tcg
want "boot --side a sys.null -- --re" --reps
want "boot --side a sys.null -- --kernel " lock sched syscall
want "compare " last before-x after-y
want "compare a b --ig" --ignore-param
want "show " last
want "export -o $TMP/files/k" "$TMP/files/kernel.img"
want "import $TMP/files/o" "$TMP/files/other.db"
want "report --compare " last before-x after-y
want "push --to $TMP/files/o" "$TMP/files/other.db"
want "list sys.n" sys.null
want "env "
want "runs --b" --by-host

note "copyscope __options: one command, or an unknown one"
expect_exit 0 "$BIN" __options boot
contains "$OUT" "option boot --accel words auto kvm tcg"
not_contains "$OUT" "command run "
expect_exit 2 "$BIN" __options nosuch
contains "$ERR" "no command 'nosuch'"
echo "ok"
