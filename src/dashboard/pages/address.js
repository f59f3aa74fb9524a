/** Filters kept in the page's address (its query string): a reload, a bookmark or a shared link shows the same view. */

/** The values of `defaults`' keys as the address has them, else the defaults. */
export function readAddress(defaults) {
  const params = new URLSearchParams(location.search);
  return Object.fromEntries(Object.entries(defaults).map(([key, fallback]) => [key, params.get(key) ?? fallback]));
}

/** Writes `values` into the address (a default or empty value leaves it out) without adding a history entry. */
export function writeAddress(values, defaults) {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value === "" || value === defaults[key]) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}
