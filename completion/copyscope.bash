# copyscope.bash - bash completion for copyscope(1): commands, workloads,
# suites, parameter names and their allowed values (read from `copyscope
# list`), options, and tags from the database (`copyscope runs --tags`);
# for boot, kernel images and binaries as files and the accelerators.
# Installed by `make install` as share/bash-completion/completions/
# copyscope; tested by tests/smoke/test_install.sh.

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
		inparams && wl != "" &&
		    /^    [a-z0-9_]+ +(int|size|time|enum|bool|text) / {
			print "p " wl " " $1 " " $4
		}'
}

_copyscope()
{
	local line=${COMP_LINE:0:COMP_POINT}
	local -a words
	read -r -a words <<<"$line"
	[[ $line == *[[:space:]] ]] && words+=("")
	local cur=${words[${#words[@]} - 1]}
	local prev=""
	((${#words[@]} > 1)) && prev=${words[${#words[@]} - 2]}
	local bin=${words[0]} sub=${words[1]:-} db=() i
	local -a cand=()
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		[[ ${words[i]} == --db ]] && db=(--db "${words[i + 1]}")
		[[ ${words[i]} == --db=* ]] && db=(--db "${words[i]#--db=}")
	done

	if ((${#words[@]} == 2)); then
		cand=(list run runs show compare check export import report env
			boot --help --version)
	else
		case $prev in
		--db | -o | --kernel | --kernel-b | --busybox | \
			--copyscope-static | --qemu)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
			;;
		--accel)
			cand=(auto kvm tcg)
			;;
		--append | --append-b | --boots | --timeout-s | --smp | \
			--memory-mib | --qemu-arg)
			return
			;;
		--tag | --side | --side-b)
			mapfile -t cand < <("$bin" runs --tags "${db[@]}" \
				2>/dev/null)
			;;
		--kernel)
			# the views, as a comma list: complete the last item
			local vh=${cur%"${cur##*,}"}
			cand=("${vh}lock" "${vh}sched" "${vh}syscall")
			;;
		--reps | --sample-time | --warmup | --cpus | --seed | \
			--threshold | --alpha | --noise | --new | \
			--ignore-param)
			return
			;;
		*)
			case $sub in
			run | check)
				_copyscope_run "$bin" "$cur"
				return
				;;
			boot)
				# boot's options, until '--' hands over to run
				if [[ $cur == -* && " ${words[*]} " != *" -- "* ]]
				then
					cand=(--kernel --side --append --side-b
						--append-b --kernel-b --boots
						--timeout-s --accel --smp
						--memory-mib --qemu --qemu-arg
						--busybox --copyscope-static
						--print-init --db --help --)
				else
					_copyscope_run "$bin" "$cur"
					return
				fi
				;;
			show | export | report | compare)
				if [[ $cur == -* ]]; then
					case $sub in
					show) cand=(--json --csv --no-env --db) ;;
					export) cand=(-o --db) ;;
					report) cand=(-o --compare --drop-noisy
						--ignore-param --db) ;;
					compare) cand=(--json --csv --drop-noisy
						--alpha --noise --ignore-param
						--allow-emulated --db) ;;
					esac
				else
					cand=(last)
					[[ $sub == show ]] ||
						mapfile -t -O 1 cand < <("$bin" \
							runs --tags "${db[@]}" \
							2>/dev/null)
				fi
				;;
			import)
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				return
				;;
			list)
				mapfile -t cand < <(_copyscope_list "$bin" |
					awk '$1 == "w" || $1 == "s" { print $2 }')
				;;
			runs)
				cand=(--tags --db)
				;;
			esac
			;;
		esac
	fi
	_copyscope_reply "$cur" "${cand[@]}"
}

# _copyscope_run BIN CUR: what `run` and `check` take: workloads, suites,
# KEY= of the named workloads' parameters, their allowed values, options.
_copyscope_run()
{
	local bin=$1 cur=$2 w key head
	local -a named=() cand=()
	local list
	list=$(_copyscope_list "$bin")
	for w in "${words[@]}"; do
		grep -q "^w $w\$" <<<"$list" && named+=("$w")
	done
	if [[ $cur == -* ]]; then
		cand=(--reps --sample-time --warmup --quick --tag --cpus --hist
			--interleave --seed --verify --explain --perf-counters
			--json --no-store --db)
		[[ ${words[1]} == run ]] && cand+=(--kernel)
		[[ ${words[1]} == check ]] && cand+=(--threshold --new
			--ignore-param --drop-noisy --alpha --allow-emulated)
		[[ ${words[1]} == run ]] && cand+=(--runs --precision
			--max-time)
	elif [[ $cur == *=* ]]; then
		key=${cur%%=*}
		head=${cur%"${cur##*[=,]}"}
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
		mapfile -t cand < <(awk '$1 == "w" || $1 == "s" { print $2 }' \
			<<<"$list")
		for w in "${named[@]}"; do
			mapfile -t -O "${#cand[@]}" cand < <(awk -v w="$w" \
				'$1 == "p" && $2 == w { print $3 "=" }' \
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
