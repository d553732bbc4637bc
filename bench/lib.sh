# Shared by the bench scripts (sourced, not run).

# wait_for FILE PATTERN [SECONDS] -> once FILE has a line matching PATTERN
# (default 60 s). On a timeout it says so and ends the script: a client
# started against a server that does not listen yet is refused, and that
# server then waits for ever (seen under load with a 5 s wait).
wait_for() {
	local limit=${3:-60}
	local deadline=$((SECONDS + limit))
	until grep -q "$2" "$1" 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "bench: $1 did not show '$2' within $limit s" >&2
			exit 1
		fi
		read -r -t 0.01 <> <(:) || true
	done
}
