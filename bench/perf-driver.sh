#!/bin/bash
# The driver's thread under `perf` (docs/performance.md, "The driver's thread under perf"): one
# `loadscope run` of 12 s at 1,000 req/s on nginx (core 1), the whole process pinned to core 0,
# JavaScript frames named by --perf-basic-prof (through NODE_OPTIONS: a worker refuses it in
# execArgv), perf recording 8 s from the fourth second; then the share of samples per thread and the
# busiest non-main thread's (the driver's) symbols. Needs nginx, perf and taskset; root or
# perf_event_paranoid <= 1. Usage: bench/perf-driver.sh [scratch folder, default a temp one]
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$(mktemp -d /tmp/loadscope-perf-XXXX)}
mkdir -p "$DIR/www"
head -c 4096 /dev/zero | tr '\0' x > "$DIR/www/4k.html"; echo ok > "$DIR/www/index.html"
PORT=18383
cat > "$DIR/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $DIR/nginx.pid; error_log stderr error;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000; keepalive_timeout 60s;
  client_body_temp_path $DIR; proxy_temp_path $DIR; fastcgi_temp_path $DIR; uwsgi_temp_path $DIR; scgi_temp_path $DIR;
  server { listen 127.0.0.1:$PORT; root $DIR/www; } }
CONF
taskset -c 1 nginx -c "$DIR/nginx.conf" -p "$DIR" & NGINX=$!
trap 'kill $NGINX 2>/dev/null' EXIT
sleep 0.5
cat > "$DIR/scenario.json" <<JSON
{"name":"perf-driver","servers":[{"label":"nginx","architecture":"external","url":"http://127.0.0.1:$PORT"}],"phases":[{"name":"open","executor":"rate","rate":1000,"durationMs":12000,"arrivals":"uniform","requests":[{"path":"/4k.html"}]}]}
JSON
NODE_OPTIONS=--perf-basic-prof taskset -c 0 node "$ROOT/bin/loadscope.js" run "$DIR/scenario.json" --db "$DIR/runs.db" > "$DIR/run.txt" 2>&1 & RUN=$!
sleep 3
perf record -F 1999 -g -p $RUN -o "$DIR/perf.data" -- sleep 8 2> "$DIR/perf.err"
wait $RUN || true
head -4 "$DIR/run.txt"
perf report -i "$DIR/perf.data" --sort pid --stdio --no-children -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -8
MAIN=$RUN
DRIVER=$(perf report -i "$DIR/perf.data" --sort pid --stdio --no-children -g none 2>/dev/null | grep -v '^#' | awk '{print $2}' | cut -d: -f1 | grep -v "^$MAIN$" | grep -E '^[0-9]+$' | head -1)
echo "driver thread: $DRIVER"
perf report -i "$DIR/perf.data" --tid "$DRIVER" --sort dso --stdio --no-children -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -6
perf report -i "$DIR/perf.data" --tid "$DRIVER" --sort sym --stdio --no-children -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -40
