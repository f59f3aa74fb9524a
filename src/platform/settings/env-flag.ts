/** An environment switch: 1, true, yes or on (any case, spaces around ignored) is on; unset or blank is `fallback`; anything else is off. */
export function envFlag(value: string | undefined, fallback = false): boolean {
  const raw = value?.trim();
  if (!raw) return fallback;
  return /^(1|true|yes|on)$/i.test(raw);
}
