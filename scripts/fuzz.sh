#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a bounded time each
# (FUZZTIME, default 10s) and prints the executions per target. A crash
# fails the script; `go test -fuzz` then writes the input under
# testdata/fuzz/<Target>/ of the package, where it becomes a regression
# test run by every plain `go test` (commit it with the fix). A target that
# fails with Go 1.26's "context deadline exceeded" and writes no input is
# run once more (go.dev/issue/75804: the coordinator reports its own
# -fuzztime deadline), and not counted as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
status=0
printf '%-34s %-28s %s\n' TARGET PACKAGE EXECS
while read -r file; do
	pkg="./$(dirname "$file")"
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		log="$(mktemp)"
		corpus="$(dirname "$file")/testdata/fuzz/$target"
		result=ok
		for attempt in 1 2; do
			before="$(ls "$corpus" 2>/dev/null | sort || true)"
			if go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
				break
			fi
			after="$(ls "$corpus" 2>/dev/null | sort || true)"
			if [ "$before" != "$after" ] || ! grep -q 'context deadline exceeded' "$log"; then
				result=FAILED # a failing input was written, or the run broke otherwise
				status=1
				break
			fi
			# Go 1.26's fuzzing coordinator can report its own -fuzztime
			# deadline as a failure, with no failing input written
			# (go.dev/issue/75804, fixed in Go 1.27): run the target again.
			result="ok (retried after go.dev/issue/75804)"
			if [ "$attempt" = 2 ]; then
				result="flaked twice (go.dev/issue/75804, no failing input)"
			fi
		done
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
