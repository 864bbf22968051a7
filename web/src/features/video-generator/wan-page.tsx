import { VideoGeneratorPage } from './video-generator-page';

/** /video-generator/wan: Wan 2.1, text-to-video or image-to-video with a start image. */
export default function WanPage() {
  return <VideoGeneratorPage familyId="wan" />;
}
