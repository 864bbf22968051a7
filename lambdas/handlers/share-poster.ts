import { sharedFileRoute } from './share-pages';

export const handler = sharedFileRoute('sharePoster', 'poster');
