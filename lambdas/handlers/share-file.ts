import { sharedFileRoute } from './share-pages';

export const handler = sharedFileRoute('shareFile', 'media');
