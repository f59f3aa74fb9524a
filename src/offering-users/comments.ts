import type { OfferingUserCore } from "./changes.ts";
import type { OfferingUserEffect } from "./transitions.ts";
import { sanitizeComment, validUrl } from "../platform/text.ts";

/** The comment a hosting site may send with a transition (Waldur's `comment`, `comment_url`). */
export interface CommentInput {
  comment?: string | null;
  commentUrl?: string | null;
}

/** What a transition writes of the comment fields: its own, none, or both cleared (the rule's effect). */
export function commentData(effect: OfferingUserEffect | undefined, input: CommentInput) {
  if (effect?.clearsComments) return { serviceProviderComment: "", serviceProviderCommentUrl: "" };
  if (!effect?.storesComment) return {};
  return {
    ...(input.comment != null ? { serviceProviderComment: sanitizeComment(input.comment) } : {}),
    ...(input.commentUrl != null ? { serviceProviderCommentUrl: validUrl("commentUrl", input.commentUrl) } : {}),
  };
}

/** The event context of the comment fields that `data` changes (Waldur's `changed_fields` and new values). */
export function changedComments(
  ou: OfferingUserCore,
  data: { serviceProviderComment?: string; serviceProviderCommentUrl?: string },
): Record<string, unknown> {
  const changed = (["serviceProviderComment", "serviceProviderCommentUrl"] as const).filter(
    (key) => data[key] !== undefined && data[key] !== ou[key],
  );
  if (!changed.length) return {};
  return {
    changed_fields: changed.map((k) => (k === "serviceProviderComment" ? "service_provider_comment" : "service_provider_comment_url")),
    new_service_provider_comment: data.serviceProviderComment ?? ou.serviceProviderComment,
    new_service_provider_comment_url: data.serviceProviderCommentUrl ?? ou.serviceProviderCommentUrl,
  };
}
