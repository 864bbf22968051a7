/**
 * How a simulator keeps its state on disk, so a restart of the stack (even a `kill -9`) forgets nothing, as the real
 * service would not: JSON records in one folder, `<dir>/<id>.json`, each written atomically (atomic-file.ts), and
 * a record that cannot be read skipped with a line in the log rather than stopping the start.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from './atomic-file';

export interface JsonRecords<T> {
  save(id: string, value: T): void;
  /** The record saved under `id`; undefined when there is none or it cannot be read. */
  load(id: string): T | undefined;
  /** Every readable record, in no particular order. */
  loadAll(): T[];
}

const safeId = (id: string) => /^[A-Za-z0-9_-]+$/.test(id);

export function jsonRecords<T>(dir: string, log: (line: string) => void): JsonRecords<T> {
  fs.mkdirSync(dir, { recursive: true });
  const fileOf = (id: string) => {
    if (!safeId(id)) throw new Error(`persist: ${id} is not a record id`);
    return path.join(dir, `${id}.json`);
  };
  const read = (file: string): T | undefined => {
    const got = readJsonFile<T>(file);
    if (got === 'unreadable') log(`${file} is unreadable: skipped`);
    return typeof got === 'object' ? got.found : undefined;
  };
  return {
    save(id, value) {
      writeFileAtomic(fileOf(id), JSON.stringify(value));
    },
    load: (id) => read(fileOf(id)),
    loadAll() {
      const out: T[] = [];
      for (const name of fs.readdirSync(dir)) {
        if (!name.endsWith('.json')) continue;
        const value = read(path.join(dir, name));
        if (value !== undefined) out.push(value);
      }
      return out;
    },
  };
}

/**
 * The request listener, saving the state just before any answer to a request that can change it (not a GET), so
 * what a caller was told is on disk even if the process is killed right after.
 */
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
