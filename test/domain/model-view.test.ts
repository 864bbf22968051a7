import { everyCombination, MODELS, priceOf, replicateModelOf } from '../../contract/models';
import { MODEL_VIEWS, priceTable } from '../../contract/models/view';

describe('the registry as the pages and GET /api/models show it', () => {
  it('has one view per entry, in the registry order, with its prose', () => {
    expect(MODEL_VIEWS.map((v) => v.id)).toEqual(MODELS.map((m) => m.slug));
    for (const view of MODEL_VIEWS) {
      expect(view.tagline).not.toBe('');
      expect(view.strengths.length).toBeGreaterThan(0);
    }
  });

  it.each(MODELS.map((m) => [m.slug, m] as const))('%s: every cell of its price table is what the server charges for that order', (_, model) => {
    const table = priceTable(model);
    if (model.upcoming || model.rerun) {
      expect(table).toBeNull();
      return;
    }
    const { rows, columns, costs } = table!;
    (rows?.values ?? [undefined]).forEach((r, i) =>
      (columns?.values ?? [undefined]).forEach((c, j) => {
        const price = priceOf(model, { ...(rows && r ? { [rows.id]: r.value } : {}), ...(columns && c ? { [columns.id]: c.value } : {}) });
        expect(costs[i]![j]).toBe(price.ok ? price.cost : null);
      }),
    );
    // The axes are exactly the choices that move the price: every other choice leaves every order's price as it is.
    const axes = new Set([rows?.id, columns?.id]);
    for (const combo of everyCombination(model)) {
      const fixed = Object.fromEntries(Object.entries(combo).filter(([id]) => axes.has(id)));
      const [a, b] = [priceOf(model, combo), priceOf(model, fixed)];
      if (a.ok && b.ok) expect(a.cost).toBe(b.cost);
    }
  });

  it("names the Replicate model an order runs from the entry's own plan: Wan by its start image", () => {
    const wan = MODELS.find((m) => m.slug === 'wan')!;
    expect(replicateModelOf(wan, {}, false)).toBe('wavespeedai/wan-2.1-t2v-480p');
    expect(replicateModelOf(wan, { duration: 10 }, true)).toBe('wavespeedai/wan-2.1-i2v-480p');
    expect(replicateModelOf(MODELS.find((m) => m.slug === 'variations')!, {}, true)).toBeUndefined();
  });
});
