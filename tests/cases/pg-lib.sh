# tests/cases/pg-lib.sh — a throw-away PostgreSQL server for a case.  Source
# it, then `pg_start DIR`: a cluster made with initdb under DIR (which must
# exist and be the case's own), started on a socket in DIR only (no TCP),
# on a random port, as an unprivileged user (nobody, when the tests run as
# root: postgres refuses root).  It sets
#   PGURL   postgresql:// URL of database "ddx", user ddx (trust)
#   PGSOCK  the socket directory, PGPORT the port, PGBIN the binaries
#   PGPW    a role ddxpw whose password is "right" (scram), for auth tests
# and, when the case exits however it exits, stops the server and
# removes DIR (its EXIT trap; the case sets none of its own).  Exits 77
# (skipped) when the PostgreSQL server binaries are absent.
pg_start() {
	trap "pg_stop; rm -rf '$1'" EXIT
	PGBIN=$(pg_config --bindir 2>/dev/null)
	[ -x "$PGBIN/initdb" ] || PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)
	if [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ]; then
		echo "skipped: no PostgreSQL server binaries (initdb, pg_ctl)" >&2
		exit 77
	fi
	# initdb writes to /dev/null as the user it runs as.
	[ -c /dev/null ] || { echo "pg-lib: /dev/null is no device (something replaced it)" >&2; exit 1; }
	PGDIR=$1/pg
	PGSOCK=$1/pg/sock
	PGPORT=$((20000 + RANDOM % 20000))
	pg_as=()
	mkdir -p "$PGSOCK"
	if [ "$(id -u)" = 0 ]; then
		pg_as=(runuser -u nobody --)
		chmod 755 "$1"
		chown -R nobody "$PGDIR"
	fi
	"${pg_as[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U ddx -A trust -E UTF8 --locale=C \
		--no-sync >"$PGDIR/initdb.log" 2>&1 || { cat "$PGDIR/initdb.log" >&2; exit 1; }
	# The password role authenticates with scram; everyone else is trusted.
	{ echo "local all ddxpw scram-sha-256"; cat "$PGDIR/data/pg_hba.conf"; } >"$PGDIR/hba" &&
		cat "$PGDIR/hba" >"$PGDIR/data/pg_hba.conf"
	cat >>"$PGDIR/data/postgresql.conf" <<-CONF
	listen_addresses = ''
	unix_socket_directories = '$PGSOCK'
	port = $PGPORT
	fsync = off
	shared_buffers = 16MB
	max_connections = 60
	CONF
	pg_restart || { cat "$PGDIR/log" >&2; exit 1; }
	pg_psql postgres -c "CREATE DATABASE ddx" -c "CREATE ROLE ddxpw LOGIN PASSWORD 'right'" \
		-c "GRANT ALL ON DATABASE ddx TO ddxpw" >/dev/null || exit 1
	PGURL="postgresql://ddx@/ddx?host=$PGSOCK&port=$PGPORT"
	export PGURL PGSOCK PGPORT PGBIN
}

# SQL as user ddx: pg_psql DB ARGS...
pg_psql() {
	local db=$1
	shift
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGSOCK" -p "$PGPORT" -U ddx -d "$db" "$@"
}

# Stop the server now (fast: connections are cut); it can be started again
# with pg_restart.
pg_stop() {
	[ -n "${PGDIR:-}" ] && [ -f "$PGDIR/data/postmaster.pid" ] &&
		"${pg_as[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1
	return 0
}

pg_restart() {
	"${pg_as[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 start >/dev/null
}
