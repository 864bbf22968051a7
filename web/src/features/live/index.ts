export { liveChannel } from './live';
