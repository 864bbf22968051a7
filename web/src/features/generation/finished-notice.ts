/**
 * When a job ends while its tab is hidden, the tab's title says so (until the tab is looked at again) and, if the user
 * allowed it, a browser notification does. The permission is asked once, ever, when the first long job starts: a user
 * who waits a few seconds for an image has no need of it.
 */
import { MEDIA_KINDS } from '../../../../contract/media-kinds';
import { modelOfReplicate, runOf } from '../../../../contract/models';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import type { ActiveJob } from './active-jobs';
import type { JobOutcome } from './followed-jobs';

/** A job that usually takes this long or more is "long": the user is likely to look elsewhere meanwhile. */
const LONG_JOB_SECONDS = 30;

const notifications = (): typeof Notification | undefined => (typeof Notification === 'undefined' ? undefined : Notification);

function isLong(job: Pick<ActiveJob, 'model' | 'options'>): boolean {
  const model = modelOfReplicate(job.model);
  return model !== undefined && runOf(model, job.options ?? {}).typicalSeconds >= LONG_JOB_SECONDS;
}

/** Asks for notifications at the first long job this browser starts; never again, whatever the answer. */
export function askToNotifyOnce(job: Pick<ActiveJob, 'model' | 'options'>): void {
  const api = notifications();
  const asked = storedValue(STORAGE_KEYS.notifyAsked);
  if (!api || api.permission !== 'default' || asked.get() || !isLong(job)) return;
  asked.set('1');
  void api.requestPermission().catch(() => undefined);
}

/** What the title and the notification say. */
export function finishedText(outcome: JobOutcome): string {
  const what = MEDIA_KINDS[outcome.job.kind].noun;
  if (outcome.status === 'succeeded') return `${what} ready`;
  return outcome.status === 'canceled' ? `${what} canceled` : `${what} failed`;
}

let titleBefore: string | undefined;

function restoreTitle(): void {
  if (document.visibilityState !== 'visible' || titleBefore === undefined) return;
  document.title = titleBefore;
  titleBefore = undefined;
}

/** A job ended: tell a user who is not looking at this tab. */
export function noticeFinished(outcome: JobOutcome): void {
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return;
  const text = finishedText(outcome);
  titleBefore ??= document.title;
  document.title = `${outcome.status === 'succeeded' ? '✓' : '•'} ${text} · ${titleBefore}`;
  document.addEventListener('visibilitychange', restoreTitle);
  const api = notifications();
  if (api?.permission === 'granted') {
    try {
      // One notification per job, even when several hidden tabs follow it (the tag replaces the same job's).
      new api(`${text}: Framewright`, { body: outcome.job.prompt, tag: `framewright-job-${outcome.job.predictionId}` });
    } catch {
      // Some browsers allow notifications only from a service worker: the title still says it.
    }
  }
}
