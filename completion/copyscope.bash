# copyscope.bash - bash completion for copyscope(1): commands, workloads,
# suites, parameter names and their allowed values (read from `copyscope
# list`), options and their values, and tags from the database
# (`copyscope runs --tags`).  The commands and their options come from
# `copyscope __options`, printed from the tables the commands parse their
# options with (src/cli/options.c), so this script cannot drift from them.
# Installed by `make install` as share/bash-completion/completions/
# copyscope; tested by tests/smoke/test_completion.sh.

# _copyscope_list BIN: the workloads, suites and parameters of `BIN list`
# as lines "w NAME", "s NAME", "p WORKLOAD PARAM ALLOWED".
_copyscope_list()
{
	"$1" list 2>/dev/null | awk '
		/^[a-z0-9_]+\.[a-z0-9_]+ - / { wl = $1; print "w " wl; next }
		/^suites:/ { wl = ""; suites = 1; next }
		suites && /^  [a-z0-9_-]+ - / { print "s " $1; next }
		/^  parameters:/ { inparams = 1; next }
		/^  [a-z]/ { inparams = 0 }
		# a default too long to share its line: allowed on the next
		pending != "" { print pending " " $1; pending = ""; next }
		inparams && wl != "" &&
		    /^    [a-z0-9_]+ +(int|size|time|enum|bool|text) / {
			if (NF == 3) pending = "p " wl " " $1
			else print "p " wl " " $1 " " $4
		}'
}

# _copyscope_words: the words up to the cursor into `words`, from
# COMP_LINE/COMP_POINT when bash sets them, else from COMP_WORDS and
# COMP_CWORD with the pieces bash splits at '=' and ':' glued together
# again (size=4k is one word here).
_copyscope_words()
{
	words=()
	if [[ -n ${COMP_LINE+set} ]]; then
		local line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
		read -r -a words <<<"$line"
		[[ $line == *[[:space:]] || -z $line ]] && words+=("")
		return
	fi
	local i w glue=0
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((${#words[@]} > 0)) && [[ -n $w && -z ${w//[=:]/} ]]; then
			words[${#words[@]} - 1]+=$w
			glue=1
		elif ((glue)) && [[ -n $w ]]; then
			words[${#words[@]} - 1]+=$w
			glue=0
		else
			words+=("$w")
			glue=0
		fi
	done
}

_copyscope()
{
	local -a words=() cand=()
	_copyscope_words
	local cur=${words[${#words[@]} - 1]}
	local prev="" bin=${words[0]} sub=${words[1]:-} db=() i
	((${#words[@]} > 1)) && prev=${words[${#words[@]} - 2]}
	[[ -z $bin ]] && return 0
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		[[ ${words[i]} == --db ]] && db=(--db "${words[i + 1]}")
		[[ ${words[i]} == --db=* ]] && db=(--db "${words[i]#--db=}")
	done
	local table
	table=$("$bin" __options 2>/dev/null)

	if ((${#words[@]} == 2)); then
		mapfile -t cand < <(awk '$1 == "command" { print $2 }' \
			<<<"$table")
		_copyscope_reply "$cur" "${cand[@]}" help --help --version
		return 0
	fi
	# help COMMAND: the command names
	if [[ $sub == help ]]; then
		((${#words[@]} == 3)) || return 0
		mapfile -t cand < <(awk '$1 == "command" { print $2 }' \
			<<<"$table")
		_copyscope_reply "$cur" "${cand[@]}"
		return 0
	fi
	local cmdline cmd=$sub pos after=""
	cmdline=$(awk -v c="$sub" '$1 == "command" && $2 == c' <<<"$table")
	[[ -z $cmdline ]] && return 0
	read -r _ _ pos after <<<"$cmdline"
	# after boot's '--', the words are the guest's run's
	local dashdash=0
	for ((i = 2; i < ${#words[@]} - 1; i++)); do
		[[ ${words[i]} == -- ]] && dashdash=1
	done
	if ((dashdash)) && [[ -n $after ]]; then
		cmd=$after
		pos=$(awk -v c="$cmd" '$1 == "command" && $2 == c { print $3 }' \
			<<<"$table")
	fi

	# the value of an option: --opt VALUE or --opt=VALUE
	local opt="" head=""
	if [[ $cur == -*=* ]]; then
		opt=${cur%%=*}
		head="$opt="
	elif [[ $prev == -* ]]; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		local row hint
		local -a vals=()
		row=$(awk -v c="$cmd" -v o="$opt" \
			'$1 == "option" && $2 == c && $3 == o' <<<"$table")
		read -r -a vals <<<"$row"
		hint=${vals[3]:-}
		vals=("${vals[@]:4}")
		[[ $hint == "" || $hint == flag ]] || {
			_copyscope_value "$hint" "${cur#"$head"}" "$head" \
				"${vals[@]}"
			return 0
		}
	fi
	if [[ $cur == -* ]]; then
		mapfile -t cand < <(awk -v c="$cmd" \
			'$1 == "option" && $2 == c { print $3 }' <<<"$table")
		cand+=(--help)
		[[ -n $after ]] && ((!dashdash)) && cand+=(--)
		_copyscope_reply "$cur" "${cand[@]}"
		return 0
	fi
	case $pos in
	workloads)
		_copyscope_run "$bin" "$cur"
		;;
	runs | last | file)
		_copyscope_value "$pos" "$cur" ""
		;;
	names)
		mapfile -t cand < <(_copyscope_list "$bin" |
			awk '$1 == "w" || $1 == "s" { print $2 }')
		_copyscope_reply "$cur" "${cand[@]}"
		;;
	esac
	return 0
}

# _copyscope_value HINT CUR HEAD [WORDS...]: an option's value (or a
# positional argument) of the kind `copyscope __options` says; HEAD is
# what stands before it in the word (--opt= of --opt=VALUE).
_copyscope_value()
{
	local hint=$1 cur=$2 head=$3 w
	shift 3
	local -a cand=()
	case $hint in
	file)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	tag | runs | last)
		# 'last', the stored tags and the stored run ids
		[[ $hint == tag ]] || cand=(last)
		mapfile -t -O "${#cand[@]}" cand < <("$bin" runs --tags \
			"${db[@]}" 2>/dev/null)
		[[ $hint == tag ]] ||
			mapfile -t -O "${#cand[@]}" cand < <("$bin" \
				__complete runs "${db[@]}" 2>/dev/null)
		;;
	params)
		# KEY= of the named workloads' parameters, then their values
		_copyscope_run "$bin" "$cur" params "$head"
		return
		;;
	sysctl | thp)
		# KEY= of the files ab may set; the value is the user's
		[[ $cur == *=* ]] && return
		mapfile -t cand < <("$bin" __complete "$hint" 2>/dev/null |
			sed 's/$/=/')
		for ((w = 0; w < ${#cand[@]}; w++)); do
			cand[w]=$head${cand[w]}
		done
		_copyscope_reply "$head$cur" "${cand[@]}"
		[[ ${#COMPREPLY[@]} -eq 1 ]] && compopt -o nospace 2>/dev/null
		return
		;;
	words)
		cand=("$@")
		;;
	list)
		# a comma list: complete its last item
		local lh=${cur%"${cur##*,}"}
		for w in "$@"; do
			cand+=("$lh$w")
		done
		;;
	*)
		return
		;;
	esac
	for ((w = 0; w < ${#cand[@]}; w++)); do
		cand[w]=$head${cand[w]}
	done
	_copyscope_reply "$head$cur" "${cand[@]}"
}

# _copyscope_run BIN CUR [params [HEAD]]: what `run`, `check` and `boot`
# take besides options: workloads, suites, KEY= of the named workloads'
# parameters and their allowed values (mix= its presets and the stored
# observations, observed:ID).  With "params" (ab's --a/--b, HEAD the
# --a= before the value), only KEY= and the values.
_copyscope_run()
{
	local bin=$1 cur=$2 only=${3:-} ohead=${4:-} w key head
	local -a named=() cand=()
	local list
	list=$(_copyscope_list "$bin")
	for w in "${words[@]}"; do
		grep -q "^w $w\$" <<<"$list" && named+=("$w")
	done
	if [[ $cur == *=* && $cur != "$ohead" ]]; then
		key=${cur%%=*}
		key=${key##*,}
		head=${cur%"${cur##*[=,]}"}
		if [[ $key == mix ]]; then
			# mix= takes one text: presets and observed:IDs
			head=${cur%"${cur#*=}"}
			mapfile -t -O "${#cand[@]}" cand < <("$bin" __complete \
				mix "${db[@]}" 2>/dev/null | sed "s|^|$head|")
		fi
		for w in "${named[@]}"; do
			mapfile -t -O "${#cand[@]}" cand < <(awk -v w="$w" \
				-v k="$key" -v h="$head" \
				'$1 == "p" && $2 == w && $3 == k {
					n = split($4, v, "|")
					if (n > 1)
						for (i = 1; i <= n; i++)
							print h v[i]
				}' <<<"$list")
		done
	else
		# after a comma of --a K=V,K=V: the next KEY=
		head=$ohead
		[[ -n $only && $cur == *,* ]] && head=${cur%"${cur##*,}"}
		[[ -n $only ]] ||
			mapfile -t cand < <(awk \
				'$1 == "w" || $1 == "s" { print $2 }' <<<"$list")
		for w in "${named[@]}"; do
			mapfile -t -O "${#cand[@]}" cand < <(awk -v w="$w" \
				-v h="$head" \
				'$1 == "p" && $2 == w { print h $3 "=" }' \
				<<<"$list")
		done
	fi
	_copyscope_reply "$cur" "${cand[@]}"
	# KEY= goes on with its value, not a space
	[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] &&
		compopt -o nospace 2>/dev/null
	return 0
}

# _copyscope_reply CUR CANDIDATE...: the candidates that start with CUR,
# made relative to what readline completes (the text after the last '='
# or ':', which bash treats as word breaks).
_copyscope_reply()
{
	local cur=$1 c strip=""
	shift
	[[ $cur == *[=:]* ]] && strip=${cur%"${cur##*[=:]}"}
	COMPREPLY=()
	for c in "$@"; do
		[[ $c == "$cur"* ]] && COMPREPLY+=("${c#"$strip"}")
	done
	# the same candidate once
	mapfile -t COMPREPLY < <(printf '%s\n' "${COMPREPLY[@]}" | awk '
		NF && !seen[$0]++')
}

complete -F _copyscope copyscope
