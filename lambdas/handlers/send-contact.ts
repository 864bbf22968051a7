import { routeById } from '../../contract/routes';
import { sendContact } from '../app/send-contact';
import { sendContactDeps } from '../wiring/deps';
import { clientIp } from './client-ip';
import { publicRoute } from './http';

const route = routeById('sendContact');

export const handler = publicRoute(route, async (req) => {
  const { id } = await sendContact(sendContactDeps(), req.body, clientIp(req));
  return { body: { ok: true, id } };
});
