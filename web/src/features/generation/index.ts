/**
 * The generation feature's public interface, for the generator pages and My Account: the job tracker and its hooks,
 * the media list and gallery, the start image, the generator layout parts and the texts they show.
 */
export { ManageCollection, useCollections } from './collections';
export { CreditsBox } from './credits-box';
export { GenerationText, reasonOf } from './generation-messages';
export { generateBlockedReason } from './generate-blocked';
export { GeneratorForm } from './generator-form';
export { GeneratorShell } from './generator-shell';
export { applyJobPush, isAnyJob, isImageJob, setJobsLive, useActiveJobs, useJobStatuses, videoFamilyJobs, type ActiveJob, type RunningStatus } from './jobs';
export type { MediaItemView } from './media-api';
export { MediaGallery, type GalleryMessages } from './media-gallery';
export { IGNORED_WITH_IMAGE, optionsIgnoredWithImage } from './ignored-options';
export { ModelOptions, requestOptions, type OptionState } from './model-options';
export { PreviewCaption } from './preview-caption';
export { PreviewSlot } from './preview-slot';
export { JobProgress, JobTiles } from './running-jobs';
export { animateUrl, readReuseParams, reusedOptions, reuseUrl } from './reuse-urls';
export { useReuseFromUrl } from './use-reuse';
export { startGeneration } from './start-generation';
export { uploadStartImage, useStartImage } from './start-image';
export { StartImagePicker } from './start-image-picker';
export { StartMediaCard } from './start-media-card';
export { applyMediaPush, rereadMediaLists, useMediaList } from './media-list';
export { useNow } from './use-now';
export { useResultPreview, type PreviewMedia } from './use-result-preview';
