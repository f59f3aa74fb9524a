#!/usr/bin/env bash
# A private RabbitMQ node for tests (docs: ../shared/reference/site-agent-events.md, Appendix B), separate from the
# machine's shared node (rabbit@localhost on :5672), which this script never addresses.
#
#   scripts/rabbitmq-node.sh start <dir>   start a node whose data, logs and config live in <dir> (new or empty);
#                                           waits for its listeners and prints the TEST_RABBITMQ_* lines to export
#   scripts/rabbitmq-node.sh stop <dir>    stop that node (rabbitmqctl stop, else kill) and remove <dir>
#
# Plugins: rabbitmq_management, rabbitmq_stomp, rabbitmq_web_stomp. Every listener is on 127.0.0.1; admin is guest/guest.
# Statistics (queue `messages` in the management API) are emitted every 500 ms instead of 5 s, for tests that poll them.
# Overrides (environment): RMQ_NODENAME (ci@localhost), RMQ_AMQP_PORT (5673), RMQ_MANAGEMENT_PORT (15673),
# RMQ_STOMP_PORT (61614), RMQ_WEB_STOMP_PORT (15675), RMQ_WEB_STOMP_PATH (/rmqws-stomp), RMQ_DIST_PORT (25673),
# RMQ_START_TIMEOUT (60 seconds).
# Runs the node as the rabbitmq user (runuser), so it needs root. Only the env lines go to stdout; progress goes to
# stderr, so `out=$(scripts/rabbitmq-node.sh start "$dir")` captures just them.
set -euo pipefail

RMQ_BIN=/usr/lib/rabbitmq/bin
SHARED_NODE=rabbit@localhost
SHARED_PORTS=" 5672 15672 61613 15674 25672 4369 "

usage() { echo "usage: $0 start|stop <dir>" >&2; exit 2; }
die() { echo "rabbitmq-node: $*" >&2; exit 1; }
say() { echo "rabbitmq-node: $*" >&2; }

[ $# -eq 2 ] || usage
command="$1"
dir="$2"
case "$command" in start | stop) ;; *) usage ;; esac
[ -n "$dir" ] || usage
[ "$(id -u)" -eq 0 ] || die "needs root: the node runs as the rabbitmq user through runuser (run it with sudo)"
[ -x "$RMQ_BIN/rabbitmq-server" ] || die "rabbitmq-server is not installed ($RMQ_BIN/rabbitmq-server is missing; apt-get install rabbitmq-server)"
id rabbitmq >/dev/null 2>&1 || die "there is no rabbitmq user (is the rabbitmq-server package installed?)"
dir="$(realpath -m -- "$dir")"
case "$dir" in / | /tmp | /var | /var/lib/rabbitmq | /var/lib/rabbitmq/* | /etc | /etc/*) die "refusing to use $dir" ;; esac

# The CLI and the node share the shared node's Erlang cookie (HOME=/var/lib/rabbitmq), and they read our empty
# rabbitmq-env.conf instead of /etc/rabbitmq/rabbitmq-env.conf (which names rabbit@localhost).
as_rabbitmq() {
  runuser -u rabbitmq -- env HOME=/var/lib/rabbitmq RABBITMQ_NODENAME="$node" RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf" "$@"
}

accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if [ "$command" = start ]; then
  node="${RMQ_NODENAME:-ci@localhost}"
  amqp_port="${RMQ_AMQP_PORT:-5673}"
  management_port="${RMQ_MANAGEMENT_PORT:-15673}"
  stomp_port="${RMQ_STOMP_PORT:-61614}"
  web_stomp_port="${RMQ_WEB_STOMP_PORT:-15675}"
  web_stomp_path="${RMQ_WEB_STOMP_PATH:-/rmqws-stomp}"
  dist_port="${RMQ_DIST_PORT:-25673}"
  timeout="${RMQ_START_TIMEOUT:-60}"

  case "$node" in *@*) ;; *) node="$node@localhost" ;; esac
  [ "$node" != "$SHARED_NODE" ] || die "refusing to run as $SHARED_NODE: that is the machine's shared node"
  for port in "$amqp_port" "$management_port" "$stomp_port" "$web_stomp_port" "$dist_port"; do
    case "$port" in '' | *[!0-9]*) die "not a port: '$port'" ;; esac
    case "$SHARED_PORTS" in *" $port "*) die "refusing port $port: the shared node (or epmd) uses it" ;; esac
    ! accepts "$port" || die "port $port on 127.0.0.1 is in use (another private node? set RMQ_*_PORT)"
  done
  if [ -e "$dir" ] && [ -n "$(ls -A -- "$dir")" ]; then die "$dir exists and is not empty"; fi
  if epmd_names="$(epmd -names 2>/dev/null)" && grep -q "^name ${node%@*} " <<<"$epmd_names"; then
    die "a node named $node is already running (set RMQ_NODENAME)"
  fi

  mkdir -p "$dir/mnesia" "$dir/log"
  : >"$dir/rabbitmq-env.conf"
  echo '[rabbitmq_management,rabbitmq_stomp,rabbitmq_web_stomp].' >"$dir/enabled_plugins"
  cat >"$dir/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$amqp_port
management.tcp.ip = 127.0.0.1
management.tcp.port = $management_port
stomp.listeners.tcp.1 = 127.0.0.1:$stomp_port
web_stomp.tcp.ip = 127.0.0.1
web_stomp.tcp.port = $web_stomp_port
web_stomp.ws_path = $web_stomp_path
collect_statistics_interval = 500
EOF
  # What `stop` needs to find this node again.
  printf 'node=%q\nmanagement_port=%q\n' "$node" "$management_port" >"$dir/node.env"
  chown -R rabbitmq:rabbitmq "$dir"

  say "starting $node in $dir (AMQP $amqp_port, management $management_port, STOMP $stomp_port, web-STOMP $web_stomp_port$web_stomp_path, distribution $dist_port)"
  # setsid: the node outlives this script and is not in the caller's process group; no fd of the caller stays open.
  setsid runuser -u rabbitmq -- env HOME=/var/lib/rabbitmq RABBITMQ_NODENAME="$node" \
    RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf" RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf" \
    RABBITMQ_ADVANCED_CONFIG_FILE="$dir/advanced.config" RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins" \
    RABBITMQ_MNESIA_BASE="$dir/mnesia" RABBITMQ_LOG_BASE="$dir/log" RABBITMQ_PID_FILE="$dir/rabbitmq.pid" \
    RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$amqp_port" RABBITMQ_DIST_PORT="$dist_port" \
    ERL_EPMD_ADDRESS=127.0.0.1 ERL_FLAGS='-kernel inet_dist_use_interface {127,0,0,1}' \
    "$RMQ_BIN/rabbitmq-server" </dev/null >"$dir/server.out" 2>&1 &
  launcher=$!
  echo "$launcher" >"$dir/launcher.pid"

  started=$SECONDS
  until curl -sf -u guest:guest "http://127.0.0.1:$management_port/api/overview" >/dev/null 2>&1 &&
    accepts "$amqp_port" && accepts "$stomp_port" && accepts "$web_stomp_port"; do
    if ! kill -0 "$launcher" 2>/dev/null || [ $((SECONDS - started)) -ge "$timeout" ]; then
      if kill -0 "$launcher" 2>/dev/null; then
        say "$node did not answer within ${timeout}s"
      else
        say "$node exited while starting"
      fi
      for log in "$dir/server.out" "$dir/log/$node.log"; do
        [ -f "$log" ] && { echo "--- tail of $log" >&2; tail -n 40 "$log" >&2; }
      done
      if [ -s "$dir/rabbitmq.pid" ]; then kill "$(cat "$dir/rabbitmq.pid")" 2>/dev/null || true; fi
      kill "$launcher" 2>/dev/null || true
      die "start failed; logs are in $dir (remove it with: $0 stop $dir)"
    fi
    sleep 1
  done
  say "$node is up after $((SECONDS - started))s"
  echo "TEST_RABBITMQ_MANAGEMENT_URL=http://guest:guest@127.0.0.1:$management_port"
  echo "TEST_RABBITMQ_URL=amqp://guest:guest@127.0.0.1:$amqp_port"
  echo "TEST_RABBITMQ_WEB_STOMP_URL=ws://127.0.0.1:$web_stomp_port$web_stomp_path"
  exit 0
fi

# stop
if [ ! -e "$dir" ]; then say "$dir does not exist: nothing to stop"; exit 0; fi
[ -f "$dir/node.env" ] || die "$dir has no node.env: not a directory this script started a node in; leaving it alone"
node=$(sed -n 's/^node=//p' "$dir/node.env")
[ -n "$node" ] && [ "$node" != "$SHARED_NODE" ] || die "$dir/node.env names '$node'; refusing"

pid=""
[ -s "$dir/rabbitmq.pid" ] && pid="$(cat "$dir/rabbitmq.pid")"
alive() { [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

if alive || { epmd_names="$(epmd -names 2>/dev/null)" && grep -q "^name ${node%@*} " <<<"$epmd_names"; }; then
  say "stopping $node"
  # `rabbitmqctl stop <pid file>` returns once the node's OS process is gone.
  if [ -n "$pid" ]; then stop_args=("$dir/rabbitmq.pid"); else stop_args=(); fi
  if ! as_rabbitmq timeout 60 "$RMQ_BIN/rabbitmqctl" -n "$node" stop "${stop_args[@]}" >&2; then
    say "rabbitmqctl stop failed; killing the node"
  fi
fi
if alive; then
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 20); do alive || break; sleep 0.5; done
  if alive; then kill -KILL "$pid" 2>/dev/null || true; fi
fi
if [ -s "$dir/launcher.pid" ]; then
  launcher="$(cat "$dir/launcher.pid")"
  # Only the runuser launcher this script started (its command line names our config file).
  if grep -qF "$dir/rabbitmq.conf" "/proc/$launcher/cmdline" 2>/dev/null; then kill "$launcher" 2>/dev/null || true; fi
fi
rm -rf -- "$dir"
say "$node stopped; $dir removed"
