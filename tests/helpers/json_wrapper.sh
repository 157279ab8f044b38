#!/bin/sh
# json_wrapper.sh — the ddx that tests/run puts first on PATH, from this
# template with the @WORDS@ filled in (absolute paths alone: some cases
# run ddx with a PATH of their own).  It keeps a copy of each --json
# output in @DIR@ as COMMAND.XXXXXX, its arguments in COMMAND.XXXXXX.args,
# for tests/run to check against docs/ddx-json.schema.json after the case.
#
# Without --json, or where there is nothing to check (-q prints nothing,
# --help prints help, a terminal is looked at, not checked), it execs the
# ddx it wraps: the same process with the same stdout, signals and all.
# With it, that ddx runs as its child with stdout in the file, copied out
# after (the wrapper, not ddx, holds the case's stdout); stdin is its own,
# and the exit status its.  A signal sent to the wrapper would not reach
# that child: no case signals a ddx --json.
next='@NEXT@'
[ -t 1 ] && exec "$next" "$@"
sub= json=0 prev=
for a; do
	if [ -z "$sub" ]; then
		# The global options before the command take no separate value.
		case $a in -*) ;; *) sub=$a ;; esac
	else
		case $prev/$a in
		*/--) break ;;
		*/--json | */--format=json | --format/json) json=1 ;;
		*/-q | */--quiet | */-h | */--help) exec "$next" "$@" ;;
		esac
	fi
	prev=$a
done
case $sub in
diff | check | proc | failures | baselines | templates | parse | phases) ;;
*) json=0 ;;
esac
[ "$json" = 1 ] || exec "$next" "$@"
out=$('@MKTEMP@' "@DIR@/$sub.XXXXXX") || exit 2
printf '%s ' "$@" >"$out.args"
"$next" "$@" >"$out"
rc=$?
'@CAT@' "$out"
exit $rc
