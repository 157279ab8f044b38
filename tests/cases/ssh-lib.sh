# tests/cases/ssh-lib.sh — a throw-away OpenSSH server for a case.  Source
# it, then `sshd_start DIR`: an sshd on 127.0.0.1 at a random port, with a
# host key and a client key made for it under DIR (which must exist and be
# the case's own), letting in only that key, for the user running the
# case.  It sets
#   DDX_SSH_COMMAND  "ssh -F DIR/ssh_config": host "testhost" is that
#                    server, its host key known, the key used
#   SSHD_PORT        the port
# and, when the case exits however it exits, stops the server and removes
# DIR (its EXIT trap; the case sets none of its own).  Exits 77 (skipped)
# when sshd or ssh-keygen is absent.
sshd_start() {
	local d=$1 sshd i w
	trap "sshd_stop; rm -rf '$d'" EXIT
	sshd=$(command -v sshd || echo /usr/sbin/sshd)
	if [ ! -x "$sshd" ] || ! command -v ssh-keygen >/dev/null || ! command -v ssh >/dev/null; then
		echo "skipped: no OpenSSH server (sshd) or client" >&2
		exit 77
	fi
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" || exit 1
	ssh-keygen -q -t ed25519 -N '' -f "$d/user_key" || exit 1
	cp "$d/user_key.pub" "$d/authorized_keys"
	chmod 700 "$d"
	# sshd as root needs its privilege separation folder.
	[ "$(id -u)" != 0 ] || mkdir -p /run/sshd
	for ((i = 0; i < 20; i++)); do
		SSHD_PORT=$((20000 + RANDOM % 20000))
		cat >"$d/sshd_config" <<-CONF
		ListenAddress 127.0.0.1:$SSHD_PORT
		HostKey $d/host_key
		AuthorizedKeysFile $d/authorized_keys
		PidFile $d/sshd.pid
		StrictModes no
		UsePAM no
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PermitRootLogin prohibit-password
		AllowUsers $(id -un)
		CONF
		# -D -e: stays in front (so the trap can stop it), logs to
		# stderr; it fails at once when the port is taken.
		"$sshd" -D -e -f "$d/sshd_config" 2>"$d/sshd.log" &
		SSHD_PID=$!
		for ((w = 0; w < 100; w++)); do
			grep -q "Server listening" "$d/sshd.log" 2>/dev/null && break 2
			kill -0 "$SSHD_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=
	done
	[ -n "$SSHD_PID" ] || { cat "$d/sshd.log" >&2; echo "FAIL sshd did not start"; exit 1; }
	echo "[127.0.0.1]:$SSHD_PORT $(cat "$d/host_key.pub")" >"$d/known_hosts"
	cat >"$d/ssh_config" <<-CONF
	Host testhost
	  HostName 127.0.0.1
	  Port $SSHD_PORT
	  User $(id -un)
	  IdentityFile $d/user_key
	  IdentitiesOnly yes
	  UserKnownHostsFile $d/known_hosts
	  StrictHostKeyChecking yes
	  LogLevel ERROR
	CONF
	DDX_SSH_COMMAND="ssh -F $d/ssh_config"
	export DDX_SSH_COMMAND SSHD_PORT
}

sshd_stop() {
	[ -z "${SSHD_PID:-}" ] || { kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; }
	SSHD_PID=
}
