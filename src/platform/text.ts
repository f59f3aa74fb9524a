import sanitizeHtml from "sanitize-html";
import { fieldError } from "./errors.ts";

/** Keeps safe markup such as <p> and <a href>; drops <script>, event-handler attributes and javascript: links. */
export const sanitizeComment = (html: string) =>
  sanitizeHtml(html, { allowedTags: sanitizeHtml.defaults.allowedTags, allowedSchemes: ["http", "https", "mailto"] });

/** An http(s) URL of at most `max` characters, or "" (DRF URLField with blank allowed). */
export function validUrl(field: string, value: string, max = 200): string {
  const trimmed = value.trim();
  if (trimmed === "") return "";
  if (trimmed.length > max) throw fieldError(field, `Ensure this field has no more than ${max} characters.`);
  let parsed: URL | undefined;
  try {
    parsed = new URL(trimmed);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !["http:", "https:", "ftp:", "ftps:"].includes(parsed.protocol)) {
    throw fieldError(field, "Enter a valid URL.");
  }
  return trimmed;
}

export function maxLength(field: string, value: string, max: number): string {
  if (value.length > max) throw fieldError(field, `Ensure this field has no more than ${max} characters.`);
  return value;
}
