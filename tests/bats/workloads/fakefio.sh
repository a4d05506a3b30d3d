#!/bin/bash
# A stand-in for fio in the experiment tests: prints fio's JSON layout
# (fio 3.33 --output-format=json, trimmed to the fields wqctl reads) with
# figures computed from the workqueue setting in force while it runs.
#   fakefio.sh ROOT LOG [FACTOR_FILE]
# Job "a" reads at max_active x 1024 KiB/s (= max_active MiB/s) and writes
# at half that; job "b" writes at 1024 KiB/s. Completion latency p99 is
# 1,000,000 / max_active ns for job a's reads. Each run appends
# "max_active nice" to LOG. FACTOR_FILE (a number) scales every bandwidth;
# lines "MAX_ACTIVE FACTOR" scale the runs under that max_active alone (1 for
# one it does not name).
root=$1 log=$2 factor=1
w=$root/sys/devices/virtual/workqueue/writeback
ma=$(cat "$w/max_active") nice=$(cat "$w/nice")
if [ -n "${3:-}" ] && [ -f "$3" ]; then
	if grep -q ' ' "$3"; then
		factor=$(awk -v ma="$ma" '$1 == ma { print $2 }' "$3")
		factor=${factor:-1}
	else
		factor=$(cat "$3")
	fi
fi
echo "$ma $nice" >>"$log"
ra=$((ma * 1024 * factor)) wa=$((ma * 512 * factor)) wb=$((1024 * factor))
cat <<JSON
note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1
{
  "fio version" : "fio-3.33",
  "timestamp" : 1764590000,
  "jobs" : [
    {
      "jobname" : "a",
      "groupid" : 0,
      "error" : 0,
      "read" : {
        "io_bytes" : 1048576,
        "bw" : $ra,
        "iops" : $((ra / 4)).500000,
        "clat_ns" : {
          "min" : 1000,
          "percentile" : {
            "50.000000" : $((500000 / ma)),
            "99.000000" : $((1000000 / ma)),
            "99.900000" : $((2000000 / ma))
          }
        }
      },
      "write" : {
        "io_bytes" : 524288,
        "bw" : $wa,
        "iops" : $((wa / 4)).000000,
        "clat_ns" : {
          "percentile" : {
            "50.000000" : 4000,
            "99.000000" : 8000
          }
        }
      },
      "trim" : { "io_bytes" : 0, "bw" : 0, "iops" : 0.000000 }
    },
    {
      "jobname" : "b",
      "groupid" : 0,
      "error" : 0,
      "read" : { "io_bytes" : 0, "bw" : 0, "iops" : 0.000000 },
      "write" : {
        "io_bytes" : 1048576,
        "bw" : $wb,
        "iops" : $((wb / 4)).000000,
        "clat_ns" : {
          "percentile" : {
            "50.000000" : 3000,
            "99.000000" : 9000
          }
        }
      }
    }
  ]
}
JSON
