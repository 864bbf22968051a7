export { createLiveChannel, liveUrl, type LiveChannel, type LiveState } from './live-channel';
export { liveChannel } from './live';
export { createQueryClient, queryClient } from './query-client';
