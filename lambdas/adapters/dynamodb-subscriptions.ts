/**
 * Plans at PayPal and the users' subscriptions: `USER#<sub>`/`SUBSCRIPTION` is the user's plan; `SUBSCRIPTION#<id>` names
 * the owner of a PayPal subscription (PayPal's webhooks name only the subscription); `PAYPAL#<key>` what we made at
 * PayPal. A billing payment is stored as a captured order under its sale id (`ORDER#<saleId>` and the owner's
 * `PAYMENT#` copy): the order's conditional put is the marker that grants it once, in the transaction of the credits,
 * and refunds and reversals then take it back through the orders' claw-back like a pack's.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PaymentReturnPath } from '../../contract/payments';
import { SubscriptionStatus } from '../../contract/subscriptions';
import { orderOfSale, type RefusedSale, type Subscription, type SubscriptionStore, type WatchedPlan } from '../ports/subscriptions';
import { keys } from '../domain/keys';
import { saleGrant } from '../domain/money-rules';
import { changeCredits, readBalances } from './dynamodb-credits';
import { orderFields } from './dynamodb-orders';
import { transactIf } from './update-if';

function toSubscription(r: Record<string, unknown>): Subscription | undefined {
  const status = SubscriptionStatus.safeParse(r.status);
  if (!status.success || status.data === 'none') return undefined;
  const returnPath = PaymentReturnPath.safeParse(r.returnPath);
  return {
    owner: String(r.owner),
    id: String(r.subscriptionId),
    planId: String(r.planId),
    status: status.data,
    createdAt: String(r.createdAt),
    statusAt: String(r.statusAt ?? r.createdAt),
    returnPath: returnPath.success ? returnPath.data : '/',
    ...(r.withdrawalConsentAt ? { withdrawalConsentAt: String(r.withdrawalConsentAt) } : {}),
    ...(r.nextBillingAt ? { nextBillingAt: String(r.nextBillingAt) } : {}),
    ...(r.nextPlanId ? { nextPlanId: String(r.nextPlanId) } : {}),
    ...(r.nextRetryAt ? { nextRetryAt: String(r.nextRetryAt) } : {}),
    ...(r.failedPayments !== undefined ? { failedPayments: Number(r.failedPayments) } : {}),
  };
}

function toRefusedSale(r: Record<string, unknown>): RefusedSale {
  return {
    saleId: String(r.saleId),
    subscriptionId: String(r.subscriptionId),
    amount: { value: String(r.amount), currency: String(r.currency) },
    saleTime: String(r.saleTime),
    reason: r.reason === 'account-deleted' ? 'account-deleted' : 'second-plan',
    outcome: r.outcome === 'refunded' ? 'refunded' : 'refunding',
    ...(r.refundId ? { refundId: String(r.refundId) } : {}),
    recordedAt: String(r.recordedAt),
    ...(r.refundedAt ? { refundedAt: String(r.refundedAt) } : {}),
  };
}

function toWatched(r: Record<string, unknown>): WatchedPlan {
  const id = String(r.pk).slice(keys.subscriptionOwner('').length);
  return {
    id,
    owner: String(r.owner),
    createdAt: String(r.createdAt ?? ''),
    ...(r.checkedAt ? { checkedAt: String(r.checkedAt) } : {}),
    ...(r.endedAt ? { endedAt: String(r.endedAt) } : {}),
  };
}

export function dynamoSubscriptionStore(db: DynamoDBDocumentClient, table: string): SubscriptionStore {
  const ref = (key: string) => ({ pk: keys.paypalRef(key), sk: keys.paypalRefItem });
  const mine = (owner: string) => ({ pk: keys.user(owner), sk: keys.subscription });

  return {
    async paypalId(key) {
      const res = await db.send(new GetCommand({ TableName: table, Key: ref(key), ConsistentRead: true }));
      return res.Item ? String(res.Item.paypalId) : undefined;
    },

    async rememberPaypalId(key, paypalId, planId) {
      await db.send(new PutCommand({ TableName: table, Item: { ...ref(key), paypalId, ...(planId ? { planId } : {}) } }));
      if (planId) await db.send(new PutCommand({ TableName: table, Item: { ...ref(`paypal-plan:${paypalId}`), paypalId, planId } }));
    },

    async planOfPaypal(paypalPlanId) {
      const res = await db.send(new GetCommand({ TableName: table, Key: ref(`paypal-plan:${paypalPlanId}`), ConsistentRead: true }));
      return res.Item?.planId ? String(res.Item.planId) : undefined;
    },

    async get(owner) {
      const res = await db.send(new GetCommand({ TableName: table, Key: mine(owner), ConsistentRead: true }));
      return res.Item ? toSubscription(res.Item) : undefined;
    },

    async balances(owner) {
      return (await readBalances(db, table, owner)) ?? { credits: 0, planCredits: 0 };
    },

    async ownerOf(id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.subscriptionOwner(id), sk: keys.subscription }, ConsistentRead: true }));
      return res.Item ? String(res.Item.owner) : undefined;
    },

    async start(s) {
      return transactIf(
        db,
        {
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: {
                  ...mine(s.owner),
                  type: 'subscription',
                  owner: s.owner,
                  subscriptionId: s.id,
                  planId: s.planId,
                  status: s.status,
                  createdAt: s.createdAt,
                  statusAt: s.statusAt,
                  returnPath: s.returnPath,
                  ...(s.withdrawalConsentAt ? { withdrawalConsentAt: s.withdrawalConsentAt } : {}),
                },
                // One plan at a time: a new subscription replaces only one that is over or never began.
                ConditionExpression: 'attribute_not_exists(pk) OR NOT (#status IN (:active, :suspended))',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':active': 'active', ':suspended': 'suspended' },
              },
            },
            {
              Put: {
                TableName: table,
                // Watched by the plans' reconciler from now on (gsi1, keys.watchedPlans), whatever becomes of the user's record.
                Item: { pk: keys.subscriptionOwner(s.id), sk: keys.subscription, owner: s.owner, createdAt: s.createdAt, gsi1pk: keys.watchedPlans, gsi1sk: `${s.createdAt}#${s.id}` },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        },
        0,
      );
    },

    async adopt(s) {
      return transactIf(
        db,
        {
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: {
                  ...mine(s.owner),
                  type: 'subscription',
                  owner: s.owner,
                  subscriptionId: s.id,
                  planId: s.planId,
                  status: s.status,
                  createdAt: s.createdAt,
                  statusAt: s.statusAt,
                  returnPath: s.returnPath,
                },
                // At most one plan bills per person: the first activated one stays, a later one is refused.
                ConditionExpression: 'attribute_not_exists(pk) OR #id = :id OR NOT (#status IN (:active, :suspended))',
                ExpressionAttributeNames: { '#status': 'status', '#id': 'subscriptionId' },
                ExpressionAttributeValues: { ':active': 'active', ':suspended': 'suspended', ':id': s.id },
              },
            },
            // Not for an account that is gone (its plan is refused) or being deleted.
            {
              ConditionCheck: {
                TableName: table,
                Key: { pk: keys.user(s.owner), sk: keys.account },
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
              },
            },
            { ConditionCheck: { TableName: table, Key: { pk: keys.subscriptionOwner(s.id), sk: keys.subscription }, ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(refusedAt)' } },
          ],
        },
        'any',
      );
    },

    async refuse(id, at, reason) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: keys.subscriptionOwner(id), sk: keys.subscription },
          UpdateExpression: 'SET refusedAt = if_not_exists(refusedAt, :at), refusedFor = if_not_exists(refusedFor, :reason)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at, ':reason': reason },
        }),
      );
    },

    async refusal(id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.subscriptionOwner(id), sk: keys.subscription }, ConsistentRead: true }));
      const r = res.Item;
      if (!r?.refusedAt) return undefined;
      return { at: String(r.refusedAt), reason: r.refusedFor === 'account-deleted' ? 'account-deleted' : 'second-plan' };
    },

    async isGranted(saleId) {
      const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.order(saleId), sk: 'ORDER' }, ConsistentRead: true, ProjectionExpression: 'pk' }));
      return Boolean(res.Item);
    },

    async refusedSale(saleId) {
      const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.refusedSale(saleId), sk: keys.refusedSaleItem }, ConsistentRead: true }));
      return res.Item ? toRefusedSale(res.Item) : undefined;
    },

    async recordRefusedSale(r) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            pk: keys.refusedSale(r.saleId),
            sk: keys.refusedSaleItem,
            type: 'refused-sale',
            saleId: r.saleId,
            subscriptionId: r.subscriptionId,
            amount: r.amount.value,
            currency: r.amount.currency,
            saleTime: r.saleTime,
            reason: r.reason,
            outcome: r.outcome,
            ...(r.refundId ? { refundId: r.refundId } : {}),
            recordedAt: r.recordedAt,
            ...(r.refundedAt ? { refundedAt: r.refundedAt } : {}),
          },
        }),
      );
    },

    async update(owner, id, f) {
      const names: Record<string, string> = { '#id': 'subscriptionId' };
      const values: Record<string, unknown> = { ':id': id };
      const sets: string[] = [];
      const removes: string[] = [];
      for (const [k, v] of Object.entries(f)) {
        names[`#${k}`] = k;
        if (v === undefined) removes.push(`#${k}`);
        else {
          sets.push(`#${k} = :${k}`);
          values[`:${k}`] = v;
        }
      }
      if (!sets.length && !removes.length) return;
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: mine(owner),
            UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
            // A later subscription replaced this one: what PayPal says about the old one changes nothing shown.
            ConditionExpression: '#id = :id',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
      } catch (err) {
        if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      }
    },

    async listWatched(limit, cursor) {
      const res = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :w',
          ExpressionAttributeValues: { ':w': keys.watchedPlans },
          Limit: limit,
          ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown> } : {}),
        }),
      );
      const items = (res.Items ?? []).map(toWatched);
      return { items, ...(res.LastEvaluatedKey ? { nextCursor: Buffer.from(JSON.stringify(res.LastEvaluatedKey)).toString('base64url') } : {}) };
    },

    async markChecked(plan, at, endedAt) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: keys.subscriptionOwner(plan.id), sk: keys.subscription },
            UpdateExpression: `SET checkedAt = :at, gsi1sk = :sk${endedAt ? ', endedAt = if_not_exists(endedAt, :ended)' : ''}`,
            // Still watched: a run that overlaps another does not put back what it stopped watching.
            ConditionExpression: 'gsi1pk = :w',
            ExpressionAttributeValues: { ':at': at, ':sk': `${at}#${plan.id}`, ':w': keys.watchedPlans, ...(endedAt ? { ':ended': endedAt } : {}) },
          }),
        );
      } catch (err) {
        if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      }
    },

    async stopWatching(plan) {
      await db.send(new UpdateCommand({ TableName: table, Key: { pk: keys.subscriptionOwner(plan.id), sk: keys.subscription }, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    },

    async grant(g) {
      const order = orderOfSale(g);
      const r = await changeCredits(db, table, {
        sub: g.owner,
        ...saleGrant(g),
        ref: g.saleId,
        with: [
          // The marker: a sale is granted once, whichever of its webhook, a redelivery or the return comes first.
          { Put: { TableName: table, Item: { pk: keys.order(g.saleId), sk: 'ORDER', type: 'order', ...orderFields(order) }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: table, Item: { pk: keys.user(g.owner), sk: keys.payment(g.at, g.saleId), type: 'payment', ...orderFields(order) } } },
          // Never a payment of a refused subscription (it is refunded instead), nor one refunded as refused.
          { ConditionCheck: { TableName: table, Key: { pk: keys.subscriptionOwner(g.subscriptionId), sk: keys.subscription }, ConditionExpression: 'attribute_not_exists(refusedAt)' } },
          { ConditionCheck: { TableName: table, Key: { pk: keys.refusedSale(g.saleId), sk: keys.refusedSaleItem }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      });
      if (r.ok) return { credited: true, balance: r.balance };
      if (r.why === 'already-done') return { credited: false };
      throw new Error(`Granting sale ${g.saleId} was refused: ${r.why}`);
    },
  };
}
