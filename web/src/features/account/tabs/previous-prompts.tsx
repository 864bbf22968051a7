import { useEffect, useRef } from 'react';
import { Alert } from '../../../components/alert';
import { useSession } from '../../auth';
import { type GalleryMessages, GenerationText, MediaGallery, useActiveJobs, useMediaList } from '../../generation';

const MESSAGES: GalleryMessages = {
  loadFailed: GenerationText.failedToFetchPrompts,
  moreFailed: GenerationText.failedToFetchPrompts,
  deleteFailed: GenerationText.failedToDeletePrompt,
  empty: GenerationText.noPreviousPrompts,
};

const everyJob = () => true;

/**
 * My Account > Previous Prompts (the default tab): the user's images and videos together, newest first, each
 * with its prompt, Download and Delete; videos play in a player. Jobs still running elsewhere are followed here
 * too, and the list catches up when one ends.
 */
export function PreviousPromptsTab() {
  const { status } = useSession();
  const media = useMediaList();
  const running = useActiveJobs(everyJob);
  const before = useRef(running.length);

  const { refresh } = media;
  useEffect(() => {
    if (running.length < before.current) void refresh();
    before.current = running.length;
  }, [running.length, refresh]);

  if (status === 'signedOut') return <Alert variant="error">{GenerationText.signInToAccessPrompts}</Alert>;

  return (
    <MediaGallery
      title="Previous Prompts"
      description={
        <>
          <p>Your generated images and videos, newest first.</p>
          {running.length > 0 && (
            <p role="status" className="mt-2">
              {running.length === 1
                ? 'One generation is still running. It will appear here when it is ready.'
                : `${running.length} generations are still running. They will appear here when they are ready.`}
            </p>
          )}
        </>
      }
      list={media}
      messages={MESSAGES}
      columns="mixed"
    />
  );
}

export default PreviousPromptsTab;
