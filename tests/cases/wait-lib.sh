# wait-lib.sh — sourced by cases that must let something happen before
# they go on: they wait for the condition itself (a process holds a file
# open, sleeps, waits in a FIFO's open), never for a fixed time, which a
# loaded machine or a sanitized ddx outlasts.  Each waits up to 60 s, then
# prints a FAIL line (failing the case) and returns 1.

# descendants PID: the pids of PID's children, theirs, and so on.
descendants() {
	local p
	for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do echo "$p"; descendants "$p"; done
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
	local pid=$1 word=$2 p nr
	shift 2
	for p in "$pid" $(descendants "$pid"); do
		grep -q "$word" "/proc/$p/wchan" 2>/dev/null && return 0
		nr=
		read -r nr _ <"/proc/$p/syscall" 2>/dev/null
		for n in "$@"; do [ "$nr" = "$n" ] && return 0; done
	done
	return 1
}

# holding PID FILE: whether PID or a descendant of it holds FILE open.
holding() {
	local p f
	for p in "$1" $(descendants "$1"); do
		for f in /proc/"$p"/fd/*; do
			[ "$(readlink "$f" 2>/dev/null)" = "$2" ] && return 0
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
