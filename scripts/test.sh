#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need, then runs
# lint, types, the unit/server suites (SQLite and PostgreSQL) and the browser e2e suite.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then npm install --no-audit --no-fund; fi

# End-to-end tests drive Debian's Chromium; nothing downloads a browser of its own.
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: run 'sudo apt-get install -y chromium' once." >&2
    exit 1
  fi
fi

# Document tests make and open .docx files with Debian's LibreOffice (tests/server/documents).
if ! command -v soffice >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-writer-nogui >/dev/null
  else
    echo "LibreOffice is missing: run 'sudo apt-get install -y libreoffice-writer-nogui' once." >&2
    exit 1
  fi
fi

# WebDAV conformance and sync tests run Debian's litmus and rclone against a started server (tests/server/webdav).
if ! command -v litmus >/dev/null 2>&1 || ! command -v rclone >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq litmus rclone >/dev/null
  else
    echo "litmus and rclone are missing: run 'sudo apt-get install -y litmus rclone' once." >&2
    exit 1
  fi
fi

npm run lint
npm run typecheck
npx vitest run
npm run build
npx playwright test
