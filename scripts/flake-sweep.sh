#!/usr/bin/env bash
# Looks for flaky tests before CI does (issue 29): the whole vitest suite (both server dialects and the
# browser logic tests) RUNS times with files and the tests inside them shuffled, each run with its own
# printed seed, then the end-to-end suite RUNS times. Run it on a fresh clone after `npm test` has
# installed everything. A failure names its seed: `npx vitest run --sequence.shuffle --sequence.seed=SEED FILE`
# replays the order. Fix a failure at its cause, never with a retry or a longer timeout alone.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
out=${SWEEP_DIR:-$(mktemp -d -t flake-sweep-XXXX)}
failed=0
for i in $(seq 1 "$runs"); do
  seed=${SEED_BASE:-$RANDOM}$i
  echo "── vitest run $i/$runs, seed $seed (log: $out/vitest-$i.log)"
  if npx vitest run --sequence.shuffle --sequence.seed="$seed" >"$out/vitest-$i.log" 2>&1; then echo "   passed"; else echo "   FAILED"; failed=1; fi
  grep -aE '^ *(Test Files|Tests|Duration) ' "$out/vitest-$i.log" | sed 's/\x1b\[[0-9;]*m//g'
  sed 's/\x1b\[[0-9;]*m//g' "$out/vitest-$i.log" | grep -aE '^ (FAIL|❯) ' | sort -u
done
[ -d dist/web ] || npm run build >/dev/null
for i in $(seq 1 "$runs"); do
  echo "── playwright run $i/$runs (log: $out/e2e-$i.log)"
  if npx playwright test >"$out/e2e-$i.log" 2>&1; then echo "   passed"; else echo "   FAILED"; failed=1; fi
  tail -n 5 "$out/e2e-$i.log"
done
exit $failed
