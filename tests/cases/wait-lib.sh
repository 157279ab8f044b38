# wait-lib.sh — sourced by cases that must let something happen before
# they go on: they wait for the condition itself (a process holds a file
# open, sleeps, waits in a FIFO's open), never for a fixed time, which a
# loaded machine or a sanitized ddx outlasts.  Each waits up to 60 s, then
# prints a FAIL line (failing the case) and returns 1.  The checks run no
# program (bash builtins only), so on a starved machine a poll still takes
# a moment: a watch that gives up on a silent log after 3 s is seen to
# hold it well before.

# descendants PID: append to the array kin the pids of PID's children,
# theirs, and so on.
descendants() {
	local t p kids
	for t in /proc/"$1"/task/*/children; do
		kids=()
		{ read -r -a kids <"$t"; } 2>/dev/null
		for p in "${kids[@]}"; do kin+=("$p"); descendants "$p"; done
	done
}

# until_true WHAT COMMAND...: run COMMAND every 0.1 s until it succeeds.
until_true() {
	local what=$1 i
	shift
	for ((i = 0; i < 600; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	echo "FAIL waited 60 s for $what"
	return 1
}

# in_state PID WCHAN-WORD SYSCALL...: whether PID or a descendant of it
# (a program under `timeout`) is blocked where its wchan names
# WCHAN-WORD or, where the kernel hides wchan, in one of the syscalls
# (numbers, x86-64 and arm64 ones both given).
in_state() {
	local pid=$1 word=$2 p w nr n kin=()
	shift 2
	descendants "$pid"
	for p in "$pid" "${kin[@]}"; do
		w= nr=
		{ read -r w <"/proc/$p/wchan"; } 2>/dev/null
		[[ $w == *"$word"* ]] && return 0
		{ read -r nr _ <"/proc/$p/syscall"; } 2>/dev/null
		for n in "$@"; do [ "$nr" = "$n" ] && return 0; done
	done
	return 1
}

# holding PID FILE: whether PID or a descendant of it holds FILE open.
holding() {
	local p f kin=()
	descendants "$1"
	for p in "$1" "${kin[@]}"; do
		for f in /proc/"$p"/fd/*; do
			[ "$f" -ef "$2" ] && return 0
		done
	done
	return 1
}

# holds_open PID FILE: wait until PID (or a descendant) holds FILE open:
# what the case does to FILE after that, the holder sees happen.
holds_open() { until_true "pid $1 to open $2" holding "$@"; }

# sleeps PID: wait until PID (or a descendant) sleeps in nanosleep or
# clock_nanosleep: ddx taking a sample, between its two readings.
sleeps() { until_true "pid $1 to sleep" in_state "$1" nanosleep 35 230 101 115; }

# opens_fifo PID: wait until PID (or a descendant) waits in the open of a
# FIFO for the other end: it counts as that end already.
opens_fifo() { until_true "pid $1 to open a FIFO" in_state "$1" wait_for_partner 257 2 56; }
