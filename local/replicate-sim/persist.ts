/**
 * The simulator's predictions on disk (shared/persist.ts, as the PayPal simulator keeps its orders): one record per
 * prediction under `<dataDir>/predictions/`, saved at every change; its output files, bytes rather than JSON, under
 * `<dataDir>/files/<id>/`, written atomically too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file';
import { jsonRecords } from '../shared/persist';
import { SIM_MODELS } from './models';
import type { OutputFile, Rec, SimMarker, WebhookEvent } from './types';

/** What a restart brings back: everything but timers, jobs and waiters, which the state makes again. */
export type Restored = Pick<Rec, 'p' | 'model' | 'input' | 'seed' | 'createdMs' | 'startedMs' | 'completedMs' | 'totalMs' | 'markers' | 'webhook' | 'events' | 'files'>;

/** A Restored as JSON: the model by id, sets as arrays, files by name and type (their bytes are files of their own). */
type Saved = Omit<Restored, 'model' | 'markers' | 'events' | 'files'> & {
  modelId: string;
  markers: SimMarker[];
  events: WebhookEvent[];
  files: { name: string; type: string }[];
};

export interface Persistence {
  save(rec: Rec): void;
  /** Writes the output files of a finished prediction (before it is saved as succeeded). */
  saveFiles(rec: Rec): void;
  dropFiles(id: string): void;
  load(): Restored[];
}

const safeId = (id: string) => /^[a-z0-9]+$/.test(id);

export function persistence(dataDir: string, log: (line: string) => void): Persistence {
  const predictions = jsonRecords<Saved>(path.join(dataDir, 'predictions'), (line) => log(`replicate-sim: ${line}`));
  const files = path.join(dataDir, 'files');
  fs.mkdirSync(files, { recursive: true });

  return {
    save(rec) {
      const saved: Saved = {
        p: rec.p,
        modelId: rec.model.id,
        input: rec.input,
        seed: rec.seed,
        createdMs: rec.createdMs,
        ...(rec.startedMs !== undefined ? { startedMs: rec.startedMs } : {}),
        ...(rec.completedMs !== undefined ? { completedMs: rec.completedMs } : {}),
        totalMs: rec.totalMs,
        markers: [...rec.markers],
        ...(rec.webhook ? { webhook: rec.webhook } : {}),
        events: [...rec.events],
        files: [...rec.files].map(([name, f]) => ({ name, type: f.type })),
      };
      predictions.save(rec.p.id, saved);
    },
    saveFiles(rec) {
      const dir = path.join(files, rec.p.id);
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, f] of rec.files) writeFileAtomic(path.join(dir, name), f.data);
    },
    dropFiles(id) {
      if (safeId(id)) fs.rmSync(path.join(files, id), { recursive: true, force: true });
    },
    load() {
      const out: Restored[] = [];
      for (const s of predictions.loadAll()) {
        try {
          const model = SIM_MODELS.find((m) => m.id === s.modelId);
          if (!model || !safeId(s.p.id)) continue;
          const restored = new Map<string, OutputFile>();
          for (const f of s.files) {
            const file = path.join(files, s.p.id, f.name);
            if (fs.existsSync(file)) restored.set(f.name, { type: f.type, data: fs.readFileSync(file) });
          }
          out.push({
            p: s.p,
            model,
            input: s.input,
            seed: s.seed,
            createdMs: s.createdMs,
            startedMs: s.startedMs,
            completedMs: s.completedMs,
            totalMs: s.totalMs,
            markers: new Set(s.markers),
            webhook: s.webhook,
            events: new Set(s.events),
            files: restored,
          });
        } catch {
          // A record of another shape (written by an older simulator) is skipped, as an unreadable one is.
        }
      }
      return out.sort((a, b) => a.createdMs - b.createdMs);
    },
  };
}
