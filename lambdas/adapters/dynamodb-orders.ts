/**
 * Orders (DESIGN section 3): `ORDER#<id>`/`ORDER` is the order, found by the id PayPal sends back;
 * `USER#<owner>`/`PAYMENT#<createdAt>#<id>` is the owner's copy, so their payment list is one Query. Both are
 * written in one transaction and change status together, in the same transaction as the credits.
 */
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PaymentReturnPath } from '../../contract/payments';
import type { Order, OrderStore } from '../ports/payments';
import { changeCredits, type TransactItem } from './dynamodb-credits';
import { queryPage } from './dynamodb-pages';
import { keys } from '../domain/keys';
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
    ...(o.returnPath ? { returnPath: o.returnPath } : {}),
    ...(o.captureId ? { captureId: o.captureId } : {}),
    ...(o.capturedAt ? { capturedAt: o.capturedAt } : {}),
  };
}

function toOrder(r: Record<string, unknown>): Order {
  const returnPath = PaymentReturnPath.safeParse(r.returnPath);
  return {
    id: String(r.orderId),
    owner: String(r.owner),
    packId: String(r.packId),
    credits: Number(r.credits),
    amount: String(r.amount),
    currency: String(r.currency),
    status: r.status === 'captured' ? 'captured' : 'created',
    createdAt: String(r.createdAt),
    ...(returnPath.success ? { returnPath: returnPath.data } : {}),
    ...(r.captureId ? { captureId: String(r.captureId) } : {}),
    ...(r.capturedAt ? { capturedAt: String(r.capturedAt) } : {}),
  };
}

export function dynamoOrderStore(db: DynamoDBDocumentClient, table: string): OrderStore {
  const orderKey = (id: string) => ({ pk: keys.order(id), sk: 'ORDER' });
  const paymentKey = (o: Order) => ({ pk: keys.user(o.owner), sk: keys.payment(o.createdAt, o.id) });

  return {
    async create(order) {
      const stored = await transactIf(
        db,
        {
          TransactItems: [
            { Put: { TableName: table, Item: { ...orderKey(order.id), type: 'order', ...fields(order) }, ConditionExpression: 'attribute_not_exists(pk)' } },
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
          UpdateExpression: 'SET #status = :captured, captureId = :cid, capturedAt = :at',
          // The guard against crediting twice: only a created order can become captured.
          ConditionExpression: '#status = :created',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':created': 'created', ':captured': 'captured', ':cid': capture.captureId, ':at': capture.capturedAt },
        },
      });
      const r = await changeCredits(db, table, {
        sub: order.owner,
        delta: order.credits,
        reason: 'purchase',
        ref: order.id,
        with: [transition(orderKey(order.id)), transition(paymentKey(order))],
      });
      if (r.ok) return { credited: true, balance: r.balance };
      if (r.why === 'already-done') return { credited: false };
      throw new Error(`Crediting order ${order.id} was refused: ${r.why}`);
    },

    async list(owner, limit, cursor) {
      const page = await queryPage(db, table, keys.user(owner), PAYMENT_PREFIX, limit, cursor);
      return { ...page, items: page.items.map(toOrder) };
    },
  };
}
