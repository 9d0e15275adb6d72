#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a bounded time each
# (FUZZTIME, default 10s) and prints the executions per target. A crash
# fails the script; `go test -fuzz` then writes the input under
# testdata/fuzz/<Target>/ of the package, where it becomes a regression
# test run by every plain `go test` (commit it with the fix).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
status=0
printf '%-34s %-28s %s\n' TARGET PACKAGE EXECS
while read -r file; do
	pkg="./$(dirname "$file")"
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		log="$(mktemp)"
		if go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
			result=ok
		else
			result=FAILED
			status=1
		fi
		# The last progress line carries the total ("execs: N").
		# (none when the target failed before fuzzing: grep's status must
		# not end the script under pipefail before the log is shown).
		execs="$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)"
		printf '%-34s %-28s %s %s\n' "$target" "$pkg" "${execs:-?}" "$result"
		if [ "$result" = FAILED ]; then
			tail -30 "$log"
		fi
		rm -f "$log"
	done
done < <(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | sort)
exit "$status"
