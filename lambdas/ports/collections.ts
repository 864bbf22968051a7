/** A named collection of a user's results. Membership is kept on the media item, so deleting the item leaves none. */
export interface Collection {
  id: string;
  owner: string;
  name: string;
  createdAt: string;
}

export interface CollectionIndex {
  /** The owner's collections, oldest first. */
  list(owner: string): Promise<Collection[]>;
  get(owner: string, id: string): Promise<Collection | undefined>;
  /** Stores a new collection unless the owner has `max` already: false then, and nothing is written. */
  create(collection: Collection, max: number): Promise<boolean>;
  /**
   * Puts a media item in a collection or takes it out. 'no-collection' or 'no-media' when the one or the other does
   * not exist (then nothing changes); adding twice or removing what is not there is no change.
   */
  setMember(owner: string, collectionId: string, mediaId: string, member: boolean): Promise<'done' | 'no-collection' | 'no-media'>;
}
