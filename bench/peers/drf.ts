import { spawn } from "node:child_process";
import { type PeerServer, startExternalServer } from "./external-server.ts";

/** The Django REST Framework peer: the project in bench/peers/drf/ under gunicorn, one gthread worker. */
const PROJECT = new URL("./drf/", import.meta.url).pathname;
const PROBE = "import django, rest_framework, psycopg2, gunicorn; print(f'Django {django.get_version()}, DRF {rest_framework.VERSION}, gunicorn {gunicorn.__version__}')";

/** The versions of Django, DRF and gunicorn that `python` imports, or why it cannot. */
export function probeDjango(python: string): Promise<{ versions: string } | { unavailable: string }> {
  return new Promise((resolve) => {
    const probe = spawn(python, ["-c", PROBE], { stdio: ["ignore", "pipe", "pipe"] });
    let [out, err] = ["", ""];
    probe.stdout.on("data", (chunk) => (out += chunk));
    probe.stderr.on("data", (chunk) => (err += chunk));
    probe.once("error", (error) => resolve({ unavailable: `${python}: ${error.message}` }));
    probe.once("close", (status) =>
      resolve(status === 0 ? { versions: out.trim() } : { unavailable: `${python} cannot import Django, DRF, psycopg2 and gunicorn (${err.trim().split("\n").at(-1)}); apt-get install python3-django python3-djangorestframework python3-psycopg2 gunicorn` }),
    );
  });
}

export type DrfAuth = "token" | "none";

/**
 * One worker with `threads` threads (each its own database connection, kept), as the other peers have one pool of
 * that size; `auth` "token": each request's token looked up as DRF's TokenAuthentication does (by its digest here).
 */
export function startDrf(python: string, databaseUrl: string, options: { threads: number; auth: DrfAuth }, pinTo?: { taskset: string; cpu: number }): Promise<PeerServer> {
  return startExternalServer({
    name: "drf",
    command: python,
    args: ["-m", "gunicorn", "--bind", "127.0.0.1:0", "--workers", "1", "--worker-class", "gthread", "--threads", String(options.threads), "--keep-alive", "60", "--graceful-timeout", "5", "wsgi:application"],
    cwd: PROJECT,
    env: { DATABASE_URL: databaseUrl, DRF_AUTH: options.auth, DJANGO_SETTINGS_MODULE: "settings", PYTHONDONTWRITEBYTECODE: "1" },
    listening: /Listening at: http:\/\/127\.0\.0\.1:(\d+)/,
    pinTo,
  });
}
