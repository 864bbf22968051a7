import { AdminDeleteUserCommand, CognitoIdentityProviderClient, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import type { UserDirectory } from '../ports/account-data';

/** The user pool through Cognito's admin API (locally cognito-local, at AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER). */
export function cognitoUsers(client: CognitoIdentityProviderClient, userPoolId: string): UserDirectory {
  return {
    async deleteUser(username) {
      try {
        await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: username }));
      } catch (err) {
        if (err instanceof UserNotFoundException || (err as { name?: string }).name === 'UserNotFoundException') return;
        throw err;
      }
    },
  };
}
