/**
 * What a visitor does on a prerendered page before the app has hydrated it, kept to be done again once it has.
 *
 * A prerendered public page is complete HTML: it reads, scrolls and plays without any script. The app (React, the
 * router, the page's components: about 115 kB gzip) is loaded and hydrated on the visitor's first sign of intent
 * (a touch, a pointer or key press, focus, the mouse over the page), not while the page loads: its evaluation is one
 * long task of the main thread that a phone feels as a frozen page (Lighthouse counts it as blocking time).
 *
 * A click or a form submission that comes before the app is ready is held (its default action prevented, so a link
 * does not load a whole new document) and replayed on the same element once the app has hydrated it: a link then
 * navigates in the app, a button does what its handler says. Hand-written: nothing maintained does this for a plain
 * React app (frameworks that hydrate on interaction, such as Astro's islands or Qwik, bring their own renderer).
 */

/** Events that show the visitor is about to use the page. */
export const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'mouseover', 'wheel'] as const;

type Held = { kind: 'click'; target: Element } | { kind: 'submit'; form: HTMLFormElement; submitter: HTMLElement | null };

export interface EarlyInput {
  /** Calls `start` once, on the first intent event. */
  whenIntended(start: () => void): void;
  /** Stops holding input and replays what was held, in order. Call once the app has hydrated the page. */
  release(): Promise<void>;
}

export function holdEarlyInput(root: HTMLElement, doc: Document = document): EarlyInput {
  const held: Held[] = [];
  let holding = true;

  const onClick = (event: MouseEvent) => {
    if (!holding || event.defaultPrevented || event.button !== 0) return;
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !root.contains(target)) return;
    // Only what the app handles: links of this site (not downloads, new tabs or other sites), buttons and their parts.
    const link = target.closest('a[href]');
    const actionable = link ?? target.closest('button, [role="button"], summary, label, input[type="checkbox"], input[type="radio"]');
    if (!actionable) return;
    if (link && !isInAppLink(link as HTMLAnchorElement, event)) return;
    event.preventDefault();
    event.stopPropagation();
    held.push({ kind: 'click', target: actionable });
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!holding || !(event.target instanceof HTMLFormElement) || !root.contains(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
    held.push({ kind: 'submit', form: event.target, submitter: event.submitter });
  };
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('submit', onSubmit, true);

  return {
    whenIntended(start) {
      let started = false;
      const go = () => {
        if (started) return;
        started = true;
        for (const type of INTENT_EVENTS) doc.removeEventListener(type, go, true);
        start();
      };
      for (const type of INTENT_EVENTS) doc.addEventListener(type, go, { capture: true, passive: true });
    },
    async release() {
      // One at a time, each in its own task: React applies a change after the event (in a microtask), and a handler
      // that spreads the form's last state would otherwise overwrite the previous field's change.
      // The text is read first: a controlled field the app re-renders before its turn is set back to the app's state.
      const typed = [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
        .filter((f) => (f instanceof HTMLTextAreaElement || TEXT_INPUTS.has(f.type)) && f.value !== f.defaultValue)
        .map((field) => ({ field, text: field.value }));
      for (const { field, text } of typed) {
        retype(field, text);
        await nextTask();
      }
      // Clicks and submissions are held until every typed field is in the app's state: a send pressed while the text
      // is being handed over would otherwise go out with the fields not yet handed over.
      holding = false;
      doc.removeEventListener('click', onClick, true);
      doc.removeEventListener('submit', onSubmit, true);
      for (const h of held.splice(0)) {
        if (h.kind === 'click') {
          if (h.target.isConnected) (h.target as HTMLElement).click();
        } else if (h.form.isConnected) {
          h.form.requestSubmit(h.submitter && h.submitter.isConnected ? h.submitter : null);
        }
        await nextTask();
      }
    },
  };
}

const TEXT_INPUTS = new Set(['text', 'email', 'search', 'tel', 'url', 'password', 'number']);

/**
 * Text typed before hydration is in the field but not in the app's state (React adopted the field as it found it).
 * Typing it again, as the browser's own input event would, hands it to the field's change handler: React's setter
 * empties the field (so React's value tracker sees a change), the prototype's setter puts the text back unseen.
 */
function retype(field: HTMLInputElement | HTMLTextAreaElement, typed: string): void {
  if (!field.isConnected) return;
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  field.value = field.defaultValue;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function isInAppLink(link: HTMLAnchorElement, event: MouseEvent): boolean {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.hasAttribute('download') || (link.target && link.target !== '_self')) return false;
  return link.origin === window.location.origin;
}
