import { PIXVERSE, WAN_T2V } from '../../contract/catalog';
import { pixverse, sdxl } from '../../contract/models';
import { animateUrl, readReuseParams, reusedOptions, reuseUrl } from '../../web/src/features/generation';

describe('the URLs a result\'s actions open', () => {
  it('an image reuses into /generator, a video into its own model\'s page', () => {
    expect(reuseUrl({ id: 'm-1', type: 'image', model: 'stability-ai/sdxl' }, 'prompt')).toBe('/generator?reuse=m-1&use=prompt');
    expect(reuseUrl({ id: 'm-2', type: 'video', model: PIXVERSE }, 'settings')).toBe('/video-generator/pixverse?reuse=m-2&use=settings');
    expect(reuseUrl({ id: 'm-3', type: 'video', model: WAN_T2V }, 'prompt')).toBe('/video-generator/wan?reuse=m-3&use=prompt');
  });

  it('Animate opens the first video model that takes a start image, with the image by id', () => {
    expect(animateUrl({ id: 'm-1' })).toBe('/video-generator/wan?startMedia=m-1');
  });

  it('reads the parameters back', () => {
    expect(readReuseParams(new URLSearchParams('reuse=m-1&use=settings'))).toEqual({ reuse: { id: 'm-1', use: 'settings' } });
    expect(readReuseParams(new URLSearchParams('reuse=m-1&use=bogus'))).toEqual({ reuse: { id: 'm-1', use: 'prompt' } });
    expect(readReuseParams(new URLSearchParams('startMedia=m-9'))).toEqual({ startMedia: 'm-9' });
    expect(readReuseParams(new URLSearchParams(''))).toEqual({});
  });
});

describe('reusedOptions', () => {
  it('keeps the options the model takes, with values it still offers', () => {
    expect(reusedOptions(sdxl, { aspectRatio: '16:9', seed: 42, count: 2, width: 1344, startImage: true })).toEqual({ aspectRatio: '16:9', seed: 42, count: 2 });
    expect(reusedOptions(sdxl, { aspectRatio: '7:3' })).toEqual({});
    expect(reusedOptions(pixverse, { duration: 5, quality: '720p' })).toMatchObject({ duration: 5, quality: '720p' });
  });
});
