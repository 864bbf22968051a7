import { routeById } from '../../contract/routes';
import { createUpload } from '../app/create-upload';
import { createUploadDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('createUpload');

export const handler = userRoute(route, async (req, me) => ({ body: await createUpload(createUploadDeps(), me.sub, req.body) }));
