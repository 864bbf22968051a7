/**
 * GET /api/models, asked once per page load: the registry as the server runs it (what each model and operation takes
 * and what its default options cost). A failed answer is forgotten, so the next viewer asks again.
 */
import { useEffect, useState } from 'react';
import type { ModelsResponse } from '../../../../contract/schemas';
import { api } from '../../lib/api-client';

export type ModelEntry = ModelsResponse['models'][number];

let pending: Promise<ModelEntry[]> | undefined;

export function loadModels(): Promise<ModelEntry[]> {
  pending ??= api.models().then(
    (r) => r.models,
    (err: unknown) => {
      pending = undefined;
      throw err;
    },
  );
  return pending;
}

/** Forgets the answer (tests start each page afresh). */
export function resetModels(): void {
  pending = undefined;
}

/** The registry's entries by id; undefined until they came (or when they could not be had). */
export function useModels(): ReadonlyMap<string, ModelEntry> | undefined {
  const [models, setModels] = useState<ReadonlyMap<string, ModelEntry>>();
  useEffect(() => {
    let live = true;
    loadModels().then(
      (list) => live && setModels(new Map(list.map((m) => [m.id, m]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return models;
}
