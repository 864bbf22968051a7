import { routeById } from '../../contract/routes';
import { showSharePage } from '../app/show-share';
import { showShareDeps } from '../wiring/deps';
import { publicRoute } from './http';
import { SHARE_NOT_FOUND, SHARE_PAGE_CACHE } from './share-pages';

const route = routeById('sharePage');

export const handler = publicRoute(
  route,
  async (req) => {
    const page = await showSharePage(showShareDeps(), req.params.token);
    return page.found ? { html: page.html, headers: SHARE_PAGE_CACHE } : SHARE_NOT_FOUND;
  },
  { onInvalidInput: () => SHARE_NOT_FOUND },
);
