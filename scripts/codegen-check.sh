#!/usr/bin/env bash
# A frontend's view of schema.graphql: graphql-codegen's client preset types test/codegen/operations.ts (Relay ids, typed
# failures, enums, resumable subscriptions) and the TypeScript compiler checks the code that uses them. Codegen is
# installed in a scratch directory, pinned, so the project's own dependencies stay as they are.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$root/test/codegen/operations.ts" "$work/"
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error @graphql-codegen/cli@7.4.3 @graphql-codegen/client-preset@6.2.0 graphql@16 >/dev/null 2>&1
cat > codegen.json <<JSON
{ "schema": "$root/schema.graphql", "documents": ["operations.ts"], "ignoreNoDocuments": false,
  "generates": { "./gql/": { "preset": "client", "config": { "enumsAsTypes": true } } } }
JSON
npx graphql-codegen --config codegen.json --silent
cat > tsconfig.json <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler", "target": "es2022", "skipLibCheck": true },
  "files": ["operations.ts"] }
JSON
"$root/node_modules/.bin/tsc" -p tsconfig.json
echo "codegen: the client preset types test/codegen/operations.ts against schema.graphql"
