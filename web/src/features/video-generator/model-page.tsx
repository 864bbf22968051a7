import { useParams } from 'react-router-dom';
import { VIDEO_MODELS } from '../../../../contract/models';
import NotFoundPage from '../../pages/not-found-page';
import { VideoGeneratorPage } from './video-generator-page';

/** The ids of the video generators that can be opened: every available video model in the registry. */
export const generatorSlugs = (): string[] => VIDEO_MODELS.filter((m) => !m.upcoming).map((m) => m.slug);

/**
 * /video-generator/:slug: one generic page for every video model in the registry (/video-generator/wan,
 * /video-generator/pixverse, ...); an unknown or upcoming model is the 404 page.
 */
export function VideoModelPage({ slug }: { slug: string | undefined }) {
  if (!slug || !generatorSlugs().includes(slug)) return <NotFoundPage />;
  // key: switching models remounts the page, so no option of one model is carried to another.
  return <VideoGeneratorPage key={slug} slug={slug} />;
}

export default function VideoModelRoute() {
  const { slug } = useParams();
  return <VideoModelPage slug={slug} />;
}
