import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { CreditPacks } from './credit-packs';

/** The generators' 'Buy Credits' toggle: reveals the three packs. */
export function BuyCreditsToggle({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div>
      <Button variant="secondary" size="sm" fullWidth aria-expanded={open} aria-controls={panelId} disabled={disabled} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide Credit Packs' : 'Buy Credits'}
      </Button>
      <div id={panelId} hidden={!open} className="mt-3">
        {open && <CreditPacks />}
      </div>
    </div>
  );
}
