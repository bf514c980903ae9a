#!/usr/bin/env bash
# Makes a fresh machine ready for the test suite: PostgreSQL and Redis up on 127.0.0.1, and Debian's
# Chromium (and its headless shell) with a CJK font (and curl) for the browser tests (Playwright's own browser download does not work here).
set -euo pipefail

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The browser tests drive Chromium's headless shell (Playwright's own choice for headless runs): the same engine
# without the full browser's GPU process, about 10 % faster on the layout suite here.
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
# The browser tests run a generated proxy line with curl, as a customer would.
command -v curl >/dev/null 2>&1 || need+=(curl)
fc-list 2>/dev/null | grep -qi 'wenquanyi\|wqy' || need+=(fonts-wqy-microhei)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
pg_isready -h 127.0.0.1 -p 5432
