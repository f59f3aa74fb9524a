import { existsSync, mkdirSync } from "node:fs";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). A machine without it skips the browser tests. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
const SKIPPED = `skipped: ${CHROMIUM} is not installed (apt-get install chromium)`;

/** A browser suite's title, saying (and warning once) why it is skipped on a machine without Chromium. */
export function browserSuiteTitle(title: string, file: string): string {
  if (hasChromium) return title;
  console.warn(`${file} ${SKIPPED}`);
  return `${title} (${SKIPPED})`;
}

/** Lets the context's requests through when `allowed`, aborts the others and records them in `foreign`. */
export function blockForeignRequests(context: BrowserContext, allowed: (url: URL) => boolean, foreign: string[]) {
  return context.route("**/*", (route) => {
    const url = route.request().url();
    if (allowed(new URL(url))) return route.continue();
    foreign.push(url);
    return route.abort("blockedbyclient");
  });
}

/** Reports Content-Security-Policy violations of every page of `target` as console errors. */
export const reportCspViolations = (target: BrowserContext | Page) =>
  target.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
  );

/** Collects the page's uncaught exceptions and console errors into `errors` (console ones after `label`, if given). */
export function collectPageErrors(page: Page, errors: string[], label?: string) {
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => void (message.type() === "error" && errors.push(label ? `${label}: ${message.text()}` : message.text())));
}

const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url);

/** Saves a screenshot as test-artifacts/<name>.png. */
export function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, ...options });
}

/**
 * A page in a context of its own that lets only `allowed` URLs through (the rest recorded in `foreign`), reports its
 * errors and Content-Security-Policy violations into `pageErrors`, and waits up to `timeoutMs` for elements.
 */
export async function watchedPage(
  browser: Browser,
  allowed: (url: URL) => boolean,
  { foreign, pageErrors, timeoutMs = 10_000, ...options }: BrowserContextOptions & { foreign: string[]; pageErrors: string[]; timeoutMs?: number },
): Promise<Page> {
  const context = await browser.newContext(options);
  await blockForeignRequests(context, allowed, foreign);
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  collectPageErrors(page, pageErrors);
  await reportCspViolations(page);
  return page;
}
