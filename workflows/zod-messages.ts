/**
 * zod's English error messages inside the workflow bundle. zod installs them as a module side effect, and zod's
 * package.json says `"sideEffects": false`, so Temporal's webpack bundle drops it: without this import every issue
 * reads "Invalid input". Import it (for its effect) from each workflow module that reports zod issues.
 */
import { z } from 'zod';

z.config(z.locales.en());
