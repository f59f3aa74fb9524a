import { h } from "./dom.js";

/** Times as people read them at a glance ("5 min ago", "3 h"), with the exact instant and its time zone on hover. */

const EXACT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "long" });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto", style: "short" });

const UNITS = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
];

export const exactTime = (iso) => (iso ? EXACT.format(new Date(iso)) : "");

/** "3 min ago" (or "in 3 min"), in the largest unit that has at least one. */
export function relativeTime(iso, now = Date.now()) {
  const ms = new Date(iso).getTime() - now;
  const [unit, size] = UNITS.find(([, size]) => Math.abs(ms) >= size) ?? UNITS[UNITS.length - 1];
  return RELATIVE.format(Math.trunc(ms / size), unit);
}

const SHORT = { day: "d", hour: "h", minute: "min", second: "s" };

/** "3 h 5 min": how long since `iso`, in its two largest units. */
export function durationSince(iso, now = Date.now()) {
  let left = Math.max(0, now - new Date(iso).getTime());
  const parts = UNITS.map(([unit, size]) => {
    const whole = Math.floor(left / size);
    left -= whole * size;
    return [whole, SHORT[unit]];
  });
  const first = parts.findIndex(([whole]) => whole > 0);
  if (first === -1) return "0 s";
  return parts.slice(first, first + 2).filter(([whole]) => whole > 0).map(([whole, unit]) => `${whole} ${unit}`).join(" ");
}

/** A `<time>` showing `iso` relatively ("ago") or as a duration, kept current by `refreshTimes`. */
export const timeElement = (iso, { as = "relative", prefix = "" } = {}) =>
  iso
    ? h("time", { dateTime: iso, title: exactTime(iso), dataset: { as, prefix } }, prefix + (as === "duration" ? durationSince(iso) : relativeTime(iso)))
    : h("span", {}, "—");

/** Brings every `<time>` made by timeElement up to date; called every few seconds. */
export function refreshTimes(root = document) {
  const now = Date.now();
  for (const element of root.querySelectorAll("time[data-as]")) {
    const { as, prefix } = element.dataset;
    element.textContent = prefix + (as === "duration" ? durationSince(element.dateTime, now) : relativeTime(element.dateTime, now));
  }
}
