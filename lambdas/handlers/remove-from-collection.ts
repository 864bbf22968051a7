import { routeById } from '../../contract/routes';
import { setCollectionMember } from '../app/set-collection-member';
import { setCollectionMemberDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('removeFromCollection');

export const handler = userRoute(route, async (req, me) => ({
  body: await setCollectionMember(setCollectionMemberDeps(), me.sub, req.params.id, req.params.mediaId, false),
}));
