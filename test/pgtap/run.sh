#!/usr/bin/env bash
# test/pgtap/run.sh MODE DB [FILE...]
#
# Runs the gpugb pgTAP differential suites (test/pgtap/[0-9]*.sql, or the
# FILEs given) with pg_prove against database DB (created if missing), in
# one of three modes, passed to every session through PGOPTIONS:
#
#   fallback  gpugb.plan_without_gpu=on, gpugb.force=on: every query must plan
#             GpuGroupAgg and, with no GPU, fall back to PostgreSQL's plan.
#   emulator  gpugb.emulate_device=on, gpugb.force=on, gpugb.require_gpu=on:
#             the host pipeline runs on the CPU emulator, no fallback allowed.
#   gpu       gpugb.force=on, gpugb.require_gpu=on: the real GPU; any
#             fallback is an error.
#
# Environment:
#   GPUGB_TEST_SCALE  table size factor (default 1; 10 in gpu mode).  At 1 the
#                     largest tables have 1e6 rows (1e6 groups).
#   PG_PROVE_OPTS     extra pg_prove options (e.g. -v).
#   PGHOST/PGPORT/PGUSER as usual (a superuser: the suites LOAD 'gpugb').
#
# Prints at the end "N queries checked, M with the GPU path taken" (from the
# table gpugb_tap_log that gpugb_check() fills) and exits with pg_prove's
# status, or 1 if the counts contradict the mode.
set -uo pipefail

usage() { echo "usage: $0 fallback|emulator|gpu DB [FILE...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 db=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

case $mode in
  fallback) opts="-c gpugb.plan_without_gpu=on -c gpugb.force=on -c gpugb_test.expect=fallback"
            scale=${GPUGB_TEST_SCALE:-1} ;;
  emulator) opts="-c gpugb.emulate_device=on -c gpugb.force=on -c gpugb.require_gpu=on -c gpugb_test.expect=gpu"
            scale=${GPUGB_TEST_SCALE:-1} ;;
  gpu)      opts="-c gpugb.force=on -c gpugb.require_gpu=on -c gpugb_test.expect=gpu"
            scale=${GPUGB_TEST_SCALE:-10} ;;
  *) usage ;;
esac
export PGOPTIONS="${PGOPTIONS:-} $opts -c gpugb_test.scale=$scale"

if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/[0-9]*.sql); fi

if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
  createdb "$db" || exit 2
fi
# Installs the helpers (each suite does it again) and the log table.
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$here/setup.sql" >/dev/null || exit 2
first_id=$(psql -X -At -d "$db" -c "SELECT coalesce(max(id), 0) FROM gpugb_tap_log") || exit 2
device=$(psql -X -At -d "$db" -c "LOAD 'gpugb'; SELECT gpugb_device_info()" | tail -1)

echo "# gpugb pgTAP suites: mode $mode, scale $scale, database $db, device: $device"
start_ns=$(date +%s%N)
# shellcheck disable=SC2086
pg_prove ${PG_PROVE_OPTS:-} -d "$db" "${files[@]}"
rc=$?
ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))

read -r checked taken fellback failed < <(psql -X -At -F ' ' -d "$db" -c "
  SELECT count(*), count(*) FILTER (WHERE gpu_runs > 0), count(*) FILTER (WHERE fallbacks > 0),
         count(*) FILTER (WHERE NOT passed)
    FROM gpugb_tap_log WHERE id > $first_id")
echo "# $checked queries checked, $taken with the GPU path taken ($fellback fell back, $failed failed); $((ms / 1000)).$(( (ms % 1000) / 100 )) s in mode $mode"
# Files that check no query (07_keeper.sql: TAP tests only) need none.
differential=0
grep -q "gpugb_check" "${files[@]}" && differential=1
if [ "${checked:-0}" -eq 0 ] && [ $differential = 1 ]; then
  echo "# no query was checked" >&2; rc=1
elif [ "$mode" = fallback ] && [ "$fellback" -ne "$checked" ]; then
  echo "# mode fallback: every checked query should have fallen back" >&2; rc=1
elif [ "$mode" != fallback ] && [ "$taken" -ne "$checked" ]; then
  echo "# mode $mode: every checked query should have taken the GPU path" >&2; rc=1
fi
if [ "$failed" -gt 0 ]; then
  psql -X -d "$db" -c "SELECT id, description, problem FROM gpugb_tap_log WHERE id > $first_id AND NOT passed ORDER BY id" >&2
fi
exit $rc
