import { EmptyState } from '../../../components/empty-state';

/**
 * My Account > Previous Prompts (the default tab): the user's images and videos with their prompts,
 * Delete and Download. TODO(image/video generation feature): list GET /api/media here; until then the
 * account has no results to show.
 */
export function PreviousPromptsTab() {
  return (
    <div>
      <h2 className="text-lg font-semibold text-ink">Previous Prompts</h2>
      <p className="mt-1 text-sm text-ink-muted">Your generated images and videos, newest first.</p>
      <EmptyState className="mt-5" title="No previous prompts to display." />
    </div>
  );
}

export default PreviousPromptsTab;
