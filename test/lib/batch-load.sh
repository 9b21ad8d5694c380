# Loads a generated table in parallel (sourced by test/tpch/lineitem.sh and test/bench/hits.sh).
#
# batch_load DB TOTAL BATCH JOBS SQL_FN
#   Keys 1..TOTAL are cut into batches of BATCH; JOBS psql sessions each take every JOBS-th
#   batch, and SQL_FN LO HI prints the statement that loads keys LO..HI.  Returns non-zero if
#   any session failed (ON_ERROR_STOP).
batch_load() {
  local db=$1 total=$2 batch=$3 jobs=$4 fn=$5
  local nb=$(( (total + batch - 1) / batch )) j b lo hi p rc=0 pids=()
  for ((j = 0; j < jobs; j++)); do
    (
      for ((b = j; b < nb; b += jobs)); do
        lo=$(( b * batch + 1 )); hi=$(( (b + 1) * batch )); [ $hi -le "$total" ] || hi=$total
        "$fn" "$lo" "$hi"
      done
    ) | psql -X -q -v ON_ERROR_STOP=1 -d "$db" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  return $rc
}
