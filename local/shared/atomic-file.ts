/**
 * State files of the embedded stack that survive `kill -9`: a write goes to a temporary file renamed over the old one
 * (a rename is atomic on one file system), so a reader finds the old content or the new, never a half-written file.
 * Three fs calls: written here rather than adding a dependency (write-file-atomic ships no types) for them.
 */
import fs from 'node:fs';

export function writeFileAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/**
 * A JSON state file: `missing` when there is none, `unreadable` when it is there but not JSON (written by something
 * older than writeFileAtomic, or damaged): the caller decides what to start from instead of failing to start.
 */
export function readJsonFile<T>(file: string): { found: T } | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    return { found: JSON.parse(text) as T };
  } catch {
    return 'unreadable';
  }
}
