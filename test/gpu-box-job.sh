#!/usr/bin/env bash
# test/gpu-box-job.sh JOB [SECONDS] — run a job longer than one device call on the GPU box.
#
# The device tool kills whatever a call leaves running when the call returns,
# except processes in a process session of their own (its README).  So the
# first call that names JOB starts it under setsid, and every call (that one
# included) waits up to SECONDS (default 560, under the 600 s a call may take)
# for it, then prints the job's log so far and JOB-DONE or JOB-RUNNING.  Call
# it again, on the still-warm machine, until JOB-DONE.
#
# The job runs from the repository root with OUT=/tmp/gpugb-job-out (its
# files) and must `touch "$OUT/job.done"` as its last step.  Each call packs
# that folder into $OUT/out.tgz (the device tool's OUT), so what a job wrote
# comes back even while it still runs.  A job is started once per machine
# (marker /tmp/gpugb-job-started-NAME); a fresh machine starts it again.
#
#   run(command="bash test/gpu-box-job.sh .gpu-box/my-job.sh", carry=[".gpu-box"])
set -uo pipefail
job=${1:?usage: $0 JOB [SECONDS]}
limit=${2:-560}
cd "$(dirname "$0")/.."
jobs_out=/tmp/gpugb-job-out
marker=/tmp/gpugb-job-started-$(basename "$job")
mkdir -p "$jobs_out"
if [ ! -e "$marker" ]; then
  touch "$marker"
  rm -rf "${jobs_out:?}"/*
  OUT=$jobs_out setsid nohup bash "$job" > "$jobs_out/job.log" 2>&1 < /dev/null &
fi
t0=$(date +%s)
while [ ! -e "$jobs_out/job.done" ] && [ $(( $(date +%s) - t0 )) -lt "$limit" ]; do sleep 5; done
if [ -n "${OUT:-}" ]; then
  tar -C /tmp -czf "$OUT/out.tgz" "$(basename "$jobs_out")" 2>/dev/null
fi
cat "$jobs_out/job.log"
if [ -e "$jobs_out/job.done" ]; then echo JOB-DONE; else echo JOB-RUNNING; fi
