/** One dependency check: resolves when the dependency answers, rejects otherwise. */
export type Probe = () => Promise<void>;
