/** Elements built from data, never from HTML strings: nothing the API returns can become markup. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name in element && name !== "list") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

export const byId = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element;
};

export const replaceChildren = (element, ...children) =>
  element.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));

/** OFFERING_USER_STATE → "offering user state". */
export const humanize = (constant) => (constant ? constant.toLowerCase().replaceAll("_", " ") : "");

/** Calls `run` at most once per `ms`, after the last call of a burst. */
export function debounce(run, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}
