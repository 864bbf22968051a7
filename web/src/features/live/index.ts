export { liveChannel } from './live';
export { createQueryClient, queryClient } from './query-client';
