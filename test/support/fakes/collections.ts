import type { Collection, CollectionIndex } from '../../../lambdas/ports/collections';
import type { MemoryMedia } from './jobs';

/** Collections in memory; memberships live on the media fake's items, so deleting an item takes them along. */
export class MemoryCollections implements CollectionIndex {
  readonly collections = new Map<string, Collection>();

  constructor(private readonly media: MemoryMedia) {}

  async list(owner: string) {
    return [...this.collections.values()].filter((c) => c.owner === owner).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async get(owner: string, id: string) {
    const c = this.collections.get(id);
    return c?.owner === owner ? { ...c } : undefined;
  }

  async create(c: Collection, max: number) {
    if ((await this.list(c.owner)).length >= max) return false;
    this.collections.set(c.id, { ...c });
    return true;
  }

  async rename(owner: string, id: string, name: string) {
    const c = this.collections.get(id);
    if (c?.owner !== owner) return undefined;
    c.name = name;
    return { ...c };
  }

  async remove(owner: string, id: string) {
    if (!(await this.get(owner, id))) return false;
    this.collections.delete(id);
    return true;
  }

  async clearMembers(owner: string, id: string) {
    for (const [mediaId, set] of this.media.memberships) if (set.has(id) && (await this.media.get(owner, mediaId))) set.delete(id);
  }

  async setMember(owner: string, collectionId: string, mediaId: string, member: boolean) {
    if (!(await this.get(owner, collectionId))) return 'no-collection' as const;
    if (!(await this.media.get(owner, mediaId))) return 'no-media' as const;
    const set = this.media.memberships.get(mediaId) ?? new Set<string>();
    if (member) set.add(collectionId);
    else set.delete(collectionId);
    this.media.memberships.set(mediaId, set);
    return 'done' as const;
  }
}
