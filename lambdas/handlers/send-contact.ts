import { routeById } from '../../contract/routes';
import { sendContact } from '../app/send-contact';
import { dynamo, sesClient } from '../adapters/aws-clients';
import { dynamoContactStore } from '../adapters/dynamodb-contact';
import { sesMailer } from '../adapters/ses-mailer';
import { config } from '../config';
import { clientIp } from './client-ip';
import { publicRoute } from './http';

const route = routeById('sendContact');
const c = config();
const deps = {
  store: dynamoContactStore(dynamo(), c.TABLE_NAME),
  mailer: sesMailer(sesClient(), c.SES_FROM_ADDRESS),
  supportEmail: c.SUPPORT_EMAIL,
  now: () => new Date(),
};

export const handler = publicRoute(route, async (req) => {
  const { id } = await sendContact(deps, req.body, clientIp(req));
  return { body: { ok: true, id } };
});
