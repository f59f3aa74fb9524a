import { readFileSync } from "node:fs";
import { builder } from "./builder.ts";

const PACKAGE = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };

export const APP_VERSION = PACKAGE.version;

builder.queryFields((t) => ({
  version: t.string({ description: "The gateway's release (package.json version); needs no authentication", resolve: () => APP_VERSION }),
}));
