/**
 * The simulator's state on disk, so a restart of the stack forgets nothing (PayPal does not): one JSON file,
 * `<dataDir>/state.json`, written atomically (the same way as the Replicate simulator's predictions) before every
 * answer that may have changed something, so what a caller was told is on disk even if the process is then killed.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from '../shared/atomic-file';
import type { StateSnapshot } from './state';
import type { SubscriptionsSnapshot } from './subscriptions';
import type { WebhooksSnapshot } from './webhooks';

export interface Saved {
  state: StateSnapshot;
  webhooks: WebhooksSnapshot;
  /** Absent in files saved before the simulator had subscriptions. */
  subscriptions?: SubscriptionsSnapshot;
}

export function persistence(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'state.json');
  return {
    save(s: Saved): void {
      writeFileAtomic(file, JSON.stringify(s));
    },
    /** The last state saved; undefined on a first start, or (said in the log) when the file cannot be read. */
    load(log: (line: string) => void): Saved | undefined {
      const read = readJsonFile<Saved>(file);
      if (read === 'unreadable') log(`paypal-sim: ${file} is unreadable: starting with no orders`);
      return typeof read === 'object' ? read.found : undefined;
    },
  };
}

/** The request listener, saving the state just before any answer to a request that can change it (not a GET). */
export function savingBeforeAnswer(listener: (req: IncomingMessage, res: ServerResponse) => void, save: () => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        save();
        return end(...args);
      }) as ServerResponse['end'];
    }
    listener(req, res);
  };
}
