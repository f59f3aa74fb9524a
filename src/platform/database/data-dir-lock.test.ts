import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { lockDataDir } from "./data-dir-lock.ts";

const root = mkdtempSync(path.join(tmpdir(), "gateway-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("refuses a data directory that a live process holds, and releases it", () => {
  const dir = path.join(root, "a");
  const release = lockDataDir(dir);
  expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"]);
  try {
    release();
    writeFileSync(`${dir}.lock`, String(sleeper.pid));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${sleeper.pid}`);
  } finally {
    sleeper.kill();
  }
});

it("takes over the lock of a process that died", () => {
  const dir = path.join(root, "b");
  writeFileSync(`${dir}.lock`, "999999999");
  const release = lockDataDir(dir);
  expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  release();
});
