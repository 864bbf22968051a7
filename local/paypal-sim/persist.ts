/**
 * The simulator's state on disk (shared/persist.ts, as the Replicate simulator keeps its predictions): one record,
 * `<dataDir>/state.json`, saved before every answer that may have changed something.
 */
import { jsonRecords } from '../shared/persist';
import type { StateSnapshot } from './state';
import type { WebhooksSnapshot } from './webhooks';

interface Saved {
  state: StateSnapshot;
  webhooks: WebhooksSnapshot;
}

export function persistence(dataDir: string, log: (line: string) => void) {
  const records = jsonRecords<Saved>(dataDir, (line) => log(`paypal-sim: ${line}: starting with no orders`));
  return {
    save: (s: Saved) => records.save('state', s),
    /** The last state saved; undefined on a first start, or (said in the log) when the file cannot be read. */
    load: () => records.load('state'),
  };
}
