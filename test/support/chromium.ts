/**
 * Debian's Chromium (`apt-get install chromium`; never `playwright install`) and the flags every headless run
 * here needs: no sandbox or GPU in a container, and no background traffic (updates, sync, QUIC) off the machine.
 * Shared by the Playwright config and the Lighthouse benchmark.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
