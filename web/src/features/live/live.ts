/** The app's one push channel, fed the signed-in user's ID token by the API client's token provider. */
import { currentIdToken } from '../../lib/api-client';
import { createLiveChannel, liveUrl } from './live-channel';

export const liveChannel = createLiveChannel({ url: () => liveUrl(), token: currentIdToken });
