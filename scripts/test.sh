#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need, then runs
# lint, types, the unit/server suites (SQLite and PostgreSQL) and the browser e2e suite.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then npm install --no-audit --no-fund; fi

# Debian tools the tests drive, installed once with one apt run when missing (nothing downloads a browser
# or a binary of its own): Chromium for the end-to-end tests, LibreOffice to make and open .docx files
# (tests/server/documents), litmus and rclone for WebDAV conformance and sync (tests/server/webdav).
# Chromium keeps its recommended packages (fonts among them); the others need none.
browser=()
missing=()
command -v chromium >/dev/null 2>&1 || browser+=(chromium)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-writer-nogui)
command -v litmus >/dev/null 2>&1 || missing+=(litmus)
command -v rclone >/dev/null 2>&1 || missing+=(rclone)
if [ $((${#browser[@]} + ${#missing[@]})) -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    if [ ${#browser[@]} -gt 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${browser[@]}" >/dev/null; fi
    if [ ${#missing[@]} -gt 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; fi
  else
    echo "Missing Debian packages: run 'sudo apt-get install -y ${browser[*]} ${missing[*]}' once." >&2
    exit 1
  fi
fi

# Lint, types and the production build are independent single-threaded steps: run side by side on the
# machine's cores, each one's output printed whole when it ends, the first failure stopping the run.
logs=$(mktemp -d)
steps=("npm run lint" "npm run typecheck" "npm run build")
pids=()
for i in "${!steps[@]}"; do
  bash -c "${steps[$i]}" >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!steps[@]}"; do
  if wait "${pids[$i]}"; then status=ok; else status=FAILED; failed=1; fi
  echo "── ${steps[$i]}: $status"
  cat "$logs/$i.log"
done
rm -rf "$logs"
if [ "$failed" = 1 ]; then exit 1; fi

npx vitest run
npx playwright test
