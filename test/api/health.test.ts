import { checkHealth } from '../../lambdas/app/check-health';
import { stackUrl } from '../support/users';

describe('GET /api/health', () => {
  it('reports every dependency of the embedded stack up, without a token', async () => {
    const res = await fetch(`${stackUrl()}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    for (const name of ['database', 'storage', 'auth', 'email']) {
      expect(body.checks[name]).toMatchObject({ status: 'up' });
    }
  });
});

describe('checkHealth', () => {
  it('is degraded and names the dependency that is down or does not answer in time', async () => {
    const report = await checkHealth(
      {
        up: async () => undefined,
        down: async () => {
          throw new Error('connection refused');
        },
        hung: () => new Promise(() => undefined),
      },
      200,
    );
    expect(report.status).toBe('degraded');
    expect(report.checks.up).toMatchObject({ status: 'up' });
    expect(report.checks.down).toMatchObject({ status: 'down', error: 'connection refused' });
    expect(report.checks.hung).toMatchObject({ status: 'down', error: 'no answer within 200 ms' });
  });
});
