#!/usr/bin/env bash
# Runs every gpugb test: builds and installs, starts a throwaway cluster,
# then runs
#   0. the unit tests of the strategy heuristics (test/unit, plain C), and the
#      kernel benchmark's host test (test/kernelbench, no GPU);
#   1. the device self-test (on a GPU: every kernel against a CPU reference;
#      without one: proves the library loads and reports "no device", runs
#      the append cases against the CPU emulator, and checks the kernels'
#      PTX for a miscompile: test/device/ptx_check.sh);
#   2. the pg_regress suite (make installcheck);
#   3. the pgTAP differential suites (gpugb result = PostgreSQL's result);
#      on a GPU also once per forced gpugb.strategy;
#   4. qgen, random differential GROUP BY queries (test/qgen/README.md):
#      500 in emulator mode, QGEN_QUERIES (default 10000) on a GPU, and there
#      QGEN_STRATEGY_QUERIES (default 2000) more per forced gpugb.strategy,
#      each with its own seed.
# Without a GPU, 2 and 3 run the host pipeline against the CPU emulator of
# the device, and 3 also runs in fallback mode (no GPU: PostgreSQL's plan
# under the GpuGroupAgg node).  With a GPU they run on it, with
# gpugb.require_gpu=on, so any silent fallback fails the run.
#
# Usage: test/run-all.sh            (GPUGB_TEST_MODE=gpu|emulator to force)
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/cluster.sh

if [ -z "${GPUGB_TEST_MODE:-}" ]; then
  if gpugb_have_gpu; then GPUGB_TEST_MODE=gpu; else GPUGB_TEST_MODE=emulator; fi
fi
export GPUGB_TEST_MODE
echo "== gpugb tests, mode: $GPUGB_TEST_MODE"

echo "== build and install"
gpugb_build_install
if ldd "$($PG_CONFIG --pkglibdir)/gpugb.so" | grep -Eq 'libcuda|libcudart'; then
  echo "gpugb.so depends on libcuda/libcudart at load time"; exit 1
fi

echo "== unit tests (strategy heuristics)"
make -s -C test/unit run >/dev/null || { make -s -C test/unit run | grep -v '^ok'; exit 1; }
echo "unit tests passed"

echo "== kernel benchmark host test (Thrust baseline against std::map, checksums, report)"
out=$(make -s -C test/kernelbench check 2>&1) || { echo "$out" | grep -v '^ok'; exit 1; }
echo "$out" | tail -1

echo "== device self-test"
make -s -C test/device >/dev/null
if [ "$GPUGB_TEST_MODE" = gpu ]; then
  test/bin/device_selftest --require-gpu
else
  test/bin/device_selftest
  # the same cases of appends from registered slots (parallel ingest's direct
  # copy) against the CPU emulator, which the regress tests run under here
  make -s -C test/device emulator >/dev/null
  out=$(test/bin/device_selftest_emu --quick --only append) || { echo "$out" | grep -v '^ok'; exit 1; }
  echo "$out" | tail -1
  # the kernels' PTX, for a miscompile that only a GPU would otherwise show
  # (test/device/ptx_check.sh: session 30's illegal address)
  make -s -j2 -C test/device ptx-check
  echo "PTX check passed"
fi

gpugb_cluster_start
trap gpugb_cluster_stop EXIT

echo "== pg_regress"
if ! make -s PG_CONFIG="$PG_CONFIG" installcheck GPUGB_TEST_MODE="$GPUGB_TEST_MODE"; then
  cat regression.diffs 2>/dev/null | head -100
  exit 1
fi

echo "== pgTAP differential suites"
modes=$([ "$GPUGB_TEST_MODE" = gpu ] && echo gpu || echo "emulator fallback")
for mode in $modes; do
  test/pgtap/run.sh "$mode" gpugb_tap
done
strategies="global_hash shared_hash sort partition private_hash"
if [ "$GPUGB_TEST_MODE" = gpu ]; then
  for s in $strategies; do
    echo "-- forced gpugb.strategy = $s"
    PGOPTIONS="${PGOPTIONS:-} -c gpugb.strategy=$s" test/pgtap/run.sh gpu gpugb_tap
  done
fi

echo "== qgen: random differential queries"
if [ "$GPUGB_TEST_MODE" = gpu ]; then
  python3 test/qgen/qgen.py --mode gpu --queries "${QGEN_QUERIES:-10000}" --seed "${QGEN_SEED:-1}" \
    --save-mismatches "${QGEN_SAVE:-${TMPDIR:-/tmp}/gpugb-qgen-mismatches}"
  n=0
  for s in $strategies; do
    n=$((n + 1))
    echo "-- forced gpugb.strategy = $s"
    python3 test/qgen/qgen.py --mode gpu --strategy "$s" --queries "${QGEN_STRATEGY_QUERIES:-2000}" \
      --seed $(( ${QGEN_SEED:-1} + 1000 * n )) \
      --save-mismatches "${QGEN_SAVE:-${TMPDIR:-/tmp}/gpugb-qgen-mismatches}/$s"
  done
else
  python3 test/qgen/qgen.py --mode emulator --queries 500 --seed 1 \
    --save-mismatches "${QGEN_SAVE:-${TMPDIR:-/tmp}/gpugb-qgen-mismatches}"
fi
echo "== all gpugb tests passed ($GPUGB_TEST_MODE)"
