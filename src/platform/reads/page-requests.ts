/** Which page of a list a caller asks for: by position, or after (or before) a row's cursor. */

/** Something read only when a client asks for it. */
export type Deferred<T> = () => T | Promise<T>;

/**
 * A page by position: `size` rows from the `offset`-th (REST's `page`/`page_size`, GraphQL's `offset`). A row inserted
 * or deleted before it while a client pages moves every later row: the next page repeats or skips one.
 */
export interface OffsetPage {
  offset: number;
  size: number;
  /** The list's arguments besides its order and paging (its filter…): its cursors belong to them. */
  scope: string;
}

/**
 * A page by keyset: `size` rows after the cursor `after` (from the start without one), or `backward`, the `size` rows
 * before `before` (from the end without one), within the other cursor when both are given. A cursor holds its row's
 * sort key, so the page resumes after that row wherever rows were inserted or deleted, even that row itself.
 */
export interface KeysetPage {
  size: number;
  backward: boolean;
  after?: string;
  before?: string;
  scope: string;
  /** false: the client reads no cursor, so the rows' keys are not read with them (a cursor asked for all the same is read by id). */
  cursors?: false;
}

export type Page = OffsetPage | KeysetPage;

export const isOffsetPage = (page: Page): page is OffsetPage => "offset" in page;
