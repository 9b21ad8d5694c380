# Sourced by test/*.sh: build and install gpugb, and start a throwaway
# PostgreSQL 15 cluster with it preloaded.  Sets PGHOST/PGPORT/PGUSER/PGDATABASE.
#
#   GPUGB_PG_CONFIG   pg_config to build against (default: pg_config on PATH)
#   GPUGB_PORT        port of the throwaway cluster (default 5499)
#   GPUGB_CLUSTER     data directory (default /tmp/gpugb-cluster)
#
# If PGHOST/PGPORT already point at a running server (as on the GPU box,
# where ../shared/gpu-box/start-postgres.sh starts one), that one is used.

PG_CONFIG=${GPUGB_PG_CONFIG:-${PG_CONFIG:-pg_config}}
PG_BIN=$($PG_CONFIG --bindir)

gpugb_build_install() {
  local sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  make -s PG_CONFIG="$PG_CONFIG" -j"$(nproc)" >/dev/null
  $sudo make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# Runs a command as the cluster's owner (postgres refuses to run as root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    id "${GPUGB_OWNER:-postgres}" >/dev/null 2>&1 || useradd -m "${GPUGB_OWNER:-postgres}"
    su "${GPUGB_OWNER:-postgres}" -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

gpugb_cluster_start() {
  if [ "${GPUGB_USE_RUNNING:-0}" = 1 ] && "$PG_BIN/pg_isready" -q; then
    echo "using the running server on ${PGHOST:-/tmp}:${PGPORT:-5432}"
    # The library must be loaded in every backend: preload it and restart.
    psql -qXAt -c "ALTER SYSTEM SET shared_preload_libraries = 'gpugb'" >/dev/null
    if [ -n "${GPUBOX_RESTART:-}" ]; then bash "$GPUBOX_RESTART" >/dev/null; fi
    return
  fi
  export GPUGB_CLUSTER=${GPUGB_CLUSTER:-/tmp/gpugb-cluster}
  export PGHOST=/tmp PGPORT=${GPUGB_PORT:-5499} PGUSER=${GPUGB_OWNER:-postgres} PGDATABASE=postgres
  if [ "$(id -u)" != 0 ]; then export PGUSER=$(id -un); fi
  gpugb_cluster_stop 2>/dev/null || true
  rm -rf "$GPUGB_CLUSTER"
  mkdir -p "$GPUGB_CLUSTER"
  [ "$(id -u)" = 0 ] && chown "${GPUGB_OWNER:-postgres}" "$GPUGB_CLUSTER"
  as_owner "$PG_BIN/initdb" -D "$GPUGB_CLUSTER/data" -A trust -U "$PGUSER" --no-sync >/dev/null
  cat >>"$GPUGB_CLUSTER/data/postgresql.conf" <<CONF
port = $PGPORT
unix_socket_directories = '/tmp'
listen_addresses = ''
shared_preload_libraries = 'gpugb'
fsync = off
jit = off
CONF
  as_owner "$PG_BIN/pg_ctl" -D "$GPUGB_CLUSTER/data" -l "$GPUGB_CLUSTER/server.log" -w start >/dev/null
  echo "throwaway cluster up: $GPUGB_CLUSTER (port $PGPORT, log $GPUGB_CLUSTER/server.log)"
}

gpugb_cluster_stop() {
  [ -d "${GPUGB_CLUSTER:-/nonexistent}/data" ] || return 0
  as_owner "$PG_BIN/pg_ctl" -D "$GPUGB_CLUSTER/data" -m fast -w stop >/dev/null
}

# Is a CUDA GPU usable here?  (Decides between the GPU and emulator modes.)
gpugb_have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1
}
