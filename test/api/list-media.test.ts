import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { mediaRecord } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import { json } from '../support/generation';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

interface Page {
  items: Array<{ id: string; type: string; prompt: string; createdAt: string }>;
  nextCursor?: string;
}

/** Stores media items as a finished job does: `kinds[0]` is the oldest. */
async function seed(user: TestUser, kinds: Array<'image' | 'video'>) {
  const start = Date.now() - kinds.length * 1000;
  for (const [i, kind] of kinds.entries()) {
    const at = new Date(start + i * 1000);
    const id = newId(at);
    const key = `users/${user.sub}/${kind === 'image' ? 'images' : 'videos'}/${at.getTime()}.${kind === 'image' ? 'png' : 'mp4'}`;
    await dynamo().send(
      new PutCommand({
        TableName: stackEnv().TABLE_NAME,
        Item: mediaRecord({ id, owner: user.sub, type: kind, key, prompt: `${kind} ${i}`, model: 'm', options: {}, createdAt: at.toISOString() }),
      }),
    );
  }
}

async function allPages(user: TestUser, query: string): Promise<Page['items'][]> {
  const pages: Page['items'][] = [];
  let cursor: string | undefined;
  do {
    const page = await json<Page>(api(user, `/api/media?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('GET /api/media', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
    // Newest first this reads: 3 videos, then 4 images, then 3 videos, then 1 image.
    await seed(user, ['image', 'video', 'video', 'video', 'image', 'image', 'image', 'image', 'video', 'video', 'video']);
  });

  it('pages newest first through everything', async () => {
    const pages = await allPages(user, 'limit=4');
    expect(pages.map((p) => p.length)).toEqual([4, 4, 3]);
    const prompts = pages.flat().map((i) => i.prompt);
    expect(prompts).toEqual(['video 10', 'video 9', 'video 8', 'image 7', 'image 6', 'image 5', 'image 4', 'video 3', 'video 2', 'video 1', 'image 0']);
  });

  it('fills every page of one kind, even when the newest items are of the other kind', async () => {
    const images = await allPages(user, 'type=image&limit=2');
    expect(images.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(images.flat().map((i) => i.prompt)).toEqual(['image 7', 'image 6', 'image 5', 'image 4', 'image 0']);
    const videos = await allPages(user, 'type=video&limit=4');
    expect(videos.map((p) => p.length)).toEqual([4, 2]);
    expect(videos.flat().every((i) => i.type === 'video')).toBe(true);
  });

  it('refuses a bad kind or limit with 400', async () => {
    expect((await api(user, '/api/media?type=gif')).status).toBe(400);
    expect((await api(user, '/api/media?limit=0')).status).toBe(400);
  });

  it('searches prompts by words: every word, any case and order, a page filled across reads', async () => {
    const prompts = (pages: Page['items'][]) => pages.flat().map((i) => i.prompt);
    expect(prompts(await allPages(user, 'q=IMAGE'))).toEqual(['image 7', 'image 6', 'image 5', 'image 4', 'image 0']);
    expect(prompts(await allPages(user, 'q=7%20image&limit=2'))).toEqual(['image 7']);
    expect(prompts(await allPages(user, `q=${encodeURIComponent('  video   ')}&type=video&limit=2`))).toEqual(['video 10', 'video 9', 'video 8', 'video 3', 'video 2', 'video 1']);
    expect(prompts(await allPages(user, 'q=lighthouse'))).toEqual([]);
  });

  it('refuses a search over 100 characters with 400 and says why', async () => {
    const res = await api(user, `/api/media?q=${'a'.repeat(101)}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('Search is too long. Keep it under 100 characters.');
  });
});
