/**
 * Named collections in My Account: results put in a new collection from the gallery's selection and from the viewer,
 * the gallery filtered by a collection beside Favourites, a deleted result gone from its collection, results taken
 * out of a collection (from the viewer and from a selection), a collection renamed and deleted (its results stay);
 * axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi } from './support/accounts';
import { makeImages } from './support/generators';

test('put results in named collections and filter the gallery by one', async ({ page }) => {
  await loginViaUi(page, await createVerifiedUser());
  await makeImages(page, ['A lighthouse at dusk', 'A red kite', 'A quiet harbour']);
  await page.goto('/admin?tab=previous-prompts');
  const cards = page.getByTestId('media-card');
  await expect(cards).toHaveCount(3);

  // From the selection: two results into a new collection.
  await page.getByRole('checkbox', { name: 'Select image: A lighthouse at dusk' }).check();
  await page.getByRole('checkbox', { name: 'Select image: A quiet harbour' }).check();
  const selection = page.getByRole('toolbar', { name: 'Selection' });
  await selection.getByLabel('New collection name').fill('Coast');
  await selection.getByRole('button', { name: 'Add to collection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added 2 items to Coast.' })).toBeVisible();

  // From the viewer: the kite into another new one.
  await page.getByRole('button', { name: 'Open full size: A red kite' }).click();
  const viewer = page.getByRole('dialog', { name: /^Image \d+ of 3$/ });
  await viewer.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Add to collection' }).click();
  const form = viewer.getByRole('form', { name: 'Add to collection' });
  await expect(form.getByRole('combobox', { name: 'Collection', exact: true })).toHaveValue('');
  await form.getByLabel('New collection name').fill('Sky');
  await form.getByRole('button', { name: 'Add to collection' }).click();
  await expect(viewer.getByRole('status').filter({ hasText: 'Added 1 item to Sky.' })).toBeVisible();
  await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'viewer with collections' });
  await page.keyboard.press('Escape');

  // The filter beside Favourites.
  const filter = page.getByRole('group', { name: 'Filters' }).getByRole('combobox', { name: 'Collection', exact: true });
  await filter.selectOption({ label: 'Coast' });
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'A red kite' })).toHaveCount(0);
  await filter.selectOption({ label: 'Sky' });
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('A red kite');
  await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'gallery filtered by collection' });

  // A deleted result leaves its collection.
  await filter.selectOption({ label: 'Coast' });
  await expect(cards).toHaveCount(2);
  await page.getByRole('button', { name: 'Delete image: A quiet harbour' }).click();
  await page.getByRole('dialog', { name: 'Delete this image?' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(cards).toHaveCount(1);
  await page.reload();
  await filter.selectOption({ label: 'Coast' });
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('A lighthouse at dusk');
  await filter.selectOption({ label: 'All results' });
  await expect(cards).toHaveCount(2);

  // Out of a collection from the viewer: the kite leaves Sky, and the viewer closes on the now empty list.
  await filter.selectOption({ label: 'Sky' });
  await expect(cards).toHaveCount(1);
  await page.getByRole('button', { name: 'Open full size: A red kite' }).click();
  await page.getByRole('dialog', { name: 'Image 1 of 1' }).getByRole('button', { name: 'Remove from Sky' }).click();
  await expect(page.getByRole('dialog', { name: 'Image 1 of 1' })).toHaveCount(0);
  await expect(cards).toHaveCount(0);
  await expect(page.getByText('Nothing matches these filters.')).toBeVisible();

  // Rename: the filter and the viewer's list say the new name.
  await filter.selectOption({ label: 'Coast' });
  const manage = page.getByRole('group', { name: 'Collection Coast' });
  await manage.getByRole('button', { name: 'Rename collection' }).click();
  await manage.getByRole('textbox', { name: 'New name' }).fill('  Seaside ');
  await manage.getByRole('button', { name: 'Save name' }).click();
  await expect(filter.getByRole('option', { name: 'Seaside' })).toHaveCount(1);
  await expect(filter.getByRole('option', { name: 'Coast' })).toHaveCount(0);
  await expect(filter).toHaveValue(/.+/);
  await expect(cards).toHaveCount(1);

  // Out of a collection for a selection: the kite goes in from All results, then out again while Seaside is shown.
  await filter.selectOption({ label: 'All results' });
  await page.getByRole('checkbox', { name: 'Select image: A red kite' }).check();
  await selection.getByRole('combobox', { name: 'Collection', exact: true }).selectOption({ label: 'Seaside' });
  await selection.getByRole('button', { name: 'Add to collection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added 1 item to Seaside.' })).toBeVisible();
  await filter.selectOption({ label: 'Seaside' });
  await expect(cards).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select image: A red kite' }).check();
  await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'collection with its actions' });
  await selection.getByRole('button', { name: 'Remove from Seaside' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Removed 1 item from Seaside.' })).toBeVisible();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('A lighthouse at dusk');

  // Delete the collection: asked first; the gallery goes back to all results, which are all still there.
  await page.getByRole('group', { name: 'Collection Seaside' }).getByRole('button', { name: 'Delete collection' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the collection Seaside?' });
  await expect(confirm).toContainText('the results in it stay in your gallery');
  await confirm.getByRole('button', { name: 'Delete collection' }).click();
  await expect(filter).toHaveValue('');
  await expect(filter.getByRole('option', { name: 'Seaside' })).toHaveCount(0);
  await expect(cards).toHaveCount(2);
  await page.reload();
  await expect(cards).toHaveCount(2);
  await expect(filter.getByRole('option')).toHaveText(['All results', 'Sky']);
});
