/**
 * Every handler of the push channel (contract/live.ts), registered here and only here: the signed-in app shell
 * (layouts/app-layout.tsx) imports this once, before the session starts the channel, so no push finds nobody
 * listening; the public pages never load it. Each feature keeps what a push means to it (the balance, a job, the
 * media lists); this module only routes messages and the channel's state to them.
 */
import { refreshCredits, setCredits } from '../features/credits';
import { applyJobPush, applyMediaPush, rereadMediaLists, setJobsLive } from '../features/generation';
import { liveChannel } from '../features/live';

liveChannel.onMessage((m) => {
  switch (m.type) {
    // A purchase, a charge or a refund in any tab or on the server: the shown balance is replaced.
    case 'balance':
      setCredits(m.credits);
      break;
    case 'job':
      applyJobPush(m.job);
      break;
    case 'media':
      applyMediaPush(m);
      break;
  }
});

liveChannel.onState((now, before) => {
  // While pushes arrive nothing polls; while the channel is down jobs are checked as the spec says.
  setJobsLive(now === 'open');
  // Back after a drop: a change may have been missed meanwhile, so the balance and the lists are read again.
  if (now === 'open' && before === 'down') {
    void refreshCredits();
    rereadMediaLists();
  }
});
