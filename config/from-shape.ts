/**
 * A shape of the core (recovery/shape.ts: the budgets and backoff the workflows check too) as a part of a zod
 * schema on the Node side (config/schema.ts, plugin/shadow/options.ts): its check, its messages, its paths below the
 * field. Node-side only.
 */
import { z } from 'zod';
import type { Infer, Input, Shape } from '../recovery/shape';

export function fromShape<S extends Shape<unknown, unknown>>(shape: S) {
  return z
    .custom<Input<S>>(() => true)
    .transform((value, ctx): Infer<S> => {
      const r = shape.safeParse(value);
      if (r.success) return r.data as Infer<S>;
      for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
      return z.NEVER;
    });
}
