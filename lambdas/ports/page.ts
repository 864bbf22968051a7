/** One page of a list, newest first. The cursor is opaque: made by the adapter, handed back as is. */
export interface Page<T> {
  items: T[];
  /** Present when more may follow: pass it back to get the next page. */
  nextCursor?: string;
}
