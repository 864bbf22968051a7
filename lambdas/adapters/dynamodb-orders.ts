/**
 * Orders: `ORDER#<id>`/`ORDER` is the order, found by the id PayPal sends back;
 * `USER#<owner>`/`PAYMENT#<createdAt>#<id>` is the owner's copy, so their payment list is one Query. Both are
 * written in one transaction and change status together, in the same transaction as the credits.
 */
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OrderStatus, PaymentReturnPath } from '../../contract/payments';
import type { Order, OrderStore } from '../ports/payments';
import { changeCredits, readBalance, type TransactItem } from './dynamodb-credits';
import { queryPage } from './dynamodb-pages';
import { keys } from '../domain/keys';
import { purchaseCredit, takeBackChange } from '../domain/money-rules';
import { transactIf } from './update-if';

const PAYMENT_PREFIX = 'PAYMENT#';

function fields(o: Order) {
  return {
    orderId: o.id,
    owner: o.owner,
    packId: o.packId,
    credits: o.credits,
    amount: o.amount,
    currency: o.currency,
    status: o.status,
    createdAt: o.createdAt,
    statusAt: o.statusAt ?? o.createdAt,
    ...(o.approvalUrl ? { approvalUrl: o.approvalUrl } : {}),
    ...(o.returnPath ? { returnPath: o.returnPath } : {}),
    ...(o.withdrawalConsentAt ? { withdrawalConsentAt: o.withdrawalConsentAt } : {}),
    ...(o.captureId ? { captureId: o.captureId } : {}),
    ...(o.capturedAt ? { capturedAt: o.capturedAt } : {}),
    ...(o.subscriptionId ? { subscriptionId: o.subscriptionId } : {}),
  };
}

const num = (v: unknown) => (v === undefined ? undefined : Number(v));

function toOrder(r: Record<string, unknown>): Order {
  const returnPath = PaymentReturnPath.safeParse(r.returnPath);
  const status = OrderStatus.safeParse(r.status);
  const refundedCents = num(r.refundedCents);
  const creditsTakenBack = num(r.creditsTakenBack);
  return {
    id: String(r.orderId),
    // An order kept after its buyer deleted the account has no owner ('').
    owner: typeof r.owner === 'string' ? r.owner : '',
    packId: String(r.packId),
    credits: Number(r.credits),
    amount: String(r.amount),
    currency: String(r.currency),
    status: status.success && status.data !== 'expired' ? status.data : 'created',
    createdAt: String(r.createdAt),
    statusAt: String(r.statusAt ?? r.capturedAt ?? r.createdAt),
    ...(r.approvalUrl ? { approvalUrl: String(r.approvalUrl) } : {}),
    ...(returnPath.success ? { returnPath: returnPath.data } : {}),
    ...(r.withdrawalConsentAt ? { withdrawalConsentAt: String(r.withdrawalConsentAt) } : {}),
    ...(r.captureId ? { captureId: String(r.captureId) } : {}),
    ...(r.capturedAt ? { capturedAt: String(r.capturedAt) } : {}),
    ...(refundedCents !== undefined ? { refundedCents } : {}),
    ...(creditsTakenBack !== undefined ? { creditsTakenBack } : {}),
    ...(r.refundIds instanceof Set ? { refundIds: [...(r.refundIds as Set<string>)] } : {}),
    ...(r.dispute === 'open' || r.dispute === 'resolved' ? { dispute: r.dispute } : {}),
    ...(r.failReason ? { failReason: String(r.failReason) } : {}),
    ...(r.returnedAt ? { returnedAt: String(r.returnedAt) } : {}),
    ...(r.subscriptionId ? { subscriptionId: String(r.subscriptionId) } : {}),
  };
}

/** The write that ends an order's chance to be settled by PayPal also takes it off the open-orders index. */
const LEAVE_OPEN_INDEX = ' REMOVE gsi1pk, gsi1sk';

/** The items of an order and its owner's copy (also written for a plan's billing payment, adapters/dynamodb-subscriptions). */
export { fields as orderFields };

export function dynamoOrderStore(db: DynamoDBDocumentClient, table: string): OrderStore {
  const balanceOf = async (sub: string) => (await readBalance(db, table, sub)) ?? 0;
  const orderKey = (id: string) => ({ pk: keys.order(id), sk: 'ORDER' });
  const paymentKey = (o: Order) => ({ pk: keys.user(o.owner), sk: keys.payment(o.createdAt, o.id) });
  /**
   * The order and its owner's copy, changed alike; an order whose buyer deleted the account (kept for accounting, no
   * owner) has no copy and no balance: only the order changes, and no credits move.
   */
  const both = (o: Order, make: (key: Record<string, string>) => TransactItem): TransactItem[] =>
    o.owner ? [make(orderKey(o.id)), make(paymentKey(o))] : [make(orderKey(o.id))];

  return {
    async create(order) {
      const stored = await transactIf(
        db,
        {
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...orderKey(order.id), type: 'order', ...fields(order), gsi1pk: keys.openOrders, gsi1sk: keys.openJob(order.createdAt, order.id) },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: table, Item: { ...paymentKey(order), type: 'payment', ...fields(order) }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        },
        'any',
      );
      if (!stored) throw new Error(`Order ${order.id} is already stored`);
    },

    async get(id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: orderKey(id), ConsistentRead: true }));
      return res.Item ? toOrder(res.Item) : undefined;
    },

    async captureAndCredit(order, capture) {
      const transition = (Key: Record<string, string>): TransactItem => ({
        Update: {
          TableName: table,
          Key,
          UpdateExpression: `SET #status = :captured, captureId = :cid, capturedAt = :at, statusAt = :at${LEAVE_OPEN_INDEX}`,
          // The guard against crediting twice: only an order never paid can become captured (a cancelled one too:
          // the buyer may go back and approve it after all).
          ConditionExpression: '#status IN (:created, :pending, :canceled)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':created': 'created',
            ':pending': 'pending',
            ':canceled': 'canceled',
            ':captured': 'captured',
            ':cid': capture.captureId,
            ':at': capture.capturedAt,
          },
        },
      });
      if (!order.owner) {
        // Paid after its buyer deleted the account: recorded as captured, credited to no one (support refunds it).
        await transactIf(db, { TransactItems: both(order, transition) }, 'any');
        return { credited: false };
      }
      const r = await changeCredits(db, table, {
        sub: order.owner,
        ...purchaseCredit(order),
        ref: order.id,
        with: both(order, transition),
      });
      if (r.ok) return { credited: true, balance: r.balance };
      if (r.why === 'already-done') return { credited: false };
      throw new Error(`Crediting order ${order.id} was refused: ${r.why}`);
    },

    async takeBack(order, t) {
      const before = order.refundedCents ?? 0;
      const update = (Key: Record<string, string>): TransactItem => ({
        Update: {
          TableName: table,
          Key,
          UpdateExpression: 'SET #status = :status, statusAt = :at, refundedCents = :cents, creditsTakenBack = :taken ADD refundIds :rid',
          // As read: paid, the same refunded total (two refunds at once: one wins, the other reads again), and this
          // refund not applied yet (a redelivered event changes nothing).
          ConditionExpression:
            '#status IN (:captured, :partial, :refunded, :reversed) AND (attribute_not_exists(refundedCents) OR refundedCents = :before) AND NOT contains(refundIds, :ridValue)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': t.status,
            ':at': t.at,
            ':cents': t.refundedCents,
            ':taken': t.creditsTakenBack,
            ':rid': new Set([t.refundId]),
            ':ridValue': t.refundId,
            ':before': before,
            ':captured': 'captured',
            ':partial': 'partially_refunded',
            ':refunded': 'refunded',
            ':reversed': 'reversed',
          },
        },
      });
      const change = takeBackChange(order, t);
      const items = both(order, update);
      if (change.delta === 0 || !order.owner) {
        // Nothing to take back (a refund of a cent): the order's totals change alone.
        const ok = await transactIf(db, { TransactItems: items }, 'any');
        return ok ? { applied: true, balance: order.owner ? await balanceOf(order.owner) : 0 } : { applied: false, why: 'stale' };
      }
      const r = await changeCredits(db, table, { sub: order.owner, ...change, ref: order.id, with: items });
      if (r.ok) return { applied: true, balance: r.balance };
      if (r.why === 'already-done') return { applied: false, why: 'stale' };
      throw new Error(`Taking back credits of order ${order.id} was refused: ${r.why}`);
    },

    async transition(order, from, to, at, extra = {}) {
      const values: Record<string, unknown> = { ':to': to, ':at': at };
      from.forEach((f, i) => (values[`:f${i}`] = f));
      let set = 'SET #status = :to, statusAt = :at';
      if (extra.failReason !== undefined) {
        set += ', failReason = :reason';
        values[':reason'] = extra.failReason.slice(0, 500);
      }
      if (to === 'failed') set += LEAVE_OPEN_INDEX;
      const update = (Key: Record<string, string>): TransactItem => ({
        Update: {
          TableName: table,
          Key,
          UpdateExpression: set,
          ConditionExpression: `#status IN (${from.map((_f, i) => `:f${i}`).join(', ')})`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
        },
      });
      return transactIf(db, { TransactItems: both(order, update) }, 'any');
    },

    async markReturned(order, at) {
      // The order alone: the owner's copy lists what PayPal did, and the page asks about the order.
      await db
        .send(
          new UpdateCommand({
            TableName: table,
            Key: orderKey(order.id),
            UpdateExpression: 'SET returnedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(returnedAt)',
            ExpressionAttributeValues: { ':at': at },
          }),
        )
        .catch((err: Error) => {
          if (err.name !== 'ConditionalCheckFailedException') throw err;
        });
    },

    async listOpen(limit, cursor) {
      const res = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :open',
          ExpressionAttributeValues: { ':open': keys.openOrders },
          Limit: limit,
          ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown> } : {}),
        }),
      );
      const items = (res.Items ?? []).map(toOrder);
      return { items, ...(res.LastEvaluatedKey ? { nextCursor: Buffer.from(JSON.stringify(res.LastEvaluatedKey)).toString('base64url') } : {}) };
    },

    async closeOpen(order) {
      await db.send(new UpdateCommand({ TableName: table, Key: orderKey(order.id), UpdateExpression: 'REMOVE gsi1pk, gsi1sk', ConditionExpression: 'attribute_exists(pk)' }));
    },

    async setDispute(order, dispute) {
      const update = (Key: Record<string, string>): TransactItem => ({
        Update: { TableName: table, Key, UpdateExpression: 'SET dispute = :d', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':d': dispute } },
      });
      await transactIf(db, { TransactItems: both(order, update) }, 'any');
    },

    async list(owner, limit, cursor) {
      const page = await queryPage(db, table, keys.user(owner), PAYMENT_PREFIX, limit, cursor);
      return { ...page, items: page.items.map(toOrder) };
    },
  };
}
