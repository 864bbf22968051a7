import { VideoGeneratorPage } from './video-generator-page';

/** /video-generator/pixverse: Pixverse v4.5 at 540p, 720p or 1080p. */
export default function PixversePage() {
  return <VideoGeneratorPage familyId="pixverse" />;
}
