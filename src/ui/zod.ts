import { z } from 'zod';

// The pages' CSP has no 'unsafe-eval'. Zod's compiled fast path probes `new Function`
// on the first parse, which Chromium reports as a CSP violation (Lighthouse's best
// practices); the interpreted path is plenty for forms. Import z from here, never from 'zod'.
z.config({ jitless: true });

export { z };
