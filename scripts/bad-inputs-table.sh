#!/bin/sh
# bad-inputs-table.sh - print the Markdown table of docs/reliability.md's
# "Bad inputs" section from tests/smoke/bad-inputs.txt (the list
# test_bad_inputs.sh runs), so the two cannot drift apart:
#   scripts/bad-inputs-table.sh > table.md
# test_bad_inputs.sh checks that the document holds exactly this table.
set -eu
cd "$(dirname "$0")/.."
echo '| command | exit | the message says |'
echo '|---|---|---|'
awk -F'\t' '
/^#/ || /^$/ { next }
{
	cmd = "copyscope " $3
	if (length(cmd) > 80)
		cmd = substr(cmd, 1, 80) " ..."
	gsub(/\|/, "\\|", cmd)
	msg = $2
	gsub(/\|/, "\\|", msg)
	printf "| `%s` | %s | %s |\n", cmd, $1, msg
}' tests/smoke/bad-inputs.txt
