import { routeById } from '../../contract/routes';
import { sharedFile } from '../app/show-share';
import { showShareDeps } from '../wiring/deps';
import { publicRoute } from './http';
import { SHARE_FILE_CACHE, SHARE_NOT_FOUND } from './share-pages';

const route = routeById('sharePoster');

export const handler = publicRoute(
  route,
  async (req) => {
    const file = await sharedFile(showShareDeps(), req.params.token, 'poster');
    return file.found ? { redirect: file.url, headers: SHARE_FILE_CACHE } : SHARE_NOT_FOUND;
  },
  { onInvalidInput: () => SHARE_NOT_FOUND },
);
