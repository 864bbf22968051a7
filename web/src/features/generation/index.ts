/**
 * The generation feature's public interface, for the generator pages and My Account: the job tracker and its hooks,
 * the media list and gallery, the one generator layout and the texts it shows.
 */
export { ManageCollection, useCollections } from './collections';
export { GenerationText, reasonOf } from './generation-messages';
export { GeneratorLayout, type GeneratorPage, type GeneratorPreviewProps } from './generator-layout';
export { applyJobPush, setJobsLive, useActiveJobs } from './jobs';
export { MediaGallery, type GalleryMessages } from './media-gallery';
export { PreviewCaption } from './preview-caption';
export { animateUrl, readReuseParams, reusedOptions, reuseUrl } from './reuse-urls';
export { applyMediaPush, rereadMediaLists, useMediaList } from './media-list';
