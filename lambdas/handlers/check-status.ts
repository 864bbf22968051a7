import { routeById } from '../../contract/routes';
import { checkJobStatus } from '../app/check-job-status';
import { checkJobStatusDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('checkStatus');

export const handler = userRoute(
  route,
  async (req, me) => ({ body: await checkJobStatus(checkJobStatusDeps(), me.sub, req.params.predictionId ?? '') }),
  { deletedAccountAnswersItself: true },
);
