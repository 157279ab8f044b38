# watch-lib.sh — sourced by the tests/cases/watch-*/cmd scripts: they run
# tests/helpers/replay.c, which writes diff-seed's logs again with their
# real timing compressed 100 times (the good run's startup takes about
# 2 s), and point `ddx watch` at what it writes.  Times, pids and the
# temporary directory vary, so mask() hides them.  Everything started here
# is killed on exit; the replayer also ends itself after 120 s.
. ../wait-lib.sh
replay="${DDX_TEST_BUILD:?}/tests/replay"
[ -x "$replay" ] || { echo "no $replay: run make check"; exit 1; }
seed=../diff-seed
work=$(mktemp -d)
started=()
cleanup() {
	for p in "${started[@]}"; do kill -KILL -- "-$p" "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT

# replay OUT ARGS...: start the replayer with stdout to OUT (a log, or
# /dev/null with -o).  Sets $leader to its pid.
replay() {
	local out=$1
	shift
	# Created now, as `server >log &` does before the server runs.
	[ "$out" = /dev/null ] || : >"$out"
	"$replay" -a 120 "$@" >"$out" 2>>"$work/replay.err" </dev/null &
	leader=$!
	started+=("$leader")
}

# need_syscalls: the live section shows what the replayer is blocked in,
# which under Yama's ptrace_scope >= 1 only root may read (ddx and the
# replayer are siblings): skip then, as the proc cases do.
need_syscalls() {
	if [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" -ge 1 ]; then
		exit 77
	fi
}

# Tolerant settings for a loaded machine: the replayed startup's longest
# gap is 0.84 s, a hang is called after 3 s.
fast=(--interval 100ms --factor 0.01 --min-silence 3 --sample 200ms)

# The work directory, durations that depend on the machine, and whether
# something else on this machine listens on the port the log names.
mask() {
	sed -e "s|$work|WORK|g" -e 's/no progress for [0-9.]* s/no progress for N s/' -e 's/then quiet for [0-9.]* s/then quiet for N s/' \
		-e 's/Silent for [0-9.]* s/Silent for N s/' -e 's/No progress for [0-9.]* s/No progress for N s/' -e 's/silent for [0-9.]* m*s/silent for Ns/' -e 's/silent [0-9.]* m*s where/silent Ns where/' \
		-e 's/port \([0-9]*\) [^:]*:/port \1 ...:/'
}
