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
  /** Gives a collection a new name: the renamed collection, or undefined when the owner has no such collection. */
  rename(owner: string, id: string, name: string): Promise<Collection | undefined>;
  /** Removes a collection (and counts it off the owner's cap): false when the owner has no such collection. */
  remove(owner: string, id: string): Promise<boolean>;
  /** Takes a (removed) collection's id off every item of the owner's that holds it; the items themselves stay. */
  clearMembers(owner: string, id: string): Promise<void>;
  setMember(owner: string, collectionId: string, mediaId: string, member: boolean): Promise<'done' | 'no-collection' | 'no-media'>;
}
