import { AppError } from '../../lambdas/domain/errors';

/** The typed error a use case threw (a caller's 4xx or 5xx), or a failure when it threw nothing or something else. */
export async function caught(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an error');
}
