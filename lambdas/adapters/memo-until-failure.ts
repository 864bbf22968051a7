/**
 * `make()` run once and its promise shared by every caller (one secret read or client per function instance),
 * but forgotten when it fails, or on forget(), so that the next call tries again instead of failing for the
 * rest of the instance's life.
 */
export function memoUntilFailure<T>(make: () => Promise<T>): (() => Promise<T>) & { forget(): void } {
  let cached: Promise<T> | undefined;
  const get = () =>
    (cached ??= make().catch((err: unknown) => {
      cached = undefined;
      throw err;
    }));
  return Object.assign(get, {
    forget() {
      cached = undefined;
    },
  });
}
