#!/usr/bin/env bash
# A Relay app against schema.graphql and a fresh gateway: relay-compiler (pinned, installed in a scratch directory so
# the project's own dependencies stay as they are) compiles test/relay/documents.ts, the TypeScript compiler checks
# test/relay/app.ts against the generated types, and the app runs its operations through relay-runtime's store against
# a gateway started on a new embedded database with demo data (see test/relay/app.ts for what it checks).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
gateway=""
cleanup() { [ -n "$gateway" ] && kill "$gateway" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cp "$root/test/relay/documents.ts" "$root/test/relay/app.ts" "$work/"
cd "$work"
npm init -y >/dev/null && npm pkg set type=module
npm install --no-audit --no-fund --loglevel=error relay-compiler@21.0.1 relay-runtime@21.0.1 @types/relay-runtime@20.1.1 \
  graphql-ws@6.4.2 ws@8 @types/ws@8 @types/node@20 >/dev/null 2>&1
cat > relay.config.json <<JSON
{ "src": "./", "schema": "$root/schema.graphql", "language": "typescript", "artifactDirectory": "./__generated__",
  "eagerEsModules": true, "excludes": ["**/node_modules/**", "**/__generated__/**"] }
JSON
mkdir __generated__
npx relay-compiler
cat > tsconfig.json <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler", "target": "es2022",
  "allowImportingTsExtensions": true, "skipLibCheck": true, "types": ["node"] }, "files": ["app.ts"] }
JSON
"$root/node_modules/.bin/tsc" -p tsconfig.json

log="$work/gateway.log"
(cd "$root" && GATEWAY_DATA_DIR="$work/data" PORT=0 HOST=127.0.0.1 LOG_LEVEL=warn exec node --import tsx src/main.ts) >"$log" 2>&1 &
gateway=$!
for _ in $(seq 1 120); do
  port="$(sed -n 's#.*REST: *http://[^:]*:\([0-9]*\)/api/.*#\1#p' "$log" | head -1)"
  [ -n "$port" ] && break
  kill -0 "$gateway" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 1
done
[ -n "${port:-}" ] || { echo "relay: the gateway printed no address" >&2; cat "$log" >&2; exit 1; }
GATEWAY_URL="http://127.0.0.1:$port" "$root/node_modules/.bin/tsx" app.ts
