# proc-lib.sh — sourced by the tests/cases/proc-*/cmd scripts that run
# real processes (tests/helpers/proc_helper.c) and point `ddx proc` at
# them.  Pids, ports and times vary, so the cases print checked facts.
# Everything started here runs in its own process group and is killed on
# exit; the helper also ends itself after 120 s whatever happens.

helper="${DDX_TEST_BUILD:?}/tests/proc_helper"
[ -d /proc/self/fd ] || exit 77
# ddx and the helper are siblings: under Yama's ptrace_scope >= 1 only
# root may read the helper's syscall file, which the cases check.
if [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 1 ]; then
	exit 77
fi
[ -x "$helper" ] || { echo "no $helper: run make check"; exit 1; }
work=$(mktemp -d)
groups=()
cleanup() {
	for g in "${groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT

# start LOG HELPER-ARGS...: run the helper with stdout and stderr to LOG.
# Sets $leader to its pid, which leads its process group.
start() {
	local log=$1
	shift
	"$helper" "$@" >"$log" 2>&1 </dev/null &
	leader=$!
	disown "$leader"
	groups+=("$leader")
}

# wait_ready LOG [spin]: poll (up to 60 s on a loaded machine) for its
# ready line; then, unless the helper spins, until every thread of its
# process group has gone to sleep, so a starved machine cannot show one
# still on its way into the syscall the case checks.
wait_ready() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -q 'INFO ready$' "$1" 2>/dev/null && break
		sleep 0.1
	done
	if [ "$i" -eq 600 ]; then
		echo "timeout: no ready line in $1:"
		cat "$1"
		exit 1
	fi
	[ "${2:-}" = spin ] && return 0
	for ((i = 0; i < 600; i++)); do
		running_in_group "$leader" || return 0
		sleep 0.1
	done
	echo "timeout: the helper's threads never all slept"
	exit 1
}

# quiet LOG: the log was last written ten minutes ago, as a hung
# server's is.  Without good runs, blocked processes are hung only after
# a minute of silence (LIVE_QUIET_S, src/live/live.h); a case sets the
# time rather than waiting for it.
quiet() { touch -d '-10 minutes' "$1"; }

# running_in_group PGID: is any thread of the group in state R?  (Fields
# after the command name in /proc/PID/task/TID/stat: state ppid pgrp.)
running_in_group() {
	local g=$1 f line
	for f in /proc/[0-9]*/task/[0-9]*/stat; do
		{ read -r line <"$f"; } 2>/dev/null || continue
		set -- ${line##*") "}
		[ "$3" = "$g" ] && [ "$1" = R ] && return 0
	done
	return 1
}

# The port the helper logged.
port_of() { sed -n 's/.* port=\([0-9]*\),.*/\1/p' "$1" | tail -n 1; }

# count PATTERN FILE: how many process lines of a --json report match.
count() { grep '^    {"pid"' "$2" | grep -c -- "$1"; }

# fact CONDITION-TEXT ACTUAL EXPECTED: print "ok: TEXT" or the mismatch.
fact() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got '$2', want '$3'"; fi
}
