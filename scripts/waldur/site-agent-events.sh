#!/usr/bin/env bash
# Run Waldur's unmodified site agent (waldur/waldur-site-agent, event_process mode) with Debian's Python only.
#
#   site-agent-events.sh prepare <workdir>
#   site-agent-events.sh run <workdir> --api-url URL --token TOKEN --offering-uuid UUID \
#       --stomp-host H --stomp-port P [--stomp-path /rmqws-stomp] [--timeout SECONDS] [--offering-name NAME]
#   site-agent-events.sh stop <workdir>
#   site-agent-events.sh env <workdir>      # prints the PYTHONPATH line, for running python3 by hand
#
# See scripts/waldur/README.md, "Run the site agent in event_process mode".
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FILES="$HERE/site-agent-events"
PY=/usr/bin/python3
AGENT_MIRROR="${AGENT_MIRROR:-/work/.mirror/waldur+waldur-site-agent/repo}"
CLIENT_MIRROR="${CLIENT_MIRROR:-/work/.mirror/waldur+py-client/repo}"
AGENT_REV="${AGENT_REV:-HEAD}"
CLIENT_REV="${CLIENT_REV:-HEAD}"
APT_PACKAGES=(python3-httpx python3-attr python3-dateutil python3-pydantic python3-structlog python3-yaml
  python3-stomp python3-websocket python3-typing-extensions python3-urllib3)

die() { echo "site-agent-events: $*" >&2; exit 1; }
usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

pythonpath() {
  local wd="$1"
  echo "$wd/site:$wd/src/agent:$wd/src/agent/plugins/basic_username_management:$wd/src/py-client"
}

# A minimal .dist-info so importlib.metadata finds the distribution's version and entry points, as pip would
# leave them. dist_info <site> <name> <version> [entry_points.txt text]
dist_info() {
  local site="$1" name="$2" version="$3" entry_points="${4:-}"
  local dir="$site/${name//-/_}-$version.dist-info"
  mkdir -p "$dir"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$name" "$version" > "$dir/METADATA"
  echo "site-agent-events.sh" > "$dir/INSTALLER"
  : > "$dir/RECORD"
  if [ -n "$entry_points" ]; then printf '%s\n' "$entry_points" > "$dir/entry_points.txt"; fi
}

pyproject_version() {
  "$PY" -c 'import sys, tomllib; d = tomllib.load(open(sys.argv[1], "rb"))
print((d.get("project") or d["tool"]["poetry"])["version"])' "$1"
}

cmd_prepare() {
  local wd="${1:-}"; [ -n "$wd" ] || usage
  mkdir -p "$wd"; wd="$(cd "$wd" && pwd)"

  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi

  rm -rf "$wd/src" "$wd/site"
  mkdir -p "$wd/src/agent" "$wd/src/py-client" "$wd/site"
  git -C "$AGENT_MIRROR" archive "$AGENT_REV" | tar x -C "$wd/src/agent"
  git -C "$CLIENT_MIRROR" archive "$CLIENT_REV" | tar x -C "$wd/src/py-client"

  # stomp: Debian's stomp.py 8.0.0 plus the WSStompConnection overlay (site-agent-events.md, Appendix A).
  cp -r /usr/lib/python3/dist-packages/stomp "$wd/site/stomp"
  rm -rf "$wd/site/stomp/__pycache__"
  cp "$FILES/stomp_ws.py" "$wd/site/stomp/ws.py"
  printf '\nfrom stomp.ws import WSStompConnection, WSTransport\n' >> "$wd/site/stomp/__init__.py"

  # pydantic 2 facade over Debian's pydantic 1.10, and the harness plugins (mock backend entry point, usernames).
  cp -r "$FILES/pydantic" "$wd/site/pydantic"
  cp -r "$FILES/waldur_site_agent_harness" "$wd/site/waldur_site_agent_harness"

  local agent_version client_version plugin_version
  agent_version="$(pyproject_version "$wd/src/agent/pyproject.toml")"
  client_version="$(pyproject_version "$wd/src/py-client/pyproject.toml")"
  plugin_version="$(pyproject_version "$wd/src/agent/plugins/basic_username_management/pyproject.toml")"
  dist_info "$wd/site" waldur-site-agent "$agent_version" "[console_scripts]
waldur_site_agent = waldur_site_agent.main:main"
  dist_info "$wd/site" waldur-api-client "$client_version"
  dist_info "$wd/site" waldur-site-agent-basic-username-management "$plugin_version" \
    "[waldur_site_agent.username_management_backends]
base = waldur_site_agent_basic_username_management.backend:BaseUsernameManagementBackend"
  dist_info "$wd/site" waldur-site-agent-harness 0.1 "[waldur_site_agent.backends]
mock = waldur_site_agent.testing.mock_backend:MockBackend

[waldur_site_agent.username_management_backends]
harness = waldur_site_agent_harness:HarnessUsernameBackend"

  # Check that the whole agent imports and sees its plugins.
  PYTHONPATH="$(pythonpath "$wd")" "$PY" - <<'EOF'
import stomp
stomp.WSStompConnection
import waldur_api_client
from waldur_site_agent.common import utils
from waldur_site_agent.event_processing import main  # noqa: F401
from waldur_site_agent.common import WALDUR_SITE_AGENT_VERSION
print(f"waldur-site-agent {WALDUR_SITE_AGENT_VERSION}; backends {sorted(utils.BACKENDS)}; "
      f"username backends {sorted(utils.USERNAME_BACKENDS)}; stomp.WSStompConnection ok")
EOF
  echo "prepared $wd"
}

cmd_run() {
  local wd="${1:-}"; [ -n "$wd" ] || usage; shift
  [ -d "$wd/site" ] || die "$wd is not prepared (run: $0 prepare $wd)"
  wd="$(cd "$wd" && pwd)"
  local api_url="" token="" offering="" stomp_host="" stomp_port="" stomp_path="/rmqws-stomp" timeout_s=600
  local name="Marketplace Gateway offering"
  while [ $# -gt 0 ]; do
    case "$1" in
      --api-url) api_url="$2"; shift 2 ;;
      --token) token="$2"; shift 2 ;;
      --offering-uuid) offering="$2"; shift 2 ;;
      --offering-name) name="$2"; shift 2 ;;
      --stomp-host) stomp_host="$2"; shift 2 ;;
      --stomp-port) stomp_port="$2"; shift 2 ;;
      --stomp-path) stomp_path="$2"; shift 2 ;;
      --timeout) timeout_s="$2"; shift 2 ;;
      *) die "unknown option $1" ;;
    esac
  done
  [ -n "$api_url" ] && [ -n "$token" ] && [ -n "$offering" ] && [ -n "$stomp_host" ] && [ -n "$stomp_port" ] || usage
  if [ -f "$wd/agent.pid" ] && kill -0 "$(cat "$wd/agent.pid")" 2>/dev/null; then
    die "an agent is already running (PID $(cat "$wd/agent.pid")); run: $0 stop $wd"
  fi
  # The agent strips the characters "/api" from the end of waldur_api_url to get the server root, so give it
  # the .../api/ form. Queue names use the offering UUID verbatim: lowercase it (site-agent-events.md §7).
  api_url="${api_url%/}"; case "$api_url" in */api) ;; *) api_url="$api_url/api" ;; esac
  offering="$(echo "$offering" | tr 'A-F' 'a-f')"

  API_URL="$api_url/" TOKEN="$token" OFFERING="$offering" NAME="$name" STOMP_HOST="$stomp_host" \
  STOMP_PORT="$stomp_port" STOMP_PATH="$stomp_path" "$PY" - > "$wd/config.yaml" <<'EOF'
import os, yaml
offering = {
    "name": os.environ["NAME"],
    "waldur_api_url": os.environ["API_URL"],
    "waldur_api_token": os.environ["TOKEN"],
    "waldur_offering_uuid": os.environ["OFFERING"],
    "backend_type": "mock",
    "order_processing_backend": "mock",
    "membership_sync_backend": "mock",
    "username_management_backend": "harness",
    "backend_settings": {},
    "backend_components": {},
    "stomp_enabled": True,
    "stomp_ws_host": os.environ["STOMP_HOST"],
    "stomp_ws_port": int(os.environ["STOMP_PORT"]),
    "stomp_ws_path": os.environ["STOMP_PATH"],
    "websocket_use_tls": False,
    "verify_ssl": False,
}
print(yaml.safe_dump({"timezone": "UTC", "offerings": [offering]}, sort_keys=False), end="")
EOF

  : > "$wd/agent.log"
  (
    cd "$wd"
    export PYTHONPATH; PYTHONPATH="$(pythonpath "$wd")"
    export PYTHONUNBUFFERED=1 WALDUR_VERIFY_SSL=false
    exec timeout --signal=TERM --kill-after=10 "$timeout_s" \
      "$PY" -m waldur_site_agent.main -m event_process -c "$wd/config.yaml"
  ) >> "$wd/agent.log" 2>&1 < /dev/null &
  local pid=$!
  echo "$pid" > "$wd/agent.pid"
  echo "$pid"
}

cmd_stop() {
  local wd="${1:-}"; [ -n "$wd" ] || usage
  [ -f "$wd/agent.pid" ] || { echo "no agent.pid in $wd"; return 0; }
  local pid; pid="$(cat "$wd/agent.pid")"
  # $pid is the `timeout` process; TERM makes it pass the signal on to the agent and exit.
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      pkill -KILL -P "$pid" 2>/dev/null || true
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "stopped $pid"
  else
    echo "agent $pid is not running"
  fi
  rm -f "$wd/agent.pid"
}

case "${1:-}" in
  prepare) shift; cmd_prepare "$@" ;;
  run) shift; cmd_run "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  env) shift; [ -n "${1:-}" ] || usage; echo "PYTHONPATH=$(pythonpath "$(cd "$1" && pwd)")" ;;
  *) usage ;;
esac
