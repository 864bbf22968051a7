/**
 * Cognito PreSignUp trigger: refuses a sign-up whose first or last name breaks the name rule (contract/auth.ts), so
 * nothing a stranger typed reaches a mail from our sender. Cognito answers the caller with
 * UserLambdaValidationException "PreSignUp failed with error <message>."; the local emulator runs this same handler
 * (local/cognito/cognito-server.ts).
 */
import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { NAME_RULE, isAcceptableName } from '../../contract/auth';

export const handler = async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
  const { given_name: first, family_name: last } = event.request.userAttributes;
  if (!isAcceptableName(first ?? '') || !isAcceptableName(last ?? '')) throw new Error(NAME_RULE);
  return event;
};
