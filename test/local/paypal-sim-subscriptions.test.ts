/**
 * The PayPal simulator's Subscriptions v1 as a caller sees it, strict where PayPal's OpenAPI document is: required
 * fields and enums (400 INVALID_REQUEST), states (422 SUBSCRIPTION_STATUS_INVALID, PLAN_STATUS_INVALID), unknown ids
 * (404), and the state kept across a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPaypalSimulator, type PaypalSim } from '../../local/paypal-sim';

const CLIENT_ID = 'sim-client-id';
const CLIENT_SECRET = 'sim-client-secret';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paypal-sim-subs-'));
let sim: PaypalSim;
let token: string;

async function start() {
  sim = await startPaypalSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webhookId: 'WH-SIM-1', dataDir, webhookJitterMs: 0 });
  const res = await fetch(`${sim.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  token = ((await res.json()) as { access_token: string }).access_token;
}

async function call(method: string, p: string, body?: unknown) {
  const res = await fetch(`${sim.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const monthly = (productId: string, value = '9.99') => ({
  product_id: productId,
  name: 'Starter',
  billing_cycles: [{ frequency: { interval_unit: 'MONTH', interval_count: 1 }, tenure_type: 'REGULAR', sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { value, currency_code: 'USD' } } }],
  payment_preferences: { payment_failure_threshold: 2 },
});
const context = { return_url: 'http://app.test/return', cancel_url: 'http://app.test/cancel' };

beforeAll(start);
afterAll(async () => {
  await sim.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('PayPal simulator: Subscriptions v1', () => {
  it('refuses what PayPal refuses: missing fields, bad enums, unknown and inactive plans, wrong states', async () => {
    expect((await call('POST', '/v1/catalogs/products', { name: 'x' })).body.details[0]).toMatchObject({ field: '/type', issue: 'MISSING_REQUIRED_PARAMETER' });
    expect((await call('POST', '/v1/catalogs/products', { name: 'x', type: 'GAME' })).body.details[0]).toMatchObject({ field: '/type', issue: 'INVALID_PARAMETER_VALUE' });
    const product = (await call('POST', '/v1/catalogs/products', { name: 'Credits', type: 'DIGITAL' })).body.id as string;
    expect((await call('POST', '/v1/billing/plans', { ...monthly(product), billing_cycles: [] })).status).toBe(400);
    expect((await call('POST', '/v1/billing/plans', monthly('PROD-NOPE00'))).status).toBe(422);
    const plan = await call('POST', '/v1/billing/plans', { ...monthly(product), status: 'INACTIVE' });
    expect(plan.status).toBe(201);
    expect((await call('POST', '/v1/billing/subscriptions', { plan_id: 'P-NOPE', application_context: context })).status).toBe(404);
    const inactive = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.body.id, application_context: context });
    expect(inactive.status).toBe(422);
    expect(inactive.body.details[0].issue).toBe('PLAN_STATUS_INVALID');
    expect((await call('POST', `/v1/billing/plans/${plan.body.id}/activate`)).status).toBe(204);
    expect((await call('POST', '/v1/billing/subscriptions', { plan_id: plan.body.id, application_context: { return_url: 'nope' } })).status).toBe(400);
    const s = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.body.id, custom_id: 'user-1', application_context: context });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ status: 'APPROVAL_PENDING', links: expect.arrayContaining([expect.objectContaining({ rel: 'approve' })]) });
    // Not active yet: neither cancel nor suspend; cancel needs a reason.
    expect((await call('POST', `/v1/billing/subscriptions/${s.body.id}/cancel`, {})).status).toBe(400);
    expect((await call('POST', `/v1/billing/subscriptions/${s.body.id}/cancel`, { reason: 'x' })).body.details[0].issue).toBe('SUBSCRIPTION_STATUS_INVALID');
    expect((await call('POST', `/v1/billing/subscriptions/${s.body.id}/suspend`, { reason: 'x' })).status).toBe(422);
    // Transactions need their date range.
    expect((await call('GET', `/v1/billing/subscriptions/${s.body.id}/transactions`)).status).toBe(400);
  });

  it('bills, fails, suspends at the threshold, and keeps it all across a restart', async () => {
    const product = (await call('POST', '/v1/catalogs/products', { name: 'Credits', type: 'DIGITAL' })).body.id as string;
    const plan = (await call('POST', '/v1/billing/plans', monthly(product))).body.id as string;
    const s = (await call('POST', '/v1/billing/subscriptions', { plan_id: plan, application_context: context })).body;
    const approve = await fetch(`${sim.url}/webapps/billing/subscriptions/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ba_token: new URL(s.links.find((l: { rel: string }) => l.rel === 'approve').href).searchParams.get('ba_token')! }).toString(),
    });
    expect(approve.headers.get('location')).toMatch(/^http:\/\/app\.test\/return\?subscription_id=I-/);
    sim.billSubscription(s.id, 'failed');
    sim.billSubscription(s.id, 'failed');
    await sim.close();
    await start();
    const after = (await call('GET', `/v1/billing/subscriptions/${s.id}`)).body;
    expect(after).toMatchObject({ status: 'SUSPENDED', billing_info: { failed_payments_count: 2, outstanding_balance: { value: '19.98' } } });
    expect((await call('POST', `/v1/billing/subscriptions/${s.id}/activate`, { reason: 'x' })).body.details[0].issue).toBe('SUBSCRIPTION_CANNOT_BE_ACTIVATED');
    const sales = (await call('GET', `/v1/billing/subscriptions/${s.id}/transactions?start_time=2020-01-01T00:00:00Z&end_time=2100-01-01T00:00:00Z`)).body.transactions;
    expect(sales).toHaveLength(1);
  });
});
