import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

/** Sends a conditional update: true when it was made, false when its ConditionExpression did not hold. */
export async function updateIf(db: DynamoDBDocumentClient, input: UpdateCommandInput & { ConditionExpression: string }): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(input));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
