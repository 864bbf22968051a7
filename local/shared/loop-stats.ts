/**
 * The event-loop delay of the stack's one process, as Node's own histogram measures it: every function, simulator
 * and emulator of the embedded stack shares this loop, so its delay is what a request waits before its code runs.
 * `read()` answers the delay since the previous read (ms) and starts a new window.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopWindow {
  loopDelayMs: { p50: number; p99: number; max: number };
}

export function loopStats(): { read(): LoopWindow } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns: number) => Math.round(ns / 1e6);
  return {
    read() {
      const window = { loopDelayMs: { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) } };
      h.reset();
      return window;
    },
  };
}
